// Constants of the deletion vector format shared by its decoder
// (deletion_vector.cpp) and encoder (deletion_vector_write.cpp); the grammar
// is in deletion_vector.hpp.
#pragma once

#include <cstdint>

namespace lakestream::delta::dv_format {

// Z85 (ZeroMQ's base-85) digits of an inline or UUID-named vector's id.
inline constexpr char kZ85Alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
// First 4 bytes of a serialized RoaringBitmapArray (Delta's 64-bit bitmap).
inline constexpr uint32_t kRoaringArrayMagic = 1681511377;
// Cookies of a standard 32-bit Roaring bitmap: without and with run containers.
inline constexpr uint32_t kSerialCookieNoRun = 12346;
inline constexpr uint32_t kSerialCookie = 12347;
// Bitmaps with fewer containers than this omit the offset header.
inline constexpr uint32_t kNoOffsetThreshold = 4;
// A container holds at most this many values as a sorted array; more is a bitset.
inline constexpr uint32_t kMaxArrayCardinality = 4096;

}  // namespace lakestream::delta::dv_format
