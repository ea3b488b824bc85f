// A legacy transaction: 2673 trytes in one of two layouts, its fields, its hash and its JSON in
// iota.js's transaction object shape.
//
// Current layout (November 2017 on), offsets in trytes:
//   0 signatureMessageFragment (2187) | 2187 address (81) | 2268 value (27) | 2295 obsoleteTag (27)
//   2322 timestamp (9) | 2331 currentIndex (9) | 2340 lastIndex (9) | 2349 bundle (81)
//   2430 trunkTransaction (81) | 2511 branchTransaction (81) | 2592 tag (27)
//   2619 attachmentTimestamp (9) | 2628 attachmentTimestampLowerBound (9)
//   2637 attachmentTimestampUpperBound (9) | 2646 nonce (27)
// Old layout (2016 to November 2017): the same up to the branch, then an 81-tryte nonce at 2592;
// there is no tag nor attachment timestamp, and what became the obsolete tag was the only tag.
//
// The value is the first 33 of its field's 81 trits (as IRI and iota.js read it; IRI rejected a
// transaction whose other 48 value trits were not zero). Numbers are the balanced ternary
// integers of their trits.
#pragma once

#include "codec/legacy/trinary.hpp"

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace permanode::codec::legacy
{

enum class Layout
{
    kCurrent, // November 2017 on
    kOld,     // before: 81-tryte nonce after the branch
};

// Tryte offsets and sizes of the fields.
namespace field
{
constexpr std::size_t kSignature = 0, kSignatureSize = 2187;
constexpr std::size_t kAddress = 2187;
constexpr std::size_t kValue = 2268, kValueSize = 27;
constexpr std::size_t kObsoleteTag = 2295, kTagSize = 27;
constexpr std::size_t kTimestamp = 2322, kNumberSize = 9;
constexpr std::size_t kCurrentIndex = 2331;
constexpr std::size_t kLastIndex = 2340;
constexpr std::size_t kBundle = 2349;
constexpr std::size_t kTrunk = 2430;
constexpr std::size_t kBranch = 2511;
constexpr std::size_t kTag = 2592;
constexpr std::size_t kAttachmentTimestamp = 2619;
constexpr std::size_t kAttachmentLowerBound = 2628;
constexpr std::size_t kAttachmentUpperBound = 2637;
constexpr std::size_t kNonce = 2646, kNonceSize = 27;
constexpr std::size_t kOldNonce = 2592, kOldNonceSize = 81;
// Trits of the value field that hold the value.
constexpr std::size_t kValueUsableTrits = 33;
// The bundle essence: address through last index, hashed with Kerl into the bundle hash.
constexpr std::size_t kEssence = kAddress, kEssenceSize = kBundle - kAddress;
} // namespace field

// The fields, as trytes and integers. In the old layout `tag` repeats `obsolete_tag` (its only
// tag), the attachment timestamps are 0 and `nonce` has 81 trytes.
struct Transaction
{
    Layout layout = Layout::kCurrent;
    std::string signature_message_fragment; // 2187 trytes
    std::string address;                    // 81
    std::int64_t value = 0;
    bool value_high_trits_zero = true; // trits 33..80 of the value field
    std::string obsolete_tag;          // 27
    std::int64_t timestamp = 0;
    std::int64_t current_index = 0;
    std::int64_t last_index = 0;
    std::string bundle;             // 81
    std::string trunk_transaction;  // 81
    std::string branch_transaction; // 81
    std::string tag;                // 27
    std::int64_t attachment_timestamp = 0;
    std::int64_t attachment_timestamp_lower_bound = 0;
    std::int64_t attachment_timestamp_upper_bound = 0;
    std::string nonce; // 27, or 81 in the old layout
};

// When the layout changed: transactions issued before this time (seconds since 1970) and
// attached after the change are in the current layout.
constexpr std::int64_t kLayoutChangeTimestamp = 1509494400; // 2017-11-01T00:00:00Z
constexpr std::int64_t kLegacyEraEndMs = 1619654400000;     // 2021-04-29T00:00:00Z (Chrysalis)

// Tells the layout from the trits alone. The current layout when the timestamp is after the
// change; before it, the current layout only when the attachment timestamp is a time (in
// milliseconds) between the change and the end of the legacy era and lies within its bounds,
// the lower one not negative, as every client attaching in the current layout wrote them (the
// lower bound 0, the upper one (3^27 - 1) / 2, or the time itself). An old transaction's nonce
// trytes pass that test by chance about once in a thousand; a caller who knows the layout (a
// .dmp file's snapshot) passes it to DecodeTransaction instead.
Layout DetectLayout(const Trit *trits);

// The fields of 8019 trits read in `layout`.
Transaction DecodeTransaction(const Trit *trits, Layout layout);
// The fields of 2673 trytes, layout detected; DecodeError (offset in trytes) on any other length
// or a character that is not a tryte.
Transaction DecodeTransaction(std::string_view trytes);

// 2673 trytes checked as a transaction: DecodeError names `field` and the tryte position.
Trits TransactionTrits(std::string_view trytes, const char *field = "transaction");

// A transaction as stored: its 8019 trits in t5b1, 1604 bytes; and back to its 2673 trytes,
// exactly those it was stored from (DecodeError, offset in bytes, for bytes no transaction
// encodes to).
Bytes TransactionToBytes(std::string_view trytes);
std::string TransactionFromBytes(ByteSpan bytes);

// The fields back into 8019 trits (EncodeError when a field has the wrong size or a number does
// not fit). Decoding then encoding gives the same trits when the value's high trits are zero.
Trits EncodeTransaction(const Transaction &transaction);

// The transaction hash: Curl-P-81 of the 8019 trits, as 81 trytes.
std::string TransactionHash(const Trit *trits);

// iota.js's transaction object (asTransactionObject): hash, signatureMessageFragment, address,
// value, obsoleteTag, timestamp, currentIndex, lastIndex, bundle, trunkTransaction,
// branchTransaction, tag, attachmentTimestamp, attachmentTimestampLowerBound,
// attachmentTimestampUpperBound, nonce; an old-layout transaction adds "layout": "old".
nlohmann::json ToJson(const Transaction &transaction, const std::string &hash);

} // namespace permanode::codec::legacy
