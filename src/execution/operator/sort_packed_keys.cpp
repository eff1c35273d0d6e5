#include "execution/operator/sort_packed_keys.hpp"

#include <algorithm>
#include <bit>

namespace lakestream {

namespace {

using uint128_t = unsigned __int128;

struct KeyColumn {
  hugeint_t min = 0, max = 0;
  bool any_valid = false, any_null = false;
  bool descending = false, nulls_first = false;
  uint128_t min_u = 0, max_u = 0;  // min and max as unsigned (their difference wraps right)
  idx_t value_bits = 0;  // bits of max - min
  idx_t Bits() const { return value_bits + (any_null ? 1 : 0); }
};

bool Packable(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN:
    case TypeId::INTEGER:
    case TypeId::DATE:
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::DECIMAL:
      return true;
    default:
      return false;
  }
}

// Calls f(value as hugeint_t, valid) for rows [0, count) of v, dispatching on
// the type once per chunk.
template <class F>
void ForEachValue(const Vector& v, idx_t count, F&& f) {
  const uint8_t* valid = v.Validity();
  auto run = [&](const auto* data) {
    for (idx_t i = 0; i < count; i++) f(static_cast<hugeint_t>(data[i]), valid[i] != 0);
  };
  switch (v.GetType().id()) {
    // As bytes: a NULL row's slot may hold any byte, not a valid bool.
    case TypeId::BOOLEAN: return run(v.GetData<uint8_t>());
    case TypeId::INTEGER:
    case TypeId::DATE: return run(v.GetData<int32_t>());
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return run(v.GetData<int64_t>());
    default: return run(v.GetData<hugeint_t>());
  }
}

idx_t BitWidth(uint128_t x) {
  const auto hi = static_cast<uint64_t>(x >> 64);
  if (hi != 0) return 128 - static_cast<idx_t>(std::countl_zero(hi));
  return 64 - static_cast<idx_t>(std::countl_zero(static_cast<uint64_t>(x)));
}

// Packs into `packed` (which may be `permutation` itself: 64-bit keys are
// sorted in place, sparing a second array of the rows' size).
template <class K>
void PackAndSort(const ChunkCollection& keys, const std::vector<KeyColumn>& columns, idx_t position_bits,
                 std::vector<K>& packed, std::vector<uint64_t>& permutation) {
  const idx_t count = keys.Count();
  packed.assign(count, 0);
  for (idx_t c = 0; c < columns.size(); c++) {
    const KeyColumn& col = columns[c];
    const idx_t bits = col.Bits();
    if (bits == 0) continue;
    // Value bits below a NULL bit that is set for the rows sorting last.
    const K null_bit = col.any_null ? (static_cast<K>(1) << col.value_bits) : 0;
    const K null_row = col.nulls_first ? 0 : null_bit;
    const K valid_row = col.nulls_first ? null_bit : 0;
    idx_t row = 0;
    for (idx_t k = 0; k < keys.ChunkCount(); k++) {
      const DataChunk& chunk = keys.Chunk(k);
      K* out = packed.data() + row;
      idx_t i = 0;
      ForEachValue(chunk.data[c], chunk.size(), [&](hugeint_t v, bool valid) {
        K part = null_row;
        if (valid) {
          // Unsigned: max - min can exceed the signed range.
          const auto u = static_cast<uint128_t>(v);
          const uint128_t offset = col.descending ? col.max_u - u : u - col.min_u;
          part = valid_row | static_cast<K>(offset);
        }
        out[i] = (bits >= sizeof(K) * 8 ? 0 : out[i] << bits) | part;
        i++;
      });
      row += chunk.size();
    }
  }
  for (idx_t r = 0; r < count; r++) packed[r] = (position_bits >= sizeof(K) * 8 ? 0 : packed[r] << position_bits) | r;
  std::sort(packed.begin(), packed.end());
  permutation.resize(count);
  const K mask = position_bits >= sizeof(K) * 8 ? ~static_cast<K>(0) : (static_cast<K>(1) << position_bits) - 1;
  for (idx_t r = 0; r < count; r++) permutation[r] = static_cast<uint64_t>(packed[r] & mask);
}

}  // namespace

bool SortPackedKeys(const ChunkCollection& keys, const std::vector<BoundOrder>& orders,
                    std::vector<uint64_t>& permutation) {
  std::vector<KeyColumn> columns(orders.size());
  for (idx_t c = 0; c < orders.size(); c++) {
    if (!Packable(keys.Types()[c])) return false;
    columns[c].descending = orders[c].descending;
    columns[c].nulls_first = orders[c].nulls_first;
  }
  for (idx_t k = 0; k < keys.ChunkCount(); k++) {
    const DataChunk& chunk = keys.Chunk(k);
    for (idx_t c = 0; c < columns.size(); c++) {
      KeyColumn& col = columns[c];
      ForEachValue(chunk.data[c], chunk.size(), [&col](hugeint_t v, bool valid) {
        if (!valid) {
          col.any_null = true;
          return;
        }
        if (!col.any_valid || v < col.min) col.min = v;
        if (!col.any_valid || v > col.max) col.max = v;
        col.any_valid = true;
      });
    }
  }
  idx_t key_bits = 0;
  for (auto& col : columns) {
    col.min_u = static_cast<uint128_t>(col.min);
    col.max_u = static_cast<uint128_t>(col.max);
    col.value_bits = BitWidth(col.max_u - col.min_u);
    key_bits += col.Bits();
  }
  const idx_t position_bits = BitWidth(keys.Count() > 0 ? keys.Count() - 1 : 0);
  if (key_bits + position_bits <= 64) {
    PackAndSort<uint64_t>(keys, columns, position_bits, permutation, permutation);
    return true;
  }
  if (key_bits + position_bits <= 128) {
    std::vector<uint128_t> packed;
    PackAndSort<uint128_t>(keys, columns, position_bits, packed, permutation);
    return true;
  }
  return false;
}

}  // namespace lakestream
