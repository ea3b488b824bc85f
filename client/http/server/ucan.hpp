// UCAN 0.9 proof chains as @ucanto (and @ipld/dag-ucan) issue them, verified without a database:
// the bearer token is the base64 of the CAR that ucanto's Delegation.archive() writes (a root
// block {"ucan@0.9.1": invocation link} and the blocks of the invocation and of every proof),
// each UCAN a dag-cbor block or a JWT (raw) block, each block checked against its CID (sha-256).
//
// Verify checks, for the invocation and each proof down to a UCAN without proofs (its issuer is
// the root: the space): the Ed25519 signature of its issuer (did:key) over the JWT form of its
// payload (dag-ucan signs "header.payload" in base64url, also for dag-cbor blocks), its time
// bounds (exp, nbf), that a proof's audience is its child's issuer, and that each proof grants a
// capability that covers the one invoked (same resource; the same ability, or "ns/*" or "*"),
// with the invocation's audience the service. What it cannot check is left to the caller: that
// the proofs' links are stored delegations and the root a consumer (client/http/auth.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace permanode::http::ucan
{

struct Capability
{
    std::string can;  // the ability, e.g. archive/read
    std::string with; // the resource, a DID
};

// A chain that verified.
struct Chain
{
    std::string invocation;               // the invocation's CID (base32)
    std::string agent;                    // its issuer
    std::string root;                     // the issuer of the chain's first delegation: the space
    std::vector<std::string> delegations; // the CIDs of the proofs on the chain, root last
    std::optional<std::int64_t> expires;  // the earliest exp on the chain (unix seconds)
};

// Why a token was refused: 401 for a token that is not a valid credential for this service
// (malformed, forged, out of its time bounds, for another audience), 403 for one that is valid
// but does not grant the capability.
struct Refusal
{
    int status = 401;
    std::string message;
};

// Verifies a bearer token for `wanted` at `now` (unix seconds). Exactly one of the two is set.
struct Verdict
{
    std::optional<Chain> chain;
    std::optional<Refusal> refusal;
};
Verdict Verify(std::string_view token, const std::string &service_did, const Capability &wanted,
               std::int64_t now);

// did:key of an Ed25519 public key (multibase base58btc of 0xed 0x01 and the 32 bytes).
std::string Ed25519DidKey(const unsigned char *public_key);

} // namespace permanode::http::ucan
