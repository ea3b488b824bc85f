// Era files: see era_files.hpp.
#include "era_files.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "codec/hex.hpp"
#include "codec/legacy/trinary.hpp"

namespace permanode::cli
{
namespace
{

// Calls `line_fn(text, number)` for each non-empty line of `path`.
template <typename LineFn> void ForEachLine(const std::string &path, LineFn line_fn)
{
    std::ifstream in(path);
    if (!in)
        throw EraFileError(fmt::format("{}: cannot read", path));
    std::string text;
    for (std::uint64_t number = 1; std::getline(in, text); ++number)
        if (!text.empty())
            line_fn(text, number);
}

} // namespace

std::vector<std::array<std::uint8_t, 49>> ReadMigrationTails(const std::string &path)
{
    std::vector<std::array<std::uint8_t, 49>> tails;
    ForEachLine(
        path,
        [&](const std::string &text, std::uint64_t number)
        {
            namespace legacy = codec::legacy;
            try
            {
                if (text.size() != legacy::kHashTrytes)
                    throw std::invalid_argument(fmt::format("{} characters, not 81", text.size()));
                legacy::Trits trits = legacy::TrytesToTrits(text, "tail transaction");
                codec::Bytes bytes = legacy::EncodeT5b1(trits.data(), trits.size());
                std::array<std::uint8_t, 49> tail{};
                std::copy(bytes.begin(), bytes.end(), tail.begin());
                tails.push_back(tail);
            }
            catch (const std::exception &e)
            {
                throw EraFileError(
                    fmt::format("{}:{}: not a transaction hash: {}", path, number, e.what()));
            }
        });
    return tails;
}

void WriteModel(const std::vector<ModelOutput> &model, const std::string &path)
{
    std::ofstream out(path, std::ios::trunc);
    for (const ModelOutput &o : model)
        out << o.output_id << ' ' << codec::ToHex(o.owner_hash) << ' ' << o.amount << '\n';
    if (!out.flush())
        throw EraFileError(fmt::format("{}: cannot write", path));
}

std::vector<ModelOutput> ReadModel(const std::string &path)
{
    std::vector<ModelOutput> model;
    ForEachLine(path,
                [&](const std::string &text, std::uint64_t number)
                {
                    std::istringstream fields(text);
                    ModelOutput o;
                    std::string owner;
                    fields >> o.output_id >> owner >> o.amount;
                    auto hash = codec::FromHexFixed<32>(owner);
                    if (!fields || !codec::FromHexFixed<34>(o.output_id) || !hash)
                        throw EraFileError(fmt::format(
                            "{}:{}: expected OUTPUT_ID OWNER_HASH AMOUNT (0x-hex of 34 and 32 "
                            "bytes, a decimal)",
                            path, number));
                    o.kind = "legacy";
                    o.owner_hash = *hash;
                    model.push_back(std::move(o));
                });
    return model;
}

} // namespace permanode::cli
