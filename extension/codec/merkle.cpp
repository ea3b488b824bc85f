#include "codec/merkle.hpp"

#include "codec/ids.hpp"

namespace permanode::codec
{
namespace
{

constexpr std::uint8_t kLeafPrefix = 0x00;
constexpr std::uint8_t kNodePrefix = 0x01;

Hash32 Node(const Hash32 *leaves, std::size_t count)
{
    Bytes input;
    if (count == 1)
    {
        input.push_back(kLeafPrefix);
        input.insert(input.end(), leaves[0].begin(), leaves[0].end());
        return Blake2b256(ByteSpan(input.data(), input.size()));
    }
    std::size_t split = 1;
    while (split * 2 < count)
        split *= 2;
    Hash32 left = Node(leaves, split);
    Hash32 right = Node(leaves + split, count - split);
    input.push_back(kNodePrefix);
    input.insert(input.end(), left.begin(), left.end());
    input.insert(input.end(), right.begin(), right.end());
    return Blake2b256(ByteSpan(input.data(), input.size()));
}

} // namespace

Hash32 MerkleRoot(const std::vector<Hash32> &leaves)
{
    if (leaves.empty())
        return Blake2b256(ByteSpan(nullptr, 0));
    return Node(leaves.data(), leaves.size());
}

} // namespace permanode::codec
