#include "ledger/cone_input.hpp"

#include "codec/error_position.hpp"

extern "C"
{
#include "utils/array.h"
#include "utils/lsyscache.h"
}

namespace permanode::ledger
{
namespace
{

void CheckLength(const ArrayArg &arg, const char *name, int blocks)
{
    if (arg.given && arg.count != blocks)
        throw InvalidArgument("arrays of different lengths: " + std::to_string(blocks) +
                                  " blocks, " + std::to_string(arg.count) + " " + name,
                              "blocks, inclusion_states and conflict_reasons have one element "
                              "per block of the cone.");
}

// A smallint metadata code of block i (0 when the array is not given).
std::uint8_t CodeAt(const ArrayArg &arg, int i, const char *name)
{
    if (!arg.given)
        return 0;
    if (arg.nulls[i])
        throw InvalidArgument(std::string(name) + " of block " + std::to_string(i) + " is null");
    int16 code = DatumGetInt16(arg.values[i]);
    if (code < 0 || code > 255)
        throw InvalidArgument("invalid " + std::string(name) + " " + std::to_string(code) +
                              " of block " + std::to_string(i));
    return static_cast<std::uint8_t>(code);
}

} // namespace

void DeconstructArg(FunctionCallInfo fcinfo, int arg, ArrayArg &out)
{
    if (PG_ARGISNULL(arg))
        return;
    ArrayType *array = PG_GETARG_ARRAYTYPE_P(arg);
    if (ARR_NDIM(array) > 1)
        ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                        errmsg("argument %d of %s must be a one-dimensional array", arg + 1,
                               get_func_name(fcinfo->flinfo->fn_oid))));
    int16 typlen;
    bool typbyval;
    char typalign;
    get_typlenbyvalalign(ARR_ELEMTYPE(array), &typlen, &typbyval, &typalign);
    deconstruct_array(array, ARR_ELEMTYPE(array), typlen, typbyval, typalign, &out.values,
                      &out.nulls, &out.count);
    out.given = true;
}

codec::ByteSpan BytesOf(Datum value)
{
    const auto *bytes = reinterpret_cast<const struct varlena *>(DatumGetPointer(value));
    return codec::ByteSpan(reinterpret_cast<const uint8_t *>(VARDATA_ANY(bytes)),
                           VARSIZE_ANY_EXHDR(bytes));
}

pg::PgError InvalidArgument(const std::string &message, const std::string &detail)
{
    return pg::PgError(ERRCODE_INVALID_PARAMETER_VALUE, message, detail);
}

std::vector<BlockInput> ReadCone(FunctionCallInfo fcinfo, int blocks_arg, int states_arg,
                                 int reasons_arg)
{
    ArrayArg blocks, states, reasons;
    pg::CallPg(
        [&]
        {
            DeconstructArg(fcinfo, blocks_arg, blocks);
            DeconstructArg(fcinfo, states_arg, states);
            DeconstructArg(fcinfo, reasons_arg, reasons);
            for (int i = 0; i < blocks.count; ++i)
                if (!blocks.nulls[i])
                    blocks.values[i] = PointerGetDatum(PG_DETOAST_DATUM_PACKED(blocks.values[i]));
        });
    CheckLength(states, "inclusion states", blocks.count);
    CheckLength(reasons, "conflict reasons", blocks.count);
    std::vector<BlockInput> inputs(blocks.count);
    for (int i = 0; i < blocks.count; ++i)
    {
        if (blocks.nulls[i])
            throw InvalidArgument("block " + std::to_string(i) + " of the cone is null");
        inputs[i].bytes = BytesOf(blocks.values[i]);
        inputs[i].inclusion_state = CodeAt(states, i, "inclusion state");
        inputs[i].conflict_reason = CodeAt(reasons, i, "conflict reason");
    }
    return inputs;
}

pg::PgError ConeError(const InputError &e)
{
    int sqlstate = e.GetKind() == InputError::Kind::kMalformed ? ERRCODE_INVALID_TEXT_REPRESENTATION
                                                               : ERRCODE_INVALID_PARAMETER_VALUE;
    std::optional<std::size_t> block = e.Block();
    return pg::PgError(sqlstate, e.what(), e.Detail(), {},
                       block ? codec::PositionContext(codec::kConeBlock, *block) : std::string());
}

MilestoneRows DeriveCone(std::uint8_t protocol_version, std::uint32_t milestone_index,
                         std::uint32_t timestamp, const std::vector<BlockInput> &blocks,
                         const std::vector<SnapshotInput> &snapshot_outputs)
{
    try
    {
        if (protocol_version == kChrysalisProtocol)
            return DeriveChrysalisMilestone(milestone_index, timestamp, blocks, snapshot_outputs);
        return DeriveMilestone(milestone_index, timestamp, blocks, snapshot_outputs);
    }
    catch (const InputError &e)
    {
        throw ConeError(e);
    }
}

} // namespace permanode::ledger
