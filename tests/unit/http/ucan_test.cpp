// UCAN verification (client/http/server/ucan.cpp) on a token @ucanto issued: an invocation of
// archive/read on did:web:unit.test by the Ed25519 key of seed 32 x 0x07, without proofs,
// expiring 2100-01-01, as the base64 of its CAR (made by tests/js/ucan's packages; Ed25519
// signatures are deterministic, so the bytes are fixed).
#include <sodium.h>

#include <string>

#include <gtest/gtest.h>

#include "server/ucan.hpp"

namespace ucan = permanode::http::ucan;

namespace
{

const std::string kToken =
    "OqJlcm9vdHOB2CpYJQABcRIgUGxi8SEEh3iDMe+GUJcRqjksDQxSaFZcitn4JwR7WoVndmVyc2lvbgHtAQFxEiB8fwH4"
    "8u36Ls5qxHMFsUSRdl0u2Fm1YxPaVPSjJL9g5adhc1hE7aEDQK1sikk0wM3wjdnlhW5fX+Z/eKaUQ8K/R/XzpwzHlRmX"
    "9HUglNciFcW5b0ZY46UtTJXDhk4cJkDov3/YXPxGHwlhdmUwLjkuMWNhdHSBomNjYW5sYXJjaGl2ZS9yZWFkZHdpdGhx"
    "ZGlkOndlYjp1bml0LnRlc3RjYXVkT50ad2ViOnVuaXQudGVzdGNleHAa9IZXAGNpc3NYIu0B6kpsY+KcUgq+9VB7Ey7F"
    "+ZVHdq6+vnuSQh7qaRRG0ixjcHJmgFkBcRIgUGxi8SEEh3iDMe+GUJcRqjksDQxSaFZcitn4JwR7WoWhanVjYW5AMC45"
    "LjHYKlglAAFxEiB8fwH48u36Ls5qxHMFsUSRdl0u2Fm1YxPaVPSjJL9g5Q==";
const std::string kIssuer = "did:key:z6MkvDqGT54cXesYGvABpF1UapVNwjCqRcafi4Px6Thv5T3Z";
const std::string kService = "did:web:unit.test";
const ucan::Capability kRead{"archive/read", kService};
constexpr std::int64_t kNow = 1795700000;

TEST(Ucan, DidKeyOfASeed)
{
    ASSERT_GE(sodium_init(), 0);
    unsigned char seed[crypto_sign_SEEDBYTES], pk[crypto_sign_PUBLICKEYBYTES],
        sk[crypto_sign_SECRETKEYBYTES];
    std::fill(seed, seed + sizeof seed, 7);
    crypto_sign_seed_keypair(pk, sk, seed);
    EXPECT_EQ(ucan::Ed25519DidKey(pk), kIssuer);
}

TEST(Ucan, VerifiesUcantosInvocation)
{
    ucan::Verdict verdict = ucan::Verify(kToken, kService, kRead, kNow);
    ASSERT_TRUE(verdict.chain) << verdict.refusal->message;
    EXPECT_EQ(verdict.chain->invocation,
              "bafyreid4p4a7r4xn7ixm42weomc3crerozos5wczwvrrhwsu6srsjp3a4u");
    EXPECT_EQ(verdict.chain->agent, kIssuer);
    EXPECT_EQ(verdict.chain->root, kIssuer); // no proofs: the issuer is the root
    EXPECT_TRUE(verdict.chain->delegations.empty());
    EXPECT_EQ(verdict.chain->expires, 4102444800);
}

TEST(Ucan, Refusals)
{
    auto refusal = [](const std::string &token, const std::string &service,
                      const ucan::Capability &wanted, std::int64_t now)
    {
        ucan::Verdict verdict = ucan::Verify(token, service, wanted, now);
        EXPECT_FALSE(verdict.chain);
        return verdict.refusal ? *verdict.refusal : ucan::Refusal{0, ""};
    };
    auto r = refusal(kToken, "did:web:other.test", kRead, kNow);
    EXPECT_EQ(r.status, 401);
    EXPECT_NE(r.message.find("not for did:web:other.test"), std::string::npos) << r.message;
    r = refusal(kToken, kService, kRead, 4102444800);
    EXPECT_EQ(r.status, 401);
    EXPECT_NE(r.message.find("expired at 4102444800"), std::string::npos) << r.message;
    r = refusal(kToken, kService, {"archive/write", kService}, kNow);
    EXPECT_EQ(r.status, 403);
    EXPECT_NE(r.message.find("does not invoke archive/write"), std::string::npos) << r.message;
    // A byte of the signature changed: the block no longer hashes to its CID.
    std::string tampered = kToken;
    tampered[150] = tampered[150] == 'A' ? 'B' : 'A';
    r = refusal(tampered, kService, kRead, kNow);
    EXPECT_EQ(r.status, 401);
    EXPECT_NE(r.message.find("malformed UCAN"), std::string::npos) << r.message;
    r = refusal("not base64!", kService, kRead, kNow);
    EXPECT_EQ(r.status, 401);
    r = refusal("", kService, kRead, kNow);
    EXPECT_EQ(r.status, 401);
}

} // namespace
