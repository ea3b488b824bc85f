/*
 * cone_input.hpp
 *	  A milestone's cone as SQL functions take it (blocks bytea[], inclusion_states smallint[],
 *	  conflict_reasons smallint[]), read into derive.hpp's inputs, and the derivation of its rows
 *	  with derive.hpp's errors as SQL errors. Shared by ingest_milestone and verify_cone.
 */
#ifndef PERMANODE_LEDGER_CONE_INPUT_HPP
#define PERMANODE_LEDGER_CONE_INPUT_HPP

extern "C"
{
#include "postgres.h"

#include "fmgr.h"
}

#include "codec/types.hpp"
#include "ledger/derive.hpp"
#include "pgcpp/guard.hpp"

#include <string>
#include <vector>

namespace permanode::ledger
{

// One array argument, deconstructed (elements point into the detoasted array).
struct ArrayArg
{
    bool given = false;
    int count = 0;
    Datum *values = nullptr;
    bool *nulls = nullptr;
};

// Deconstructs argument `arg` if it is not NULL. Calls into PostgreSQL: run inside CallPg.
void DeconstructArg(FunctionCallInfo fcinfo, int arg, ArrayArg &out);

codec::ByteSpan BytesOf(Datum value);

// 22023 with a message (and a detail).
pg::PgError InvalidArgument(const std::string &message, const std::string &detail = {});

// The cone's blocks with their metadata; the bytes point into the detoasted arguments.
std::vector<BlockInput> ReadCone(FunctionCallInfo fcinfo, int blocks_arg, int states_arg,
                                 int reasons_arg);

// The milestone's rows derived from its cone (and snapshot outputs), of either protocol; a
// cone that does not derive is a 22P02 (bytes) or 22023 (metadata) error naming the block.
MilestoneRows DeriveCone(std::uint8_t protocol_version, std::uint32_t milestone_index,
                         std::uint32_t timestamp, const std::vector<BlockInput> &blocks,
                         const std::vector<SnapshotInput> &snapshot_outputs);
// The same error from an InputError caught elsewhere.
pg::PgError ConeError(const InputError &e);

} // namespace permanode::ledger

#endif /* PERMANODE_LEDGER_CONE_INPUT_HPP */
