// The cone walk of a REST sync (see cone_walk.hpp).
#include "sync/cone_walk.hpp"

#include "codec/hex.hpp"
#include "codec/ids.hpp"
#include "codec/reader.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

namespace permanode::sync
{
namespace
{

// Where the parents stand in the bytes: after a u8 protocol version (Stardust blocks, TIP-24)
// or a u64 network ID (Chrysalis messages, TIP-6), as a u8 count then 32 bytes each.
std::vector<codec::BlockId> ParentsOf(const codec::Bytes &bytes, std::uint8_t protocol_version,
                                      const codec::BlockId &id)
{
    try
    {
        codec::ByteReader reader(bytes);
        if (protocol_version == 1)
            reader.ReadU64("message.network_id");
        else
            reader.ReadU8("block.protocol_version");
        std::uint8_t count = reader.ReadU8("parents count");
        std::vector<codec::BlockId> parents;
        for (std::uint8_t i = 0; i < count; ++i)
            parents.push_back(reader.ReadArray<32>("parent"));
        return parents;
    }
    catch (const std::exception &e)
    {
        throw NodeError(
            NodeError::Kind::kProtocol,
            fmt::format("block {}: its bytes do not decode: {}", codec::ToHex(id), e.what()));
    }
}

struct Found
{
    ConeBlock block;
    std::vector<codec::BlockId> parents;
    std::optional<std::uint32_t> white_flag_index;
};

// The node's own order, when it gives every block's place; nullopt when it gives none.
std::optional<std::vector<ConeBlock>> NodeOrder(std::map<codec::BlockId, Found> &cone,
                                                std::uint32_t index)
{
    std::vector<ConeBlock *> placed(cone.size(), nullptr);
    std::size_t given = 0;
    for (auto &[id, found] : cone)
    {
        if (!found.white_flag_index)
            continue;
        ++given;
        std::uint32_t at = *found.white_flag_index;
        if (at >= placed.size() || placed[at])
            throw NodeError(NodeError::Kind::kProtocol,
                            fmt::format("milestone {}: block {} has white-flag index {}, not one "
                                        "of 0 to {} left",
                                        index, codec::ToHex(id), at, cone.size() - 1));
        placed[at] = &found.block;
    }
    if (given == 0)
        return std::nullopt;
    if (given != cone.size())
        throw NodeError(NodeError::Kind::kProtocol,
                        fmt::format("milestone {}: the node gives the white-flag index of {} of "
                                    "its {} blocks only",
                                    index, given, cone.size()));
    std::vector<ConeBlock> ordered;
    for (ConeBlock *block : placed)
        ordered.push_back(std::move(*block));
    return ordered;
}

// A block the node does not have is not of the cone (the null parent, or one it pruned).
WalkedBlock FetchIfThere(const FetchBlock &fetch, const codec::BlockId &id)
{
    try
    {
        return fetch(id);
    }
    catch (const NodeError &e)
    {
        if (e.kind() != NodeError::Kind::kNotFound)
            throw;
        return WalkedBlock{};
    }
}

// Depth first from each root, parents in order, a block after its parents.
std::vector<ConeBlock> WhiteFlagOrder(const std::vector<codec::BlockId> &roots,
                                      std::map<codec::BlockId, Found> &cone)
{
    std::vector<ConeBlock> ordered;
    std::set<codec::BlockId> done;
    for (const codec::BlockId &root : roots)
    {
        std::vector<std::pair<codec::BlockId, std::size_t>> stack; // block, next parent
        if (cone.count(root) && !done.count(root))
            stack.emplace_back(root, 0);
        while (!stack.empty())
        {
            auto &[id, next] = stack.back();
            const Found &found = cone.at(id);
            if (next < found.parents.size())
            {
                const codec::BlockId &parent = found.parents[next++];
                if (cone.count(parent) && !done.count(parent) &&
                    std::none_of(stack.begin(), stack.end(),
                                 [&](const auto &entry) { return entry.first == parent; }))
                    stack.emplace_back(parent, 0);
                continue;
            }
            done.insert(id);
            ordered.push_back(std::move(cone.at(id).block));
            stack.pop_back();
        }
    }
    return ordered;
}

} // namespace

void ParallelFor(std::size_t count, int parallel, const std::function<void(std::size_t)> &fn)
{
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex mutex;
    auto work = [&]
    {
        for (std::size_t i; (i = next++) < count;)
        {
            try
            {
                fn(i);
            }
            catch (...)
            {
                std::lock_guard lock(mutex);
                if (!failure)
                    failure = std::current_exception();
                next = count;
            }
        }
    };
    std::size_t threads = std::min<std::size_t>(count, std::max(parallel, 1));
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &thread : pool)
        thread.join();
    if (failure)
        std::rethrow_exception(failure);
}

std::vector<ConeBlock> WalkCone(const std::vector<codec::BlockId> &roots, std::uint32_t index,
                                std::uint8_t protocol_version, const FetchBlock &fetch,
                                int parallel)
{
    std::map<codec::BlockId, Found> cone;
    std::set<codec::BlockId> seen(roots.begin(), roots.end());
    std::vector<codec::BlockId> level(seen.begin(), seen.end());
    while (!level.empty())
    {
        std::vector<WalkedBlock> fetched(level.size());
        ParallelFor(level.size(), parallel,
                    [&](std::size_t i) { fetched[i] = FetchIfThere(fetch, level[i]); });
        std::vector<codec::BlockId> next;
        for (std::size_t i = 0; i < level.size(); ++i)
        {
            if (fetched[i].referenced_by != index)
                continue; // an earlier milestone's, or not referenced: not of this cone
            Found found{std::move(fetched[i].block), {}, fetched[i].white_flag_index};
            found.parents = ParentsOf(found.block.bytes, protocol_version, level[i]);
            for (const codec::BlockId &parent : found.parents)
                if (seen.insert(parent).second)
                    next.push_back(parent);
            cone.emplace(level[i], std::move(found));
        }
        level = std::move(next);
    }
    if (auto ordered = NodeOrder(cone, index))
        return std::move(*ordered);
    return WhiteFlagOrder(roots, cone);
}

} // namespace permanode::sync
