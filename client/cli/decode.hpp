// `permanode decode`: a raw block (Stardust) or message (Chrysalis) as JSON in the shape its node
// API serves, with the IDs computed from its bytes, or a legacy transaction's trytes as iota.js's
// transaction object with its hash: what a user needs to see what a node sent.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace permanode::cli
{

// The protocol a raw block or message is read as.
enum class Protocol
{
    kStardust,
    kChrysalis,
    kLegacy, // 2673 trytes, not hex
};

// The JSON of one raw block given as hex (with or without 0x): {"blockId", ["transactionId"],
// ["milestoneId"], "block"}; of a Chrysalis message {"messageId", ..., "message"}; of a legacy
// transaction (2673 trytes) its fields and "hash". Throws std::invalid_argument (bad hex) or
// codec::DecodeError (naming the field and the byte or tryte offset).
nlohmann::json DecodeToJson(std::string_view input, Protocol protocol);

// Decodes each input (hex or trytes, or "-": one per line of standard input) and prints it; a
// single argument pretty-printed, lines of standard input one compact JSON per line. Returns the
// exit code: 0, or 4 at the first input that does not decode (named with its line on stderr).
int RunDecode(const std::vector<std::string> &inputs, Protocol protocol);

} // namespace permanode::cli
