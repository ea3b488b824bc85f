// Address checksums (Kerl).
#include "codec/legacy/address.hpp"

#include "codec/error.hpp"
#include "codec/legacy/kerl.hpp"

namespace permanode::codec::legacy
{

std::string AddressChecksum(std::string_view address)
{
    Trits trits = TrytesToTrits(address, "address");
    if (trits.size() != kHashTrits)
        throw EncodeError("an address has 81 trytes, got " + std::to_string(address.size()));
    HashTrits hash = KerlHash(trits.data(), trits.size());
    return TritsToTrytes(hash).substr(kHashTrytes - kChecksumTrytes);
}

std::string ParseAddress(std::string_view text, const char *field)
{
    if (text.size() != kHashTrytes && text.size() != kHashTrytes + kChecksumTrytes)
        throw DecodeError(field, std::min(text.size(), kHashTrytes + kChecksumTrytes),
                          "an address has 81 trytes, or 90 with its checksum; got " +
                              std::to_string(text.size()),
                          "tryte");
    TrytesToTrits(text, field); // names the first character that is not a tryte
    std::string address(text.substr(0, kHashTrytes));
    if (text.size() == kHashTrytes)
        return address;
    std::string checksum = AddressChecksum(address);
    if (text.substr(kHashTrytes) != checksum)
        throw DecodeError(field, kHashTrytes,
                          "checksum " + std::string(text.substr(kHashTrytes)) +
                              " does not match the address (its checksum is " + checksum + ")",
                          "tryte");
    return address;
}

} // namespace permanode::codec::legacy
