// Protocol parameters (TIP-32 values in the iota.go v3 binary layout) and the TIP-29 protocol
// parameters milestone option that carries them.
#include "decoding_error.hpp"
#include "codec/block.hpp"
#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/json.hpp"
#include "codec/protocol_parameters.hpp"
#include "fixtures.hpp"
#include "sample_blocks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace permanode::codec
{
namespace
{

using nlohmann::json;

// The Shimmer parameters serialized by hand: version 2, (7)"shimmer", (3)"smr", min PoW score 1500,
// below max depth 15, rent structure 100 / 1 / 10, token supply 1813620509061365.
constexpr const char *kShimmerHex = "0x02"
                                    "07"
                                    "7368696d6d6572"
                                    "03"
                                    "736d72"
                                    "dc050000"
                                    "0f"
                                    "64000000"
                                    "01"
                                    "0a"
                                    "f530336e7a710600";

// Field offsets in kShimmerHex.
constexpr std::size_t kNetworkNameAt = 1;
constexpr std::size_t kBech32HrpAt = 9;
constexpr std::size_t kMinPowScoreAt = 13;
constexpr std::size_t kBelowMaxDepthAt = 17;
constexpr std::size_t kVByteCostAt = 18;
constexpr std::size_t kTokenSupplyAt = 24;
constexpr std::size_t kShimmerSize = 32;

Bytes ShimmerBytes()
{
    return *FromHex(kShimmerHex);
}

// Little-endian appends, independent of the codec's ByteWriter.
void Append(Bytes &out, std::uint64_t value, std::size_t width)
{
    for (std::size_t i = 0; i < width; ++i)
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}
void AppendString(Bytes &out, const std::string &text)
{
    out.push_back(static_cast<std::uint8_t>(text.size()));
    out.insert(out.end(), text.begin(), text.end());
}

// milestone_data.protocol_params of the fixture (MongoDB extended JSON, snake_case keys).
json FixtureProtocolParams(const std::string &milestone)
{
    return fixtures::LoadJson("in_memory_data.json")
        .at(milestone)
        .at("milestone_data")
        .at("protocol_params");
}

// The fixture values serialized in the TIP-32 / iota.go layout.
Bytes FixtureBlob(const json &params)
{
    Bytes out;
    Append(out, params.at("version").get<std::uint8_t>(), 1);
    AppendString(out, params.at("network_name").get<std::string>());
    AppendString(out, params.at("bech32_hrp").get<std::string>());
    Append(out, params.at("min_pow_score").get<std::uint32_t>(), 4);
    Append(out, params.at("below_max_depth").get<std::uint8_t>(), 1);
    const json &rent = params.at("rent_structure");
    Append(out, rent.at("v_byte_cost").get<std::uint32_t>(), 4);
    Append(out, rent.at("v_byte_factor_data").get<std::uint8_t>(), 1);
    Append(out, rent.at("v_byte_factor_key").get<std::uint8_t>(), 1);
    Append(out, std::stoull(params.at("token_supply").get<std::string>()), 8);
    return out;
}

const auto DecodeProtocolParametersOf = [](const Bytes &bytes) { DecodeProtocolParameters(bytes); };

const ProtocolParamsMilestoneOption &ParamsOption(const Block &block)
{
    const MilestonePayload *milestone = MilestoneOf(block);
    if (milestone == nullptr || milestone->essence.options.empty())
        throw std::runtime_error("no milestone options");
    return std::get<ProtocolParamsMilestoneOption>(milestone->essence.options.back());
}

TEST(ProtocolParameters, FixtureValuesDecodeAndReencode)
{
    for (const char *milestone : {"17339", "17340", "17341"})
    {
        SCOPED_TRACE(milestone);
        json fixture = FixtureProtocolParams(milestone);
        Bytes blob = FixtureBlob(fixture);
        EXPECT_EQ(blob, ShimmerBytes());

        ProtocolParameters parameters = DecodeProtocolParameters(blob);
        EXPECT_EQ(parameters.version, fixture.at("version").get<int>());
        EXPECT_EQ(parameters.network_name, fixture.at("network_name").get<std::string>());
        EXPECT_EQ(parameters.bech32_hrp, fixture.at("bech32_hrp").get<std::string>());
        EXPECT_EQ(parameters.min_pow_score, fixture.at("min_pow_score").get<std::uint32_t>());
        EXPECT_EQ(parameters.below_max_depth, fixture.at("below_max_depth").get<int>());
        const json &rent = fixture.at("rent_structure");
        EXPECT_EQ(parameters.rent_structure.v_byte_cost,
                  rent.at("v_byte_cost").get<std::uint32_t>());
        EXPECT_EQ(parameters.rent_structure.v_byte_factor_data,
                  rent.at("v_byte_factor_data").get<int>());
        EXPECT_EQ(parameters.rent_structure.v_byte_factor_key,
                  rent.at("v_byte_factor_key").get<int>());
        EXPECT_EQ(std::to_string(parameters.token_supply),
                  fixture.at("token_supply").get<std::string>());
        EXPECT_EQ(parameters, samples::ShimmerParameters());

        EXPECT_EQ(EncodeProtocolParameters(parameters), blob);
        EXPECT_EQ(TryDecodeProtocolParameters(blob), parameters);
    }
}

TEST(ProtocolParameters, JsonIsTheInfoProtocolObject)
{
    json expected = json::parse(R"({"version":2,"networkName":"shimmer","bech32Hrp":"smr",
        "minPowScore":1500,"belowMaxDepth":15,
        "rentStructure":{"vByteCost":100,"vByteFactorData":1,"vByteFactorKey":10},
        "tokenSupply":"1813620509061365"})");
    ProtocolParameters parameters = DecodeProtocolParameters(ShimmerBytes());
    EXPECT_EQ(ToJson(parameters), expected);
    EXPECT_EQ(ProtocolParametersFromJson(json::parse(ToJson(parameters).dump())), parameters);

    // Every fixture key, camel-cased, is in the JSON with the same value.
    json fixture = FixtureProtocolParams("17341");
    EXPECT_EQ(expected["networkName"], fixture["network_name"]);
    EXPECT_EQ(expected["bech32Hrp"], fixture["bech32_hrp"]);
    EXPECT_EQ(expected["minPowScore"], fixture["min_pow_score"]);
    EXPECT_EQ(expected["belowMaxDepth"], fixture["below_max_depth"]);
    EXPECT_EQ(expected["rentStructure"]["vByteCost"], fixture["rent_structure"]["v_byte_cost"]);
    EXPECT_EQ(expected["tokenSupply"], fixture["token_supply"]);

    // Extremes survive both forms.
    ProtocolParameters extreme;
    extreme.version = 255;
    extreme.network_name = std::string(255, 'n');
    extreme.bech32_hrp = "";
    extreme.min_pow_score = 0xFFFFFFFFu;
    extreme.below_max_depth = 255;
    extreme.rent_structure = RentStructure{0xFFFFFFFFu, 255, 255};
    extreme.token_supply = 0xFFFFFFFFFFFFFFFFull;
    Bytes bytes = EncodeProtocolParameters(extreme);
    EXPECT_EQ(bytes.size(), kShimmerSize - 7 - 3 + 255);
    EXPECT_EQ(DecodeProtocolParameters(bytes), extreme);
    EXPECT_EQ(ToJson(extreme)["tokenSupply"], "18446744073709551615");
    EXPECT_EQ(ProtocolParametersFromJson(ToJson(extreme)), extreme);
}

TEST(ProtocolParameters, JsonErrorsNameThePath)
{
    json good = ToJson(samples::ShimmerParameters());
    auto path_of = [](const json &value) -> std::string
    {
        try
        {
            ProtocolParametersFromJson(value);
        }
        catch (const JsonError &error)
        {
            return error.Path();
        }
        return "no error";
    };
    json missing = good;
    missing.erase("belowMaxDepth");
    EXPECT_EQ(path_of(missing), "$.belowMaxDepth");
    json numeric_supply = good;
    numeric_supply["tokenSupply"] = 1813620509061365ull;
    EXPECT_EQ(path_of(numeric_supply), "$.tokenSupply");
    json wide_factor = good;
    wide_factor["rentStructure"]["vByteFactorKey"] = 256;
    EXPECT_EQ(path_of(wide_factor), "$.rentStructure.vByteFactorKey");
    json long_name = good;
    long_name["networkName"] = std::string(256, 'x');
    EXPECT_EQ(path_of(long_name), "$.networkName");
}

TEST(ProtocolParameters, EveryTruncationNamesFieldAndOffset)
{
    Bytes blob = ShimmerBytes();
    for (std::size_t size = 0; size < blob.size(); ++size)
    {
        SCOPED_TRACE(size);
        DecodeError error =
            DecodingError(DecodeProtocolParametersOf, Bytes(blob.begin(), blob.begin() + size));
        EXPECT_EQ(error.Field().rfind("protocol_parameters.", 0), 0u) << error.what();
        EXPECT_LE(error.Offset(), size);
        EXPECT_FALSE(TryDecodeProtocolParameters(Bytes(blob.begin(), blob.begin() + size)));
    }
    DecodeError empty = DecodingError(DecodeProtocolParametersOf, {});
    EXPECT_EQ(empty.Field(), "protocol_parameters.version");
    EXPECT_EQ(empty.Offset(), 0u);

    DecodeError pow = DecodingError(DecodeProtocolParametersOf,
                                    Bytes(blob.begin(), blob.begin() + kMinPowScoreAt + 2));
    EXPECT_EQ(pow.Field(), "protocol_parameters.min_pow_score");
    EXPECT_EQ(pow.Offset(), kMinPowScoreAt);

    DecodeError depth = DecodingError(DecodeProtocolParametersOf,
                                      Bytes(blob.begin(), blob.begin() + kBelowMaxDepthAt));
    EXPECT_EQ(depth.Field(), "protocol_parameters.below_max_depth");
    EXPECT_EQ(depth.Offset(), kBelowMaxDepthAt);

    DecodeError cost = DecodingError(DecodeProtocolParametersOf,
                                     Bytes(blob.begin(), blob.begin() + kVByteCostAt + 3));
    EXPECT_EQ(cost.Field(), "protocol_parameters.rent_structure.v_byte_cost");
    EXPECT_EQ(cost.Offset(), kVByteCostAt);

    DecodeError supply =
        DecodingError(DecodeProtocolParametersOf, Bytes(blob.begin(), blob.end() - 1));
    EXPECT_EQ(supply.Field(), "protocol_parameters.token_supply");
    EXPECT_EQ(supply.Offset(), kTokenSupplyAt);
}

TEST(ProtocolParameters, TrailingBytesAreRejected)
{
    Bytes blob = ShimmerBytes();
    blob.push_back(0);
    DecodeError error = DecodingError(DecodeProtocolParametersOf, blob);
    EXPECT_EQ(error.Field(), "protocol_parameters");
    EXPECT_EQ(error.Offset(), kShimmerSize);
    EXPECT_NE(std::string(error.what()).find("1 trailing bytes"), std::string::npos)
        << error.what();
    EXPECT_FALSE(TryDecodeProtocolParameters(blob));
}

TEST(ProtocolParameters, OverlongAndInvalidStringsAreRejected)
{
    Bytes name_too_long = ShimmerBytes();
    name_too_long[kNetworkNameAt] = 200; // runs past the end of the 32 bytes
    DecodeError name = DecodingError(DecodeProtocolParametersOf, name_too_long);
    EXPECT_EQ(name.Field(), "protocol_parameters.network_name");
    EXPECT_EQ(name.Offset(), kNetworkNameAt);
    EXPECT_NE(std::string(name.what()).find("string length 200 exceeds the 30 bytes left"),
              std::string::npos)
        << name.what();

    Bytes hrp_too_long = ShimmerBytes();
    hrp_too_long[kBech32HrpAt] = 255;
    DecodeError hrp = DecodingError(DecodeProtocolParametersOf, hrp_too_long);
    EXPECT_EQ(hrp.Field(), "protocol_parameters.bech32_hrp");
    EXPECT_EQ(hrp.Offset(), kBech32HrpAt);

    // A shorter length shifts every later field back by one, leaving one byte over.
    Bytes hrp_shorter = ShimmerBytes();
    hrp_shorter[kBech32HrpAt] = 2;
    DecodeError shifted = DecodingError(DecodeProtocolParametersOf, hrp_shorter);
    EXPECT_EQ(shifted.Field(), "protocol_parameters");
    EXPECT_EQ(shifted.Offset(), kShimmerSize - 1);

    Bytes invalid_utf8 = ShimmerBytes();
    invalid_utf8[kNetworkNameAt + 1] = 0xC0; // overlong encoding lead byte
    DecodeError utf8 = DecodingError(DecodeProtocolParametersOf, invalid_utf8);
    EXPECT_EQ(utf8.Field(), "protocol_parameters.network_name");
    EXPECT_EQ(utf8.Offset(), kNetworkNameAt + 1);

    Bytes multibyte;
    Append(multibyte, 2, 1);
    AppendString(multibyte, "sh\xC3\xAFmmer"); // U+00EF
    AppendString(multibyte, "smr");
    Bytes shimmer = ShimmerBytes();
    Bytes tail(shimmer.begin() + kMinPowScoreAt, shimmer.end());
    multibyte.insert(multibyte.end(), tail.begin(), tail.end());
    EXPECT_EQ(DecodeProtocolParameters(multibyte).network_name, "sh\xC3\xAFmmer");
}

TEST(ProtocolParameters, EncodeRejectsOverlongStrings)
{
    ProtocolParameters parameters = samples::ShimmerParameters();
    parameters.bech32_hrp = std::string(256, 'h');
    EXPECT_THROW(EncodeProtocolParameters(parameters), EncodeError);
}

TEST(ProtocolParamsOption, MilestoneRoundTripsThroughBytesAndJson)
{
    Block block = samples::MilestoneWithProtocolParameters();
    const ProtocolParamsMilestoneOption &option = ParamsOption(block);
    ProtocolParameters next = samples::ShimmerParameters();
    next.version = 3;
    next.min_pow_score = 1000;
    ASSERT_TRUE(option.parameters);
    EXPECT_EQ(*option.parameters, next);
    EXPECT_EQ(option.params, EncodeProtocolParameters(next));

    // Bytes.
    Bytes bytes = EncodeBlock(block);
    Block decoded = DecodeBlock(bytes);
    EXPECT_EQ(decoded, block);
    ASSERT_TRUE(ParamsOption(decoded).parameters);
    EXPECT_EQ(*ParamsOption(decoded).parameters, next);
    EXPECT_EQ(EncodeBlock(decoded), bytes);

    // The option's bytes in the block: type, target index, version, u16 length, the blob.
    Bytes option_bytes = {1};
    Append(option_bytes, 17350, 4);
    Append(option_bytes, 3, 1);
    Append(option_bytes, option.params.size(), 2);
    option_bytes.insert(option_bytes.end(), option.params.begin(), option.params.end());
    EXPECT_NE(std::search(bytes.begin(), bytes.end(), option_bytes.begin(), option_bytes.end()),
              bytes.end());

    // JSON: params stay hex, as Hornet and iota.js render them.
    json rendered = ToJson(block);
    EXPECT_EQ(rendered["payload"]["options"][0],
              (json{{"type", 1},
                    {"targetMilestoneIndex", 17350},
                    {"protocolVersion", 3},
                    {"params", ToHex(ByteSpan(option.params))}}));
    Block parsed = BlockFromJson(json::parse(rendered.dump()));
    EXPECT_EQ(parsed, block);
    ASSERT_TRUE(ParamsOption(parsed).parameters);
    EXPECT_EQ(*ParamsOption(parsed).parameters, next);
    EXPECT_EQ(EncodeBlock(parsed), bytes);
}

TEST(ProtocolParamsOption, OpaqueParamsStillDecodeByteExact)
{
    // TIP-29, iota.go and iota.js accept any params bytes (up to Max Metadata Length), so such a
    // milestone must still decode; it just has no typed view.
    Bytes shimmer = ShimmerBytes();
    Bytes trailing = shimmer;
    trailing.push_back(0x99);
    for (const Bytes &params :
         {Bytes{}, Bytes{1, 2, 3, 4}, trailing, Bytes(shimmer.begin(), shimmer.end() - 1)})
    {
        SCOPED_TRACE(ToHex(ByteSpan(params)));
        Block block = samples::MilestoneWithProtocolParameters();
        auto &milestone = std::get<MilestonePayload>(*block.payload);
        milestone.essence.options = {MakeProtocolParamsOption(17350, 3, params)};
        EXPECT_FALSE(ParamsOption(block).parameters);

        Bytes bytes = EncodeBlock(block);
        Block decoded = DecodeBlock(bytes);
        EXPECT_EQ(decoded, block);
        EXPECT_FALSE(ParamsOption(decoded).parameters);
        EXPECT_EQ(EncodeBlock(decoded), bytes);

        Block parsed = BlockFromJson(json::parse(ToJson(decoded).dump()));
        EXPECT_EQ(parsed, block);
        EXPECT_FALSE(ParamsOption(parsed).parameters);
        EXPECT_EQ(EncodeBlock(parsed), bytes);
    }

    // Raw bytes that happen to be well formed get their typed view.
    EXPECT_EQ(MakeProtocolParamsOption(1, 2, ShimmerBytes()).parameters,
              samples::ShimmerParameters());
}

TEST(ProtocolParamsOption, ParamsLongerThanMaxMetadataLengthAreRejected)
{
    Block block = samples::MilestoneWithProtocolParameters();
    auto &milestone = std::get<MilestonePayload>(*block.payload);
    milestone.essence.options = {MakeProtocolParamsOption(17350, 3, Bytes(8193, 0))};
    Bytes bytes = EncodeBlock(block);
    try
    {
        DecodeBlock(bytes);
        ADD_FAILURE() << "decoded without error";
    }
    catch (const DecodeError &error)
    {
        EXPECT_EQ(error.Field(), "protocol_params_option.params");
    }
}

TEST(ProtocolParamsOption, EncodeRejectsParametersThatDisagreeWithTheBytes)
{
    Block block = samples::MilestoneWithProtocolParameters();
    auto &milestone = std::get<MilestonePayload>(*block.payload);
    auto &option = std::get<ProtocolParamsMilestoneOption>(milestone.essence.options[0]);
    option.parameters->min_pow_score = 1;
    EXPECT_THROW(EncodeBlock(block), EncodeError);
    option.parameters.reset(); // the bytes alone are authoritative
    EXPECT_NO_THROW(EncodeBlock(block));
}

} // namespace
} // namespace permanode::codec
