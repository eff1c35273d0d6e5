// The open-addressing table of group/row ids that the hash aggregate and the
// hash set operation share: slot s holds an id + 1 (0 = empty) and the full
// hash of its key, linear probing over a power-of-two capacity.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

// Doubles the table, re-placing every occupied slot by its stored hash;
// `mask` becomes the new capacity - 1.
inline void GrowHashSlots(std::vector<uint32_t>& slots, std::vector<uint64_t>& slot_hashes, uint64_t& mask) {
  idx_t capacity = slots.size() * 2;
  std::vector<uint32_t> grown(capacity, 0);
  std::vector<uint64_t> hashes(capacity, 0);
  uint64_t new_mask = capacity - 1;
  for (idx_t s = 0; s < slots.size(); s++) {
    if (!slots[s]) continue;
    uint64_t pos = slot_hashes[s] & new_mask;
    while (grown[pos]) pos = (pos + 1) & new_mask;
    grown[pos] = slots[s];
    hashes[pos] = slot_hashes[s];
  }
  slots = std::move(grown);
  slot_hashes = std::move(hashes);
  mask = new_mask;
}

// One integer key (any integer-backed type read as int64) stored in its
// slot, so finding a group is one cache line: no separate hash array and no
// call to compare keys. `id` is the group id + 1 (0 = empty); `hash` the low
// 32 bits of the key's HashVector hash, enough to re-place it when growing
// (capacities stay below 2^32).
struct IntegerKeySlot {
  int64_t key;
  uint32_t id;
  uint32_t hash;
};

inline void GrowIntegerKeySlots(std::vector<IntegerKeySlot>& slots, uint64_t& mask) {
  std::vector<IntegerKeySlot> grown(slots.size() * 2, IntegerKeySlot{0, 0, 0});
  uint64_t new_mask = grown.size() - 1;
  for (const IntegerKeySlot& slot : slots) {
    if (!slot.id) continue;
    uint64_t pos = slot.hash & new_mask;
    while (grown[pos].id) pos = (pos + 1) & new_mask;
    grown[pos] = slot;
  }
  slots = std::move(grown);
  mask = new_mask;
}

}  // namespace lakestream
