// WindowSort: the rows ordered by partition, then by the ORDER BY keys.
//
// Partitions need their rows together, not in any order: each row gets a
// dense partition id from a hash table over the PARTITION BY keys, a
// counting sort groups the rows by id, and only each partition is sorted by
// the ORDER BY keys (n log(partition size), not n log n). One ORDER BY key of
// a fixed-width type (integers, DATE, TIMESTAMP, DOUBLE, BOOLEAN) is encoded
// as an unsigned integer that sorts in the requested direction, written in
// input order straight into its partition's range, and that sort runs over
// plain structs; other keys go through the type's comparator.
#include <algorithm>
#include <cstring>
#include <limits>

#include "common/exception.hpp"
#include "common/vector_operations.hpp"
#include "function/window/window_internal.hpp"

namespace lakestream {

namespace {

// Dense ids 0, 1, ... for the distinct PARTITION BY key tuples, in order of
// first appearance (NULL equals NULL).
std::vector<uint32_t> PartitionIds(const std::vector<Vector>& inputs, idx_t count, const std::vector<idx_t>& keys) {
  std::vector<uint32_t> ids(count, 0);
  if (keys.empty() || count == 0) return ids;
  std::vector<uint64_t> hashes(count);
  for (idx_t k = 0; k < keys.size(); k++) HashVector(inputs[keys[k]], count, hashes.data(), k > 0);
  std::vector<row_equal_t> equal;
  equal.reserve(keys.size());
  for (idx_t k : keys) equal.push_back(GetRowEqualFunction(inputs[k].GetType()));
  std::vector<uint32_t> first_row;  // per id: a row holding its keys
  // Open addressing: slot -> id + 1 (0 = empty); grown at half full.
  std::vector<uint32_t> slots(1024, 0);
  std::vector<uint64_t> slot_hash(1024, 0);
  auto same = [&](uint32_t a, uint32_t b) {
    for (idx_t k = 0; k < keys.size(); k++) {
      const Vector& v = inputs[keys[k]];
      if (!equal[k](v, a, v, b)) return false;
    }
    return true;
  };
  auto grow = [&] {
    std::vector<uint32_t> new_slots(slots.size() * 2, 0);
    std::vector<uint64_t> new_hash(slots.size() * 2, 0);
    idx_t mask = new_slots.size() - 1;
    for (idx_t s = 0; s < slots.size(); s++) {
      if (!slots[s]) continue;
      idx_t i = slot_hash[s] & mask;
      while (new_slots[i]) i = (i + 1) & mask;
      new_slots[i] = slots[s];
      new_hash[i] = slot_hash[s];
    }
    slots = std::move(new_slots);
    slot_hash = std::move(new_hash);
  };
  for (idx_t row = 0; row < count; row++) {
    uint64_t h = hashes[row];
    idx_t mask = slots.size() - 1;
    idx_t i = h & mask;
    while (true) {
      uint32_t entry = slots[i];
      if (!entry) {
        ids[row] = static_cast<uint32_t>(first_row.size());
        first_row.push_back(static_cast<uint32_t>(row));
        slots[i] = ids[row] + 1;
        slot_hash[i] = h;
        if (first_row.size() * 2 > slots.size()) grow();
        break;
      }
      if (slot_hash[i] == h && same(first_row[entry - 1], static_cast<uint32_t>(row))) {
        ids[row] = entry - 1;
        break;
      }
      i = (i + 1) & mask;
    }
  }
  return ids;
}

// The order-preserving unsigned encoding of a fixed-width value (ascending).
bool Encodable(TypeId t) {
  return t == TypeId::INTEGER || t == TypeId::DATE || t == TypeId::BIGINT || t == TypeId::TIMESTAMP || t == TypeId::TIMESTAMP_NTZ ||
         t == TypeId::DOUBLE || t == TypeId::BOOLEAN;
}

uint64_t Encode(const Vector& v, idx_t row) {
  constexpr uint64_t kSign = uint64_t{1} << 63;
  switch (v.GetType().id()) {
    case TypeId::BOOLEAN: return v.GetData<bool>()[row] ? 1 : 0;
    case TypeId::INTEGER:
    case TypeId::DATE: return static_cast<uint64_t>(static_cast<int64_t>(v.GetData<int32_t>()[row])) ^ kSign;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return static_cast<uint64_t>(v.GetData<int64_t>()[row]) ^ kSign;
    case TypeId::DOUBLE: {
      double d = v.GetData<double>()[row];
      if (d == 0) d = 0;  // -0.0 sorts with 0.0
      if (d != d) return std::numeric_limits<uint64_t>::max();  // NaN after every number, as the comparator does
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      return (bits & kSign) ? ~bits : bits | kSign;
    }
    default: return 0;
  }
}

struct EncodedRow {
  uint64_t key;
  uint32_t null_rank;  // orders NULL keys before or after the others
  uint32_t row;
  bool operator<(const EncodedRow& o) const {
    if (null_rank != o.null_rank) return null_rank < o.null_rank;
    if (key != o.key) return key < o.key;
    return row < o.row;
  }
};

// Fills order[starts[p], starts[p + 1]) with partition p's rows sorted by
// the one encodable ORDER BY key. The keys are encoded reading the key
// vector in input order and written straight to their partition's range (a
// counting sort's scatter), so each partition is then sorted where it lies:
// no random reads of the key vector per partition.
void SortEncoded(std::vector<uint32_t>& order, const std::vector<uint32_t>& partition, const std::vector<uint32_t>& starts,
                 const Vector& key, const BoundWindowOrder& o) {
  idx_t count = partition.size();
  std::vector<EncodedRow> rows(count);
  std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
  uint32_t valid_rank = o.nulls_first ? 1 : 0;
  uint32_t null_rank = o.nulls_first ? 0 : 1;
  uint64_t flip = o.descending ? ~uint64_t{0} : 0;
  const uint8_t* validity = key.Validity();
  for (idx_t i = 0; i < count; i++) {
    EncodedRow& r = rows[next[partition[i]]++];
    r.row = static_cast<uint32_t>(i);
    if (validity[i]) {
      r.key = Encode(key, i) ^ flip;
      r.null_rank = valid_rank;
    } else {
      r.key = 0;
      r.null_rank = null_rank;
    }
  }
  for (idx_t p = 0; p + 1 < starts.size(); p++) {
    if (starts[p + 1] - starts[p] > 1) std::sort(rows.begin() + starts[p], rows.begin() + starts[p + 1]);
  }
  for (idx_t i = 0; i < count; i++) order[i] = rows[i].row;
}

}  // namespace

WindowSort::WindowSort(const std::vector<Vector>& inputs, idx_t count, const BoundWindow& window) : inputs_(inputs) {
  if (count >= std::numeric_limits<uint32_t>::max()) {
    throw InvalidInputError("a window function over 4294967295 rows or more is not supported; filter the input first");
  }
  for (auto& o : window.orders) order_inputs_.push_back(o.input);
  std::vector<uint32_t> partition = PartitionIds(inputs, count, window.partitions);
  // Rows grouped by partition id, in input order within each (a counting sort).
  uint32_t partitions = 0;
  for (uint32_t p : partition) partitions = std::max(partitions, p + 1);
  std::vector<uint32_t> starts(partitions + 1, 0);
  for (uint32_t p : partition) starts[p + 1]++;
  for (idx_t p = 0; p < partitions; p++) starts[p + 1] += starts[p];
  order_.resize(count);
  partition_starts_.assign(starts.begin(), starts.end());
  if (count == 0) partition_starts_ = {0};
  if (window.orders.size() == 1 && Encodable(inputs[window.orders[0].input].GetType().id())) {
    SortEncoded(order_, partition, starts, inputs[window.orders[0].input], window.orders[0]);
    return;
  }
  {
    std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
    for (idx_t i = 0; i < count; i++) order_[next[partition[i]]++] = static_cast<uint32_t>(i);
  }
  if (window.orders.empty()) return;
  // Then each partition by the ORDER BY keys; ties keep input order.
  struct SortKey {
    const Vector* vector;
    row_compare_t compare;
    bool descending;
    bool nulls_first;
  };
  std::vector<SortKey> keys;
  keys.reserve(window.orders.size());
  for (auto& o : window.orders) {
    keys.push_back({&inputs[o.input], GetRowCompareFunction(inputs[o.input].GetType()), o.descending, o.nulls_first});
  }
  auto less = [&](uint32_t a, uint32_t b) {
    for (auto& k : keys) {
      bool va = k.vector->IsValid(a), vb = k.vector->IsValid(b);
      if (!va || !vb) {
        if (va == vb) continue;
        return k.nulls_first ? !va : va;
      }
      int c = k.compare(*k.vector, a, *k.vector, b);
      if (c != 0) return k.descending ? c > 0 : c < 0;
    }
    return a < b;
  };
  for (idx_t p = 0; p < partitions; p++) {
    idx_t begin = starts[p], end = starts[p + 1];
    if (end - begin < 2) continue;
    std::sort(order_.begin() + static_cast<std::ptrdiff_t>(begin), order_.begin() + static_cast<std::ptrdiff_t>(end), less);
  }
}

}  // namespace lakestream
