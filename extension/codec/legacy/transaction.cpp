// Transaction fields in and out of trits, the layout test, the hash and the JSON.
#include "codec/legacy/transaction.hpp"

#include "codec/error.hpp"
#include "codec/legacy/curl.hpp"

#include <algorithm>

namespace permanode::codec::legacy
{

namespace
{

constexpr std::size_t kAddressSize = kHashTrytes;

std::string TrytesAt(const Trit *trits, std::size_t tryte_offset, std::size_t size)
{
    return TritsToTrytes(trits + kTritsPerTryte * tryte_offset, kTritsPerTryte * size);
}

std::int64_t NumberAt(const Trit *trits, std::size_t tryte_offset, std::size_t trit_count)
{
    return TritsToInt(trits + kTritsPerTryte * tryte_offset, trit_count);
}

std::int64_t NumberAt(const Trit *trits, std::size_t tryte_offset)
{
    return NumberAt(trits, tryte_offset, kTritsPerTryte * field::kNumberSize);
}

void PutTrytes(Trits &trits, std::size_t tryte_offset, const std::string &trytes, std::size_t size,
               const char *name)
{
    if (trytes.size() != size)
        throw EncodeError(std::string(name) + " has " + std::to_string(trytes.size()) +
                          " trytes, not " + std::to_string(size));
    TrytesToTrits(trytes, trits.data() + kTritsPerTryte * tryte_offset, name);
}

void PutNumber(Trits &trits, std::size_t tryte_offset, std::int64_t value, std::size_t trit_count)
{
    IntToTrits(value, trits.data() + kTritsPerTryte * tryte_offset, trit_count);
}

void PutNumber(Trits &trits, std::size_t tryte_offset, std::int64_t value)
{
    PutNumber(trits, tryte_offset, value, kTritsPerTryte * field::kNumberSize);
}

} // namespace

Layout DetectLayout(const Trit *trits)
{
    if (NumberAt(trits, field::kTimestamp) >= kLayoutChangeTimestamp)
        return Layout::kCurrent;
    std::int64_t attached = NumberAt(trits, field::kAttachmentTimestamp);
    std::int64_t lower = NumberAt(trits, field::kAttachmentLowerBound);
    std::int64_t upper = NumberAt(trits, field::kAttachmentUpperBound);
    bool attached_in_current_layout = attached >= kLayoutChangeTimestamp * 1000 &&
                                      attached <= kLegacyEraEndMs && lower >= 0 &&
                                      lower <= attached && attached <= upper;
    return attached_in_current_layout ? Layout::kCurrent : Layout::kOld;
}

Transaction DecodeTransaction(const Trit *trits, Layout layout)
{
    Transaction tx;
    tx.layout = layout;
    tx.signature_message_fragment = TrytesAt(trits, field::kSignature, field::kSignatureSize);
    tx.address = TrytesAt(trits, field::kAddress, kAddressSize);
    tx.value = NumberAt(trits, field::kValue, field::kValueUsableTrits);
    const Trit *value = trits + kTritsPerTryte * field::kValue;
    tx.value_high_trits_zero =
        std::all_of(value + field::kValueUsableTrits, value + kTritsPerTryte * field::kValueSize,
                    [](Trit t) { return t == 0; });
    tx.obsolete_tag = TrytesAt(trits, field::kObsoleteTag, field::kTagSize);
    tx.timestamp = NumberAt(trits, field::kTimestamp);
    tx.current_index = NumberAt(trits, field::kCurrentIndex);
    tx.last_index = NumberAt(trits, field::kLastIndex);
    tx.bundle = TrytesAt(trits, field::kBundle, kHashTrytes);
    tx.trunk_transaction = TrytesAt(trits, field::kTrunk, kHashTrytes);
    tx.branch_transaction = TrytesAt(trits, field::kBranch, kHashTrytes);
    if (layout == Layout::kOld)
    {
        tx.tag = tx.obsolete_tag;
        tx.nonce = TrytesAt(trits, field::kOldNonce, field::kOldNonceSize);
        return tx;
    }
    tx.tag = TrytesAt(trits, field::kTag, field::kTagSize);
    tx.attachment_timestamp = NumberAt(trits, field::kAttachmentTimestamp);
    tx.attachment_timestamp_lower_bound = NumberAt(trits, field::kAttachmentLowerBound);
    tx.attachment_timestamp_upper_bound = NumberAt(trits, field::kAttachmentUpperBound);
    tx.nonce = TrytesAt(trits, field::kNonce, field::kNonceSize);
    return tx;
}

Trits TransactionTrits(std::string_view trytes, const char *field)
{
    if (trytes.size() != kTransactionTrytes)
        throw DecodeError(field, std::min(trytes.size(), kTransactionTrytes),
                          "a transaction has " + std::to_string(kTransactionTrytes) +
                              " trytes, got " + std::to_string(trytes.size()),
                          "tryte");
    return TrytesToTrits(trytes, field);
}

Bytes TransactionToBytes(std::string_view trytes)
{
    Trits trits = TransactionTrits(trytes);
    return EncodeT5b1(trits.data(), trits.size());
}

std::string TransactionFromBytes(ByteSpan bytes)
{
    Trits trits = DecodeT5b1(bytes, kTransactionTrits);
    return TritsToTrytes(trits.data(), trits.size());
}

Transaction DecodeTransaction(std::string_view trytes)
{
    Trits trits = TransactionTrits(trytes);
    return DecodeTransaction(trits.data(), DetectLayout(trits.data()));
}

Trits EncodeTransaction(const Transaction &tx)
{
    Trits trits(kTransactionTrits, 0);
    PutTrytes(trits, field::kSignature, tx.signature_message_fragment, field::kSignatureSize,
              "signatureMessageFragment");
    PutTrytes(trits, field::kAddress, tx.address, kAddressSize, "address");
    PutNumber(trits, field::kValue, tx.value, field::kValueUsableTrits);
    PutTrytes(trits, field::kObsoleteTag, tx.obsolete_tag, field::kTagSize, "obsoleteTag");
    PutNumber(trits, field::kTimestamp, tx.timestamp);
    PutNumber(trits, field::kCurrentIndex, tx.current_index);
    PutNumber(trits, field::kLastIndex, tx.last_index);
    PutTrytes(trits, field::kBundle, tx.bundle, kHashTrytes, "bundle");
    PutTrytes(trits, field::kTrunk, tx.trunk_transaction, kHashTrytes, "trunkTransaction");
    PutTrytes(trits, field::kBranch, tx.branch_transaction, kHashTrytes, "branchTransaction");
    if (tx.layout == Layout::kOld)
    {
        PutTrytes(trits, field::kOldNonce, tx.nonce, field::kOldNonceSize, "nonce");
        return trits;
    }
    PutTrytes(trits, field::kTag, tx.tag, field::kTagSize, "tag");
    PutNumber(trits, field::kAttachmentTimestamp, tx.attachment_timestamp);
    PutNumber(trits, field::kAttachmentLowerBound, tx.attachment_timestamp_lower_bound);
    PutNumber(trits, field::kAttachmentUpperBound, tx.attachment_timestamp_upper_bound);
    PutTrytes(trits, field::kNonce, tx.nonce, field::kNonceSize, "nonce");
    return trits;
}

std::string TransactionHash(const Trit *trits)
{
    return TritsToTrytes(CurlHash(trits, kTransactionTrits));
}

nlohmann::json ToJson(const Transaction &tx, const std::string &hash)
{
    nlohmann::json out = {
        {"hash", hash},
        {"signatureMessageFragment", tx.signature_message_fragment},
        {"address", tx.address},
        {"value", tx.value},
        {"obsoleteTag", tx.obsolete_tag},
        {"timestamp", tx.timestamp},
        {"currentIndex", tx.current_index},
        {"lastIndex", tx.last_index},
        {"bundle", tx.bundle},
        {"trunkTransaction", tx.trunk_transaction},
        {"branchTransaction", tx.branch_transaction},
        {"tag", tx.tag},
        {"attachmentTimestamp", tx.attachment_timestamp},
        {"attachmentTimestampLowerBound", tx.attachment_timestamp_lower_bound},
        {"attachmentTimestampUpperBound", tx.attachment_timestamp_upper_bound},
        {"nonce", tx.nonce},
    };
    if (tx.layout == Layout::kOld)
        out["layout"] = "old";
    return out;
}

} // namespace permanode::codec::legacy
