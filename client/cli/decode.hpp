// `permanode decode`: a raw block (Stardust) or message (Chrysalis) as JSON in the shape its node
// API serves, with the IDs computed from its bytes: what a user needs to see what a node sent.
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
};

// The JSON of one raw block given as hex (with or without 0x): {"blockId", ["transactionId"],
// ["milestoneId"], "block"}; of a Chrysalis message {"messageId", ..., "message"}. Throws std::invalid_argument (bad hex, unsupported protocol) or
// codec::DecodeError (naming the field and byte offset).
nlohmann::json DecodeToJson(std::string_view hex, Protocol protocol);

// Decodes each input (hex, or "-": one hex per line of standard input) and prints it; a single
// argument pretty-printed, lines of standard input one compact JSON per line. Returns the exit
// code: 0, or 4 at the first input that does not decode (named with its line on stderr).
int RunDecode(const std::vector<std::string> &inputs, Protocol protocol);

} // namespace permanode::cli
