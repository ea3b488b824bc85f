// UCAN proof chains (ucan.hpp): the token's CAR, its blocks and their CIDs, the UCANs in them
// (dag-cbor or JWT), their signatures and time bounds, and the walk down the proofs.
#include "server/ucan.hpp"

#include <sodium.h>

#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace permanode::http::ucan
{
namespace
{

using Bytes = std::vector<std::uint8_t>;
using nlohmann::json;

// A malformed token: a 401 with this message.
struct Malformed : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

constexpr std::uint64_t kDagCbor = 0x71;
constexpr std::uint64_t kRaw = 0x55;
constexpr std::uint64_t kSha256 = 0x12;
constexpr std::uint64_t kEd25519Public = 0xed;
constexpr std::uint64_t kDidCore = 0x0d1d;
constexpr std::uint64_t kEdDsa = 0xd0ed;
constexpr int kMostProofsDeep = 16;
// Proofs checked for one token at most (a signature each). A UCAN may list a link many times and
// each proof its own: k links on each of d levels ask for k^d checks, so a token of a few
// kilobytes would hold the event loop's thread for minutes (4 links, 9 deep: 39 s).
constexpr int kMostProofsChecked = 64;

std::uint64_t ReadVarint(const Bytes &bytes, std::size_t &at)
{
    std::uint64_t value = 0;
    for (int shift = 0; shift < 63; shift += 7)
    {
        if (at >= bytes.size())
            throw Malformed("truncated varint");
        std::uint8_t b = bytes[at++];
        value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0)
            return value;
    }
    throw Malformed("varint too long");
}

Bytes Base64Decode(std::string_view text)
{
    // Either alphabet (standard or URL-safe), padding optional.
    Bytes out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text)
    {
        int v;
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '+' || c == '-')
            v = 62;
        else if (c == '/' || c == '_')
            v = 63;
        else if (c == '=')
            break;
        else
            throw Malformed("not base64");
        buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8)
        {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(buffer >> bits));
        }
    }
    return out;
}

std::string Base64UrlEncode(const std::string &bytes)
{
    static const char *alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes)
    {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6)
        {
            bits -= 6;
            out += alphabet[(buffer >> bits) & 0x3f];
        }
    }
    if (bits > 0)
        out += alphabet[(buffer << (6 - bits)) & 0x3f];
    return out;
}

// Multibase base32 (lower case, no padding), as CIDs v1 are written: "b...".
std::string Base32Multibase(const std::uint8_t *data, std::size_t size)
{
    static const char *alphabet = "abcdefghijklmnopqrstuvwxyz234567";
    std::string out = "b";
    std::uint32_t buffer = 0;
    int bits = 0;
    for (std::size_t i = 0; i < size; i++)
    {
        buffer = (buffer << 8) | data[i];
        bits += 8;
        while (bits >= 5)
        {
            bits -= 5;
            out += alphabet[(buffer >> bits) & 0x1f];
        }
    }
    if (bits > 0)
        out += alphabet[(buffer << (5 - bits)) & 0x1f];
    return out;
}

std::string Base58Btc(const std::uint8_t *data, std::size_t size)
{
    static const char *alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    std::vector<std::uint8_t> digits; // base 58, least significant first
    for (std::size_t i = 0; i < size; i++)
    {
        int carry = data[i];
        for (auto &d : digits)
        {
            carry += d * 256;
            d = static_cast<std::uint8_t>(carry % 58);
            carry /= 58;
        }
        while (carry > 0)
        {
            digits.push_back(static_cast<std::uint8_t>(carry % 58));
            carry /= 58;
        }
    }
    std::string out;
    for (std::size_t i = 0; i < size && data[i] == 0; i++)
        out += '1';
    for (auto it = digits.rbegin(); it != digits.rend(); ++it)
        out += alphabet[*it];
    return out;
}

// A CID v1 at `at`: its codec and the multihash; returns its text and moves `at` past it.
struct Cid
{
    std::string text;
    std::uint64_t codec = 0;
    std::uint64_t hash = 0;
    Bytes digest;
};

Cid ReadCid(const Bytes &bytes, std::size_t &at)
{
    std::size_t start = at;
    if (ReadVarint(bytes, at) != 1)
        throw Malformed("not a CID v1");
    Cid cid;
    cid.codec = ReadVarint(bytes, at);
    cid.hash = ReadVarint(bytes, at);
    std::uint64_t length = ReadVarint(bytes, at);
    if (length > bytes.size() - at)
        throw Malformed("truncated CID");
    cid.digest.assign(bytes.begin() + static_cast<long>(at),
                      bytes.begin() + static_cast<long>(at + length));
    at += length;
    cid.text = Base32Multibase(bytes.data() + start, at - start);
    return cid;
}

// A dag-cbor link (tag 42: a zero byte, then the CID's bytes) as CID text.
std::string LinkText(const json &value)
{
    if (!value.is_binary() || !value.get_binary().has_subtype() ||
        value.get_binary().subtype() != 42 || value.get_binary().empty())
        throw Malformed("not a link");
    Bytes bytes(value.get_binary().begin() + 1, value.get_binary().end());
    std::size_t at = 0;
    return ReadCid(bytes, at).text;
}

struct Block
{
    std::uint64_t codec;
    Bytes data;
};

// A CARv1: its roots and its blocks by CID, each block checked against its CID's sha-256.
std::map<std::string, Block> ReadCar(const Bytes &car, std::vector<std::string> &roots)
{
    std::size_t at = 0;
    std::uint64_t header_length = ReadVarint(car, at);
    if (header_length > car.size() - at)
        throw Malformed("truncated CAR header");
    json header = json::from_cbor(car.begin() + static_cast<long>(at),
                                  car.begin() + static_cast<long>(at + header_length), true, true,
                                  json::cbor_tag_handler_t::store);
    at += header_length;
    if (!header.is_object() || header.value("version", 0) != 1 || !header.contains("roots"))
        throw Malformed("not a CARv1 header");
    for (const json &root : header["roots"])
        roots.push_back(LinkText(root));
    std::map<std::string, Block> blocks;
    while (at < car.size())
    {
        std::uint64_t length = ReadVarint(car, at);
        if (length > car.size() - at)
            throw Malformed("truncated CAR block");
        std::size_t end = at + length;
        Bytes section(car.begin() + static_cast<long>(at), car.begin() + static_cast<long>(end));
        std::size_t data_at = 0;
        Cid cid = ReadCid(section, data_at);
        Bytes data(section.begin() + static_cast<long>(data_at), section.end());
        if (cid.hash != kSha256 || cid.digest.size() != crypto_hash_sha256_BYTES)
            throw Malformed("block " + cid.text + " is not hashed with sha-256");
        std::uint8_t digest[crypto_hash_sha256_BYTES];
        crypto_hash_sha256(digest, data.data(), data.size());
        if (!std::equal(cid.digest.begin(), cid.digest.end(), digest))
            throw Malformed("block " + cid.text + " does not hash to its CID");
        blocks[cid.text] = Block{cid.codec, std::move(data)};
        at = end;
    }
    return blocks;
}

// A DID in dag-ucan's binary form: a did:key (multicodec key) or any other DID (0x0d1d + text).
std::string DidOf(const json &value)
{
    if (!value.is_binary())
        throw Malformed("a principal is not bytes");
    Bytes bytes(value.get_binary().begin(), value.get_binary().end());
    std::size_t at = 0;
    std::uint64_t code = ReadVarint(bytes, at);
    if (code == kDidCore)
        return "did:" + std::string(bytes.begin() + static_cast<long>(at), bytes.end());
    return "did:key:z" + Base58Btc(bytes.data(), bytes.size());
}

// One UCAN, as read from its block.
struct Ucan
{
    std::string cid;
    std::string issuer;
    std::string audience;
    json att;
    std::optional<std::int64_t> exp;
    std::optional<std::int64_t> nbf;
    std::vector<std::string> proofs;
    std::string signed_text; // base64url(header) "." base64url(payload)
    Bytes signature;         // Ed25519, 64 bytes
    std::string algorithm;
};

std::optional<std::int64_t> OptionalInt(const json &object, const char *key)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::nullopt;
    if (!it->is_number_integer())
        throw Malformed(std::string(key) + " is not an integer");
    return it->get<std::int64_t>();
}

void CheckNoBytes(const json &value)
{
    if (value.is_binary())
        throw Malformed("caveats with bytes or links are not supported");
    if (value.is_structured())
        for (const json &item : value)
            CheckNoBytes(item);
}

// The JWT form dag-ucan signs, from a dag-cbor UCAN: dag-json (keys in byte order, no spaces)
// of the header and of the payload, optional fields left out when unset.
Ucan FromCbor(const std::string &cid, const Bytes &data)
{
    json model = json::from_cbor(data, true, true, json::cbor_tag_handler_t::store);
    if (!model.is_object() || !model.contains("iss") || !model.contains("aud") ||
        !model.contains("s") || !model.contains("v") || !model.contains("att"))
        throw Malformed("block " + cid + " is not a UCAN");
    Ucan ucan;
    ucan.cid = cid;
    ucan.issuer = DidOf(model["iss"]);
    ucan.audience = DidOf(model["aud"]);
    ucan.att = model["att"];
    CheckNoBytes(ucan.att);
    ucan.exp = OptionalInt(model, "exp");
    ucan.nbf = OptionalInt(model, "nbf");
    json prf = json::array();
    for (const json &link : model.value("prf", json::array()))
    {
        ucan.proofs.push_back(LinkText(link));
        prf.push_back(ucan.proofs.back());
    }
    Bytes s(model["s"].get_binary().begin(), model["s"].get_binary().end());
    std::size_t at = 0;
    std::uint64_t code = ReadVarint(s, at);
    std::uint64_t length = ReadVarint(s, at);
    if (length != s.size() - at)
        throw Malformed("the signature of " + cid + " is malformed");
    ucan.algorithm = code == kEdDsa ? "EdDSA" : "0x" + std::to_string(code);
    ucan.signature.assign(s.begin() + static_cast<long>(at), s.end());

    json header = {{"alg", ucan.algorithm}, {"typ", "JWT"}, {"ucv", model["v"]}};
    json payload = {{"iss", ucan.issuer},
                    {"aud", ucan.audience},
                    {"att", ucan.att},
                    {"exp", model.contains("exp") ? model["exp"] : json()},
                    {"prf", prf}};
    if (model.contains("fct") && !model["fct"].empty())
        payload["fct"] = model["fct"];
    if (model.contains("nnc") && !model["nnc"].is_null())
        payload["nnc"] = model["nnc"];
    if (ucan.nbf)
        payload["nbf"] = *ucan.nbf;
    ucan.signed_text = Base64UrlEncode(header.dump()) + "." + Base64UrlEncode(payload.dump());
    return ucan;
}

// A UCAN kept in its JWT form (a raw block): what is signed is its text.
Ucan FromJwt(const std::string &cid, const std::string &jwt)
{
    auto first = jwt.find('.');
    auto second = jwt.find('.', first == std::string::npos ? first : first + 1);
    if (first == std::string::npos || second == std::string::npos)
        throw Malformed("block " + cid + " is not a JWT");
    auto part = [](std::string_view text)
    {
        Bytes bytes = Base64Decode(text);
        return json::parse(bytes.begin(), bytes.end());
    };
    json header = part(std::string_view(jwt).substr(0, first));
    json payload = part(std::string_view(jwt).substr(first + 1, second - first - 1));
    Ucan ucan;
    ucan.cid = cid;
    ucan.issuer = payload.value("iss", "");
    ucan.audience = payload.value("aud", "");
    ucan.att = payload.value("att", json::array());
    ucan.exp = OptionalInt(payload, "exp");
    ucan.nbf = OptionalInt(payload, "nbf");
    for (const json &link : payload.value("prf", json::array()))
        ucan.proofs.push_back(link.get<std::string>());
    ucan.algorithm = header.value("alg", "");
    ucan.signed_text = jwt.substr(0, second);
    ucan.signature = Base64Decode(std::string_view(jwt).substr(second + 1));
    return ucan;
}

Ucan Load(const std::map<std::string, Block> &blocks, const std::string &cid)
{
    auto it = blocks.find(cid);
    if (it == blocks.end())
        throw Malformed("UCAN " + cid + " is not in the token");
    if (it->second.codec == kDagCbor)
        return FromCbor(cid, it->second.data);
    if (it->second.codec == kRaw)
        return FromJwt(cid, std::string(it->second.data.begin(), it->second.data.end()));
    throw Malformed("block " + cid + " is neither dag-cbor nor a JWT");
}

// The Ed25519 key of a did:key, or nullopt.
std::optional<Bytes> Ed25519Key(const std::string &did)
{
    static const std::string prefix = "did:key:z";
    if (did.compare(0, prefix.size(), prefix) != 0)
        return std::nullopt;
    static const std::string alphabet =
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    Bytes bytes; // base 256, most significant first
    for (char c : did.substr(prefix.size()))
    {
        auto digit = alphabet.find(c);
        if (digit == std::string::npos)
            return std::nullopt;
        int carry = static_cast<int>(digit);
        for (auto it = bytes.rbegin(); it != bytes.rend(); ++it)
        {
            carry += *it * 58;
            *it = static_cast<std::uint8_t>(carry & 0xff);
            carry >>= 8;
        }
        while (carry > 0)
        {
            bytes.insert(bytes.begin(), static_cast<std::uint8_t>(carry & 0xff));
            carry >>= 8;
        }
    }
    if (bytes.size() != 2 + crypto_sign_PUBLICKEYBYTES || bytes[0] != kEd25519Public ||
        bytes[1] != 0x01)
        return std::nullopt;
    return Bytes(bytes.begin() + 2, bytes.end());
}

// A signature and the time bounds: a refusal (401) or nothing.
std::optional<Refusal> CheckValid(const Ucan &ucan, std::int64_t now)
{
    auto key = Ed25519Key(ucan.issuer);
    if (!key)
        return Refusal{401, "UCAN " + ucan.cid + ": issuer " + ucan.issuer +
                                " is not an Ed25519 did:key"};
    if (ucan.algorithm != "EdDSA" || ucan.signature.size() != crypto_sign_BYTES ||
        crypto_sign_verify_detached(
            ucan.signature.data(), reinterpret_cast<const unsigned char *>(ucan.signed_text.data()),
            ucan.signed_text.size(), key->data()) != 0)
        return Refusal{401, "UCAN " + ucan.cid + ": the signature of " + ucan.issuer +
                                " does not verify"};
    if (ucan.exp && *ucan.exp <= now)
        return Refusal{401, "UCAN " + ucan.cid + " expired at " + std::to_string(*ucan.exp)};
    if (ucan.nbf && *ucan.nbf > now)
        return Refusal{401,
                       "UCAN " + ucan.cid + " is not valid before " + std::to_string(*ucan.nbf)};
    return std::nullopt;
}

// Whether an ability covers another: the same, "*", or "ns/*" for "ns/...".
bool AbilityCovers(const std::string &granted, const std::string &wanted)
{
    if (granted == wanted || granted == "*")
        return true;
    return granted.size() >= 2 && granted.compare(granted.size() - 2, 2, "/*") == 0 &&
           wanted.compare(0, granted.size() - 1, granted, 0, granted.size() - 1) == 0;
}

bool Grants(const Ucan &ucan, const Capability &wanted)
{
    if (!ucan.att.is_array())
        return false;
    for (const json &cap : ucan.att)
    {
        if (cap.is_object() && cap.value("with", "") == wanted.with &&
            AbilityCovers(cap.value("can", ""), wanted.can))
            return true;
    }
    return false;
}

Refusal TooManyProofs()
{
    return Refusal{401, "the proof chain asks for more than " + std::to_string(kMostProofsChecked) +
                            " proofs to be checked"};
}

// Walks from `ucan` (valid, granting `wanted`) down its proofs to a root; the chain or why not.
// `checked` counts the proofs checked so far, for kMostProofsChecked.
Verdict Walk(const std::map<std::string, Block> &blocks, const Ucan &ucan, const Capability &wanted,
             std::int64_t now, int depth, Chain chain, int &checked)
{
    if (ucan.exp && (!chain.expires || *ucan.exp < *chain.expires))
        chain.expires = ucan.exp;
    if (ucan.proofs.empty())
    {
        chain.root = ucan.issuer;
        return Verdict{std::move(chain), std::nullopt};
    }
    if (depth >= kMostProofsDeep)
        return Verdict{std::nullopt, Refusal{401, "the proof chain is deeper than " +
                                                      std::to_string(kMostProofsDeep)}};
    std::optional<Refusal> first;
    for (const std::string &link : ucan.proofs)
    {
        if (++checked > kMostProofsChecked)
            return Verdict{std::nullopt, TooManyProofs()};
        Ucan proof = Load(blocks, link);
        std::optional<Refusal> refusal = CheckValid(proof, now);
        if (!refusal && proof.audience != ucan.issuer)
            refusal = Refusal{401, "delegation " + link + " is to " + proof.audience + ", not to " +
                                       ucan.issuer};
        if (!refusal && !Grants(proof, wanted))
            refusal = Refusal{403, "delegation " + link + " does not grant " + wanted.can + " on " +
                                       wanted.with};
        if (!refusal)
        {
            Chain next = chain;
            next.delegations.push_back(link);
            Verdict verdict = Walk(blocks, proof, wanted, now, depth + 1, std::move(next), checked);
            if (verdict.chain || checked > kMostProofsChecked)
                return verdict;
            refusal = verdict.refusal;
        }
        if (!first)
            first = refusal;
    }
    return Verdict{std::nullopt, first};
}

} // namespace

std::string Ed25519DidKey(const unsigned char *public_key)
{
    std::uint8_t bytes[2 + crypto_sign_PUBLICKEYBYTES] = {kEd25519Public, 0x01};
    std::copy(public_key, public_key + crypto_sign_PUBLICKEYBYTES, bytes + 2);
    return "did:key:z" + Base58Btc(bytes, sizeof bytes);
}

Verdict Verify(std::string_view token, const std::string &service_did, const Capability &wanted,
               std::int64_t now)
{
    [[maybe_unused]] static const int sodium = sodium_init(); // once, thread-safe
    try
    {
        std::vector<std::string> roots;
        std::map<std::string, Block> blocks = ReadCar(Base64Decode(token), roots);
        if (roots.size() != 1 || !blocks.count(roots[0]))
            throw Malformed("the CAR has no root block");
        const Block &root = blocks.at(roots[0]);
        json variant = root.codec == kDagCbor
                           ? json::from_cbor(root.data, true, true, json::cbor_tag_handler_t::store)
                           : json();
        if (!variant.is_object() || !variant.contains("ucan@0.9.1"))
            throw Malformed("the CAR's root is not {\"ucan@0.9.1\": link}");
        Ucan invocation = Load(blocks, LinkText(variant["ucan@0.9.1"]));
        if (auto refusal = CheckValid(invocation, now))
            return Verdict{std::nullopt, refusal};
        if (invocation.audience != service_did)
            return Verdict{std::nullopt,
                           Refusal{401, "UCAN " + invocation.cid + " is for " +
                                            invocation.audience + ", not for " + service_did}};
        if (!Grants(invocation, wanted))
            return Verdict{std::nullopt,
                           Refusal{403, "UCAN " + invocation.cid + " does not invoke " +
                                            wanted.can + " on " + wanted.with}};
        Chain chain;
        chain.invocation = invocation.cid;
        chain.agent = invocation.issuer;
        int checked = 0;
        return Walk(blocks, invocation, wanted, now, 0, std::move(chain), checked);
    }
    catch (const std::exception &e)
    {
        return Verdict{std::nullopt, Refusal{401, std::string("malformed UCAN: ") + e.what()}};
    }
}

} // namespace permanode::http::ucan
