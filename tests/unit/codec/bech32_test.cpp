// Bech32 against the TIP-31 examples and BIP-173 vectors, and its typed errors.
#include "codec/bech32.hpp"
#include "codec/hex.hpp"
#include "codec/ids.hpp"

#include <gtest/gtest.h>

#include <string>

namespace permanode::codec
{
namespace
{

Address AddressFromHex(AddressType type, const char *hex)
{
    return Address{type, *FromHexFixed<32>(hex)};
}

Bech32Error::Kind KindOf(const std::string &text, std::string_view hrp = {})
{
    try
    {
        AddressFromBech32(text, hrp);
    }
    catch (const Bech32Error &error)
    {
        return error.GetKind();
    }
    ADD_FAILURE() << text << " decoded without error";
    return Bech32Error::Kind::kBadChecksum;
}

struct Tip31Example
{
    AddressType type;
    const char *id;
    const char *iota;
    const char *atoi;
    const char *smr;
    const char *rms;
};

// The examples section of TIP-31.
const Tip31Example kExamples[] = {
    {AddressType::kEd25519, "efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3",
     "iota1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xqgyzyx",
     "atoi1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6x8x4r7t",
     "smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh",
     "rms1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xrlkcfw"},
    {AddressType::kAlias, "fe80c2eb7c736da2f7c98ecf135ee9e34e4e076afe6e1dfebc9ec578b8f56d2f",
     "iota1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj76j6rev",
     "atoi1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj7autzrp",
     "smr1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj7dzrr0a",
     "rms1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj7e9ge5y"},
    {AddressType::kNft, "3159b115e27128b6db16db5e61f1aa4c70d84a99be753faa3ee70d9ad9c6a6b7",
     "iota1zqc4nvg4ufcj3dkmzmd4uc034fx8pkz2nxl820a28mnsmxkec6ntw0vklm7",
     "atoi1zqc4nvg4ufcj3dkmzmd4uc034fx8pkz2nxl820a28mnsmxkec6ntwgz87pn",
     "smr1zqc4nvg4ufcj3dkmzmd4uc034fx8pkz2nxl820a28mnsmxkec6ntwcu0ld0",
     "rms1zqc4nvg4ufcj3dkmzmd4uc034fx8pkz2nxl820a28mnsmxkec6ntwvmy9kk"},
};

TEST(Bech32, Tip31ExamplesEncodeAndDecode)
{
    for (const auto &example : kExamples)
    {
        Address address = AddressFromHex(example.type, example.id);
        for (auto [hrp, text] : {std::pair{"iota", example.iota}, std::pair{"atoi", example.atoi},
                                 std::pair{"smr", example.smr}, std::pair{"rms", example.rms}})
        {
            EXPECT_EQ(AddressToBech32(address, hrp), text);
            EXPECT_EQ(AddressFromBech32(text, hrp), address);
            EXPECT_EQ(AddressFromBech32(text), address);
        }
    }
}

TEST(Bech32, Tip31ChainIdsDeriveFromOutputIds)
{
    auto alias_output =
        FromHexFixed<34>("52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c6490000");
    auto nft_output =
        FromHexFixed<34>("97b9d84d33419199483daab1f81ddccdeff478b6ee9040cfe026c517f67757880000");
    EXPECT_EQ(ToHex(ChainIdFromOutputId(OutputIdFromBytes(*alias_output))),
              std::string("0x") + kExamples[1].id);
    EXPECT_EQ(ToHex(ChainIdFromOutputId(OutputIdFromBytes(*nft_output))),
              std::string("0x") + kExamples[2].id);
    // And the Ed25519 address is the BLAKE2b-256 of the public key.
    Bytes public_key = *FromHex("6f1581709bb7b1ef030d210db18e3b0ba1c776fba65d8cdaad05415142d189f8");
    EXPECT_EQ(ToHex(Blake2b256(public_key)), std::string("0x") + kExamples[0].id);
}

TEST(Bech32, Bip173ValidChecksums)
{
    // The last is BIP-173's 90-character maximum: HRP "1", 82 data characters, checksum.
    const std::string longest = "11" + std::string(82, 'q') + "c8247j";
    for (const std::string &text :
         {std::string("a12uel5l"), std::string("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw"),
          longest})
    {
        SCOPED_TRACE(text);
        Bech32Data data = Bech32Decode(text);
        EXPECT_EQ(Bech32Encode(data.hrp, data.data), text);
    }
}

TEST(Bech32, UppercaseInputIsAccepted)
{
    EXPECT_EQ(Bech32Decode("A12UEL5L").hrp, "a");
    std::string upper = kExamples[0].smr;
    for (char &c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(AddressFromBech32(upper, "smr"), AddressFromHex(kExamples[0].type, kExamples[0].id));
}

TEST(Bech32, TypedErrors)
{
    std::string valid = kExamples[0].smr;

    std::string flipped = valid;
    flipped[10] = flipped[10] == 'q' ? 'p' : 'q';
    EXPECT_EQ(KindOf(flipped), Bech32Error::Kind::kBadChecksum);

    std::string mixed = valid;
    mixed[5] = static_cast<char>(std::toupper(static_cast<unsigned char>(mixed[5])));
    EXPECT_EQ(KindOf(mixed), Bech32Error::Kind::kMixedCase);

    EXPECT_EQ(KindOf(valid, "iota"), Bech32Error::Kind::kWrongHrp);
    EXPECT_EQ(KindOf(Bech32Encode("xyz", Bytes(33, 0))), Bech32Error::Kind::kWrongHrp);
    EXPECT_EQ(KindOf(Bech32Encode("smr", Bytes(20, 0))), Bech32Error::Kind::kBadLength);
    EXPECT_EQ(KindOf(Bech32Encode("smr", Bytes(33, 3))), Bech32Error::Kind::kUnknownAddressType);
    EXPECT_EQ(KindOf("smrqqqqqq"), Bech32Error::Kind::kMissingSeparator);
    EXPECT_EQ(KindOf("smr1qqqqqbqqqqqq"), Bech32Error::Kind::kInvalidCharacter);
    EXPECT_EQ(KindOf("smr1qqq"), Bech32Error::Kind::kBadLength);
    EXPECT_EQ(KindOf(std::string(91, 'q')), Bech32Error::Kind::kBadLength);
    EXPECT_THROW(AddressToBech32(Address{}, "btc"), Bech32Error);
}

} // namespace
} // namespace permanode::codec
