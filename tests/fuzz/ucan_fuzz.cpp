// libFuzzer target for the UCAN verifier (client/http/server/ucan.hpp), which reads every bearer
// token of `serve --auth ucan`. The first byte of the input says what the rest is:
//   't'  the token itself (the base64 of a CAR);
//   'c'  the CAR's bytes, made a token here;
//   'b'  the blocks of a CAR (each: its codec byte, 0x71 dag-cbor or 0x55 raw, a 2-byte
//        big-endian length, its bytes), of which a CAR is built here: each block under its
//        right CID (sha-256), behind a root block that names the last one the invocation. A
//        mutated block keeps a CID of its own, so the fuzzer gets past the hash check to the
//        UCANs' dag-cbor, JWTs, signatures, time bounds and proof chains.
// Any other first byte: the whole input is the token. Verify must always come to a verdict, a
// chain or a refusal (401 or 403, with a message), for a capability it grants and for one it
// does not. Seeds: tests/fuzz/seeds/ucan (tests/js/ucan/fuzz_seeds.js), valid for the service
// and time below.
#include "fuzz_check.hpp"
#include "server/ucan.hpp"

#include <sodium.h>

#include <cstdint>
#include <string>
#include <vector>

namespace
{

namespace ucan = permanode::http::ucan;
using Bytes = std::vector<std::uint8_t>;

const std::string kService = "did:web:fuzz.test";
constexpr std::int64_t kNow = 1795700000; // 2026-11; the seeds expire in 2100

void Append(Bytes &out, const Bytes &bytes)
{
    out.insert(out.end(), bytes.begin(), bytes.end());
}

void AppendVarint(Bytes &out, std::uint64_t value)
{
    for (; value >= 0x80; value >>= 7)
        out.push_back(static_cast<std::uint8_t>(value | 0x80));
    out.push_back(static_cast<std::uint8_t>(value));
}

// CIDv1 of a block: its codec, sha2-256.
Bytes CidOf(std::uint8_t codec, const Bytes &data)
{
    Bytes cid = {0x01, codec, 0x12, 0x20};
    std::uint8_t digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, data.data(), data.size());
    cid.insert(cid.end(), digest, digest + sizeof digest);
    return cid;
}

// A dag-cbor link: tag 42 over the bytes 0x00 and the CID.
Bytes CborLink(const Bytes &cid)
{
    Bytes out = {0xd8, 0x2a, 0x58, static_cast<std::uint8_t>(cid.size() + 1), 0x00};
    Append(out, cid);
    return out;
}

Bytes CborText(const std::string &text)
{
    Bytes out = {static_cast<std::uint8_t>(0x60 | text.size())}; // short texts only
    out.insert(out.end(), text.begin(), text.end());
    return out;
}

struct Block
{
    std::uint8_t codec;
    Bytes data;
};

// The CARv1 of `blocks` behind a root block {"ucan@0.9.1": the last block}.
Bytes CarOf(const std::vector<Block> &blocks)
{
    Bytes invocation =
        blocks.empty() ? CidOf(0x71, {}) : CidOf(blocks.back().codec, blocks.back().data);
    Bytes root = {0xa1};
    Append(root, CborText("ucan@0.9.1"));
    Append(root, CborLink(invocation));
    Bytes root_cid = CidOf(0x71, root);

    Bytes header = {0xa2};
    Append(header, CborText("roots"));
    header.push_back(0x81);
    Append(header, CborLink(root_cid));
    Append(header, CborText("version"));
    header.push_back(0x01);

    Bytes car;
    AppendVarint(car, header.size());
    Append(car, header);
    auto add = [&car](const Bytes &cid, const Bytes &data)
    {
        AppendVarint(car, cid.size() + data.size());
        Append(car, cid);
        Append(car, data);
    };
    add(root_cid, root);
    for (const Block &block : blocks)
        add(CidOf(block.codec, block.data), block.data);
    return car;
}

// The blocks of a 'b' input; a block cut short by the input's end is left out.
std::vector<Block> BlocksOf(const std::uint8_t *data, std::size_t size)
{
    std::vector<Block> blocks;
    std::size_t at = 0;
    while (at + 3 <= size)
    {
        std::size_t length = static_cast<std::size_t>(data[at + 1]) << 8 | data[at + 2];
        if (at + 3 + length > size)
            break;
        blocks.push_back({data[at], Bytes(data + at + 3, data + at + 3 + length)});
        at += 3 + length;
    }
    return blocks;
}

std::string Base64(const Bytes &bytes)
{
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(out.data(), out.size(), bytes.data(), bytes.size(),
                      sodium_base64_VARIANT_ORIGINAL);
    out.resize(out.size() - 1); // the terminating NUL
    return out;
}

std::string TokenOf(const std::uint8_t *data, std::size_t size)
{
    if (size > 0 && data[0] == 'c')
        return Base64(Bytes(data + 1, data + size));
    if (size > 0 && data[0] == 'b')
        return Base64(CarOf(BlocksOf(data + 1, size - 1)));
    std::size_t skip = size > 0 && data[0] == 't' ? 1 : 0;
    return std::string(reinterpret_cast<const char *>(data) + skip, size - skip);
}

void CheckVerdict(const ucan::Verdict &verdict)
{
    FUZZ_CHECK(verdict.chain.has_value() != verdict.refusal.has_value());
    if (verdict.refusal)
    {
        FUZZ_CHECK(verdict.refusal->status == 401 || verdict.refusal->status == 403);
        FUZZ_CHECK(!verdict.refusal->message.empty());
        return;
    }
    const ucan::Chain &chain = *verdict.chain;
    FUZZ_CHECK(!chain.invocation.empty() && chain.agent.rfind("did:key:", 0) == 0);
    FUZZ_CHECK(chain.root.rfind("did:key:", 0) == 0);
    FUZZ_CHECK(!chain.expires || *chain.expires > kNow);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    return sodium_init() < 0 ? 1 : 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string token = TokenOf(data, size);
    CheckVerdict(ucan::Verify(token, kService, {"archive/read", kService}, kNow));
    ucan::Verdict other = ucan::Verify(token, kService, {"store/add", kService}, kNow);
    CheckVerdict(other);
    // No seed grants store/add: only a forged chain could.
    FUZZ_CHECK(!other.chain);
    return 0;
}
