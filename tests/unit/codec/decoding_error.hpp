// The error a decoder raises for some bytes, for the tests of decoding errors.
#pragma once

#include "codec/error.hpp"
#include "codec/hex.hpp"
#include "codec/types.hpp"

#include <gtest/gtest.h>

namespace permanode::codec
{

// What decode(bytes) throws; fails the test when it decodes.
template <typename Decode> DecodeError DecodingError(Decode decode, const Bytes &bytes)
{
    try
    {
        decode(bytes);
    }
    catch (const DecodeError &error)
    {
        return error;
    }
    ADD_FAILURE() << "decoded without error: " << ToHex(ByteSpan(bytes));
    return DecodeError("none", 0, "none");
}

} // namespace permanode::codec
