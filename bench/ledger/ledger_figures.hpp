// The real ledger's lookups as the HTTP API runs them (the client library's queries), timed over
// keys sampled from chosen ranges: cold_ledger_bench compares them cold against hot, the capacity
// run (bench/capacity) watches them as the ledger grows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "permanode/client.hpp"

namespace permanode::bench
{

// Where the keys come from: rows of ranges [first, end); with `only_there`, keys without a row
// in ranges at or after `end` (so that every row of a first page comes from those ranges).
struct KeySource
{
    int first = 0;
    int end = 0;
    bool only_there = false;
};

// The first column of `sql` (rows in random order), whose tables sample `percent` of their pages
// (TABLESAMPLE SYSTEM ({pct})): a small table's few sampled pages may hold fewer than 10 rows,
// and then every page is read.
std::vector<std::string> SampledColumn(pqxx::connection &conn, const std::string &sql, int percent);

// The keys every query is timed with.
struct LedgerKeys
{
    std::vector<std::string> outputs, blocks, transactions;
    std::vector<std::string> addresses, senders, tags, issuers, state_controllers;
    std::vector<std::string> deep_addresses;  // with more than 50 pages of outputs
    std::vector<client::Cursor> deep_cursors; // each one's cursor after page 49
};

// Samples `points` keys per point lookup and `pages` per first page (each timing takes half to
// warm up); deep pages only where the 50th page lies in the source's ranges. Throws when outputs,
// blocks or transactions have fewer than 10 keys; with `strict`, also when a page's kind does, or
// there are fewer than 2 deep addresses (otherwise that kind is left untimed).
LedgerKeys PickLedgerKeys(pqxx::connection &conn, client::Client &walker, const KeySource &source,
                          int points, int pages, bool strict);

// Every figure, in microseconds; a kind without keys is unset.
struct LedgerFigures
{
    double output = 0, block = 0, transaction = 0;
    std::optional<double> address, sender, tag, issuer, state_controller;
    std::optional<double> deep;
    double plan_output = 0;
    std::optional<double> plan_deep;
    // The first statement of a new connection (its setup not timed).
    double fresh_output = 0, fresh_block = 0;
    std::optional<double> fresh_address;
};

// Times every lookup on a new client of `dsn`; `fresh_keys` lookups on new connections each.
LedgerFigures MeasureLedger(const std::string &dsn, const LedgerKeys &keys, int fresh_keys);

} // namespace permanode::bench
