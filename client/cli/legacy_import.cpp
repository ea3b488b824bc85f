#include "legacy_import.hpp"

#include "commands.hpp"
#include "interrupt.hpp"
#include "pg_binary.hpp"

#include "codec/error_position.hpp"
#include "codec/legacy/transaction.hpp"
#include "codec/legacy/trinary.hpp"

#include "permanode/client.hpp"
#include "pq/pipeline.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>

namespace permanode::cli
{

namespace legacy = codec::legacy;

std::vector<SnapshotEntry> ReadSnapshotFile(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw DmpInputError(path + ": cannot open");
    std::vector<SnapshotEntry> entries;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); number++)
    {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        std::size_t semicolon = line.find(';');
        SnapshotEntry entry;
        entry.address = line.substr(0, semicolon);
        bool ok = semicolon != std::string::npos && entry.address.size() == legacy::kHashTrytes &&
                  std::all_of(entry.address.begin(), entry.address.end(), legacy::IsTryte);
        try
        {
            std::size_t used = 0;
            if (ok)
                entry.balance = std::stoll(line.substr(semicolon + 1), &used);
            ok = ok && used == line.size() - semicolon - 1 && entry.balance >= 0;
        }
        catch (const std::exception &)
        {
            ok = false;
        }
        if (!ok)
            throw DmpInputError(fmt::format("{}:{}: a snapshot line is ADDRESS;BALANCE (81 "
                                            "trytes; a balance of 0 or more)",
                                            path, number));
        entries.push_back(std::move(entry));
    }
    return entries;
}

// One connection of the pool: legacy.ingest() with binary parameters, one batch in flight.
struct DmpImporter::Connection
{
    explicit Connection(const std::string &dsn) : pipeline(dsn)
    {
        std::unique_ptr<pq::Result> types;
        try
        {
            types = pipeline.Run("SELECT 'permanode.trytes81'::regtype::oid, "
                                 "'permanode.trytes81[]'::regtype::oid");
        }
        catch (const pq::ServerError &e)
        {
            throw client::Error("the legacy era is missing (permanode 0.6.0 or later): " +
                                    e.Describe(),
                                e.sqlstate());
        }
        trytes81_oid = static_cast<std::uint32_t>(std::stoul(std::string(types->Text(0, 0))));
        trytes81_array_oid = static_cast<std::uint32_t>(std::stoul(std::string(types->Text(0, 1))));
    }

    // Runs a statement with text parameters and returns the first value.
    std::string Exec(const char *sql, const std::vector<std::string> &params)
    {
        std::vector<const char *> values;
        for (const auto &p : params)
            values.push_back(p.c_str());
        try
        {
            std::unique_ptr<pq::Result> result = pipeline.Run(sql, pq::Params(values));
            return result->Rows() ? std::string(result->Text(0, 0)) : "";
        }
        catch (const pq::ServerError &e)
        {
            throw client::Error(std::string(sql) + ": " + e.Describe(), e.sqlstate());
        }
    }

    pq::Pipeline pipeline;
    std::uint32_t trytes81_oid = 0;
    std::uint32_t trytes81_array_oid = 0;
};

// A batch: each line with where it came from.
struct DmpImporter::Pending
{
    std::vector<DmpLine> lines;
    std::vector<std::string> files;
    std::vector<std::size_t> numbers;
};

// A connection of the pool and the batch it has in flight (none when `lines` is empty).
struct DmpImporter::Slot
{
    explicit Slot(const std::string &dsn) : connection(dsn) {}
    Connection connection;
    Pending in_flight;
};

DmpImporter::DmpImporter(const std::string &dsn, std::string layout, std::size_t batch_size,
                         int jobs)
    : layout_(std::move(layout)), batch_size_(std::max<std::size_t>(1, batch_size)),
      pending_(std::make_unique<Pending>())
{
    for (int i = 0; i < std::max(1, jobs); i++)
        slots_.push_back(std::make_unique<Slot>(dsn));
}

DmpImporter::~DmpImporter() = default;

void DmpImporter::SetCoordinator(const std::string &address)
{
    slots_.front()->connection.Exec(
        "SELECT legacy.configure(coordinator => $1::permanode.trytes81)", {address});
}

void DmpImporter::LoadSnapshot(const std::vector<SnapshotEntry> &entries)
{
    std::string addresses = "{", balances = "{";
    for (std::size_t i = 0; i < entries.size(); i++)
    {
        addresses += (i ? "," : "") + entries[i].address;
        balances += (i ? "," : "") + std::to_string(entries[i].balance);
    }
    slots_.front()->connection.Exec(
        "SELECT legacy.load_snapshot($1::permanode.trytes81[], $2::bigint[])",
        {addresses + "}", balances + "}"});
}

void DmpImporter::Add(DmpLine line, const std::string &file, std::size_t line_number)
{
    pending_->lines.push_back(std::move(line));
    pending_->files.push_back(file);
    pending_->numbers.push_back(line_number);
    lines_++;
    if (pending_->lines.size() >= batch_size_)
        Flush();
}

void DmpImporter::Finish()
{
    if (!pending_->lines.empty())
        Flush();
    for (std::size_t i = 0; i < slots_.size(); i++)
        Await(*slots_[(next_slot_ + i) % slots_.size()]);
    days_rolled_up_ =
        std::stoul(slots_.front()->connection.Exec("SELECT legacy.rollup_daily_analytics()", {}));
}

// Sends the queued lines on the next connection, once its batch before has committed. The
// server computes every hash and refuses a batch whose hash is not its line's (Await names the
// line).
void DmpImporter::Flush()
{
    Slot &slot = *slots_[next_slot_];
    next_slot_ = (next_slot_ + 1) % slots_.size();
    Await(slot);
    slot.in_flight = std::move(*pending_);
    *pending_ = Pending();
    const std::vector<DmpLine> &lines = slot.in_flight.lines;
    std::string transactions, hashes, indexes;
    pgbin::PutArrayHeader(transactions, pgbin::kByteaOid, lines.size());
    pgbin::PutArrayHeader(hashes, slot.connection.trytes81_oid, lines.size());
    pgbin::PutArrayHeader(indexes, pgbin::kInt4Oid, lines.size());
    for (const DmpLine &line : lines)
    {
        codec::Bytes bytes = legacy::TransactionToBytes(line.trytes);
        pgbin::PutBytes(transactions, bytes.data(), bytes.size());
        legacy::Trits hash_trits = legacy::TrytesToTrits(line.hash);
        codec::Bytes hash = legacy::EncodeT5b1(hash_trits.data(), hash_trits.size());
        pgbin::PutBytes(hashes, hash.data(), hash.size());
        std::string index;
        pgbin::PutU32(index, line.snapshot_index);
        pgbin::PutBytes(indexes, reinterpret_cast<const std::uint8_t *>(index.data()), 4);
    }
    std::string layout = layout_ == "auto" ? "" : layout_;
    pq::Params params;
    for (const std::string *value : {&transactions, &hashes, &indexes})
        params.Add(*value, pq::Format::kBinary);
    if (layout.empty())
        params.AddNull();
    else
        params.Add(layout, pq::Format::kText);
    slot.connection.pipeline.Send("SELECT legacy.ingest($1::bytea[], $2::permanode.trytes81[], "
                                  "$3::int[], $4::text)",
                                  params);
}

void DmpImporter::Await(Slot &slot)
{
    Pending batch = std::move(slot.in_flight);
    slot.in_flight = Pending();
    if (batch.lines.empty())
        return;
    pq::Outcome outcome = slot.connection.pipeline.Receive();
    if (!outcome.error)
    {
        imported_ += std::stoul(std::string(outcome.result->Text(0, 0)));
        return;
    }
    // legacy.decode_transactions names the first transaction whose hash is not the one given by
    // its position in the batch (codec/error_position.hpp): name its file and line.
    const pq::ServerError &error = *outcome.error;
    std::optional<std::size_t> position = error.Position(codec::kBatchTransaction);
    if (position && *position >= 1 && *position <= batch.lines.size())
    {
        std::size_t i = *position - 1;
        throw DmpInputError(fmt::format("{}:{}: {} (the line's hash is {})", batch.files[i],
                                        batch.numbers[i], error.message(), batch.lines[i].hash));
    }
    std::string source =
        batch.files.front() == batch.files.back()
            ? fmt::format("{}:{}-{}", batch.files.front(), batch.numbers.front(),
                          batch.numbers.back())
            : fmt::format("{}:{} to {}:{}", batch.files.front(), batch.numbers.front(),
                          batch.files.back(), batch.numbers.back());
    throw client::Error("lines " + source + ": " + error.Describe(), error.sqlstate());
}

int ImportDmpFiles(const std::string &dsn, const DmpImportOptions &options)
{
    try
    {
        DmpImporter importer(dsn, options.layout, options.batch_size, options.jobs);
        if (!options.coordinator.empty())
            importer.SetCoordinator(options.coordinator);
        if (!options.snapshot.empty())
            importer.LoadSnapshot(ReadSnapshotFile(options.snapshot));
        for (const std::string &path : options.files)
        {
            std::ifstream file;
            if (path != "-")
            {
                file.open(path);
                if (!file)
                    throw DmpInputError(path + ": cannot open");
            }
            std::istream &in = path == "-" ? std::cin : file;
            std::string text;
            for (std::size_t number = 1; std::getline(in, text) && !Interrupted(); number++)
            {
                if (text.empty() || text == "\r")
                    continue;
                try
                {
                    importer.Add(ParseDmpLine(text), path, number);
                }
                catch (const DmpLineError &e)
                {
                    throw DmpInputError(fmt::format("{}:{}: {}", path, number, e.what()));
                }
            }
        }
        importer.Finish();
        fmt::print(stderr, "{} lines, {} new transactions, {} days rolled up\n", importer.Lines(),
                   importer.Imported(), importer.DaysRolledUp());
        return Interrupted() ? kInterrupted : kOk;
    }
    catch (const DmpInputError &e)
    {
        fmt::print(stderr, "{}\n", e.what());
        return kBadInput;
    }
    catch (const client::Error &e)
    {
        fmt::print(stderr, "{} (SQLSTATE {})\n", e.what(), e.sqlstate());
        return kDatabase;
    }
}

} // namespace permanode::cli
