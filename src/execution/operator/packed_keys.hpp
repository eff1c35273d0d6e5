// GROUP BY keys of a few narrow columns packed into one 16-byte value, so
// the hash aggregate finds a row's group by hashing and comparing that
// value instead of hashing each column (strings byte by byte) and calling a
// per-type equality per column (TPC-H Q1's two one-letter VARCHAR keys spent
// about 40% of the query there).
//
// Layout: each key column has a fixed place in the 16 bytes; BOOLEAN 1 byte,
// INTEGER and DATE 4, BIGINT, TIMESTAMP, TIMESTAMP_NTZ, DOUBLE (-0.0 as 0.0,
// one NaN) and DECIMAL of width <= 18 (its value fits in 64 bits) 8. The
// bytes left are shared by the VARCHAR columns: each gets a length byte and
// up to (its share - 1) bytes of string. A NULL is a bit in `nulls` (its
// bytes zero). Equal keys give equal packed values and different keys
// different ones, so the packed value is the key.
//
// A string longer than its share does not fit: Pack says so and the
// aggregate goes back to the per-column hash table for good (the layout is
// fixed by the types, the strings' lengths are only known from the data).
#pragma once

#include <cstdint>
#include <vector>

#include "common/vector.hpp"
#include "common/vector_operations.hpp"

namespace lakestream {

struct PackedKey {
  uint64_t lo = 0;
  uint64_t hi = 0;
  uint32_t nulls = 0;  // bit c: key column c is NULL
  bool operator==(const PackedKey& o) const { return lo == o.lo && hi == o.hi && nulls == o.nulls; }
};

inline uint64_t HashPackedKey(const PackedKey& k) {
  return MixHash(k.lo ^ (k.hi * 0x9e3779b97f4a7c15ULL) ^ (static_cast<uint64_t>(k.nulls) * 0xc2b2ae3d27d4eb4fULL));
}

// An open-addressing slot of packed keys: `id` is the group id + 1 (0 = empty).
struct PackedKeySlot {
  PackedKey key;
  uint32_t id = 0;
};

// Doubles `slots`, re-placing each occupied slot by its key's hash; `mask`
// becomes the new capacity - 1.
void GrowPackedKeySlots(std::vector<PackedKeySlot>& slots, uint64_t& mask);

class KeyPacker {
 public:
  // Lays out columns of `types`; false when they cannot be packed: a type
  // not listed above, more than 32 columns, fixed-width columns over 16
  // bytes, or less than 2 bytes for a VARCHAR.
  bool Plan(const std::vector<LogicalType>& types);
  // keys[i] = row i of `chunk` packed, for rows [0, count); false when a
  // row does not fit (a string longer than its share; `keys` then partly written).
  bool Pack(const DataChunk& chunk, idx_t count, PackedKey* keys) const;

 private:
  struct Column {
    TypeId type;
    idx_t offset;  // in the 16 bytes
    idx_t width;
  };
  std::vector<Column> columns_;
};

}  // namespace lakestream
