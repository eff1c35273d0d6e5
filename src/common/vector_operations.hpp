// Row-level helpers over vectors for hashing, equality and ordering, shared by
// the hash aggregate, hash join, sort and the change-set code. Each accessor is
// chosen once per column (by type) so inner loops make no type switches.
#pragma once

#include <cstdint>

#include "common/vector.hpp"

namespace lakestream {

// hashes[i] = hash(v[i]) (combine = false) or mixes it into hashes[i] (combine = true).
// NULL hashes to a fixed value, so NULL keys group together.
void HashVector(const Vector& v, idx_t count, uint64_t* hashes, bool combine);

// a[ra] == b[rb] for two vectors of the same type; NULL equals NULL.
using row_equal_t = bool (*)(const Vector& a, idx_t ra, const Vector& b, idx_t rb);
row_equal_t GetRowEqualFunction(const LogicalType& type);

// Three-way comparison of non-NULL a[ra] and b[rb] of the same type.
using row_compare_t = int (*)(const Vector& a, idx_t ra, const Vector& b, idx_t rb);
row_compare_t GetRowCompareFunction(const LogicalType& type);

// Appends a binary encoding of v[row] (type-tagged, NULL distinct) to `out`;
// equal values give equal bytes. For COUNT(DISTINCT) and set-style keys.
void EncodeKey(const Vector& v, idx_t row, std::string& out);

inline uint64_t MixHash(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace lakestream
