// The group lookup of PhysicalHashAggregate: the per-column hash table, the
// one-integer-key table and the packed-key table (packed_keys.hpp).
#include "execution/operator/physical_hash_aggregate.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace lakestream {

void PhysicalHashAggregate::Grow() { GrowHashSlots(slots_, slot_hashes_, mask_); }

void PhysicalHashAggregate::ReserveSlots(idx_t groups) {
  // The table grows once more than half full.
  const idx_t capacity = std::bit_ceil(std::max<idx_t>(2 * groups + 2, slots_.size()));
  if (integer_key_) {
    integer_slots_.assign(capacity, IntegerKeySlot{0, 0, 0});
    integer_mask_ = capacity - 1;
  } else if (packed_) {
    packed_slots_.assign(capacity, PackedKeySlot{});
    packed_mask_ = capacity - 1;
  } else {
    slots_.assign(capacity, 0);
    slot_hashes_.assign(capacity, 0);
    mask_ = capacity - 1;
  }
  for (auto& keys : group_keys_) {
    if (keys->Capacity() < groups) keys->Resize(groups);
  }
}

uint32_t PhysicalHashAggregate::AddGroup(DataChunk& keys, idx_t row) {
  uint32_t gid = static_cast<uint32_t>(group_count_++);
  for (idx_t c = 0; c < keys.ColumnCount(); c++) {
    if (gid >= group_keys_[c]->Capacity()) group_keys_[c]->Resize(group_keys_[c]->Capacity() * 2);
    Vector& store = *group_keys_[c];
    if (store.GetType().id() == TypeId::VARCHAR) {
      // Copy the bytes: referencing the input's heap would pin every input chunk.
      bool valid = keys.data[c].IsValid(row);
      store.SetValid(gid, valid);
      if (valid) {
        string_t key = std::as_const(keys.data[c]).GetData<string_t>()[row];
        store.GetData<string_t>()[gid] = store.AddString(key);
        string_bytes_ += key.size();
      }
    } else {
      store.Copy(keys.data[c], nullptr, 1, row, gid);
    }
  }
  return gid;
}

void PhysicalHashAggregate::FindIntegerGroups(DataChunk& keys, idx_t count, uint32_t* group_ids, bool insert,
                                              const sel_t* sel) {
  const Vector& column = std::as_const(keys).data[0];
  const bool wide = column.GetType().PhysicalSize() == sizeof(int64_t);
  const int64_t* wide_keys = wide ? column.GetData<int64_t>() : nullptr;
  const int32_t* narrow_keys = wide ? nullptr : column.GetData<int32_t>();
  const uint8_t* valid = column.Validity();
  const uint64_t* hashes = hashes_.data();
  if (group_count_ > STANDARD_VECTOR_SIZE) {
    for (idx_t i = 0; i < count; i++) __builtin_prefetch(&integer_slots_[hashes[sel ? sel[i] : i] & integer_mask_]);
  }
  for (idx_t i = 0; i < count; i++) {
    const idx_t row = sel ? sel[i] : i;
    if (!valid[row]) {
      if (null_group_ == UINT32_MAX && insert) null_group_ = AddGroup(keys, row);
      group_ids[i] = null_group_ == UINT32_MAX ? kMissingGroup : null_group_;
      continue;
    }
    const int64_t key = wide ? wide_keys[row] : narrow_keys[row];
    uint64_t pos = hashes[row] & integer_mask_;
    while (true) {
      IntegerKeySlot& slot = integer_slots_[pos];
      if (slot.id == 0) {
        if (!insert) {
          group_ids[i] = kMissingGroup;
          break;
        }
        uint32_t gid = AddGroup(keys, row);
        slot = IntegerKeySlot{key, gid + 1, static_cast<uint32_t>(hashes[row])};
        group_ids[i] = gid;
        if (group_count_ * 2 > integer_slots_.size()) GrowIntegerKeySlots(integer_slots_, integer_mask_);
        break;
      }
      if (slot.key == key) {
        group_ids[i] = slot.id - 1;
        break;
      }
      pos = (pos + 1) & integer_mask_;
    }
  }
}

void PhysicalHashAggregate::LeavePackedMode() {
  packed_ = false;
  packed_slots_.clear();
  std::vector<uint64_t> hashes(group_count_);
  for (idx_t c = 0; c < group_keys_.size(); c++) HashVector(*group_keys_[c], group_count_, hashes.data(), c > 0);
  idx_t capacity = 1024;
  while (capacity < group_count_ * 2) capacity *= 2;
  slots_.assign(capacity, 0);
  slot_hashes_.assign(capacity, 0);
  mask_ = capacity - 1;
  for (idx_t gid = 0; gid < group_count_; gid++) {
    uint64_t pos = hashes[gid] & mask_;
    while (slots_[pos]) pos = (pos + 1) & mask_;
    slots_[pos] = static_cast<uint32_t>(gid + 1);
    slot_hashes_[pos] = hashes[gid];
  }
}

bool PhysicalHashAggregate::FindPackedGroups(DataChunk& keys, idx_t count, uint32_t* group_ids, bool insert,
                                             const sel_t* sel) {
  // With a selection, every row is packed: cheaper than copying the selected ones out.
  const idx_t packed_rows = sel ? keys.size() : count;
  packed_keys_.resize(packed_rows);
  if (!packer_.Pack(keys, packed_rows, packed_keys_.data())) {
    packable_ = false;  // strings longer than the layout holds: they will come again
    LeavePackedMode();
    return false;
  }
  hashes_.resize(packed_rows);
  uint64_t* hashes = hashes_.data();
  const PackedKey* packed = packed_keys_.data();
  for (idx_t r = 0; r < packed_rows; r++) hashes[r] = HashPackedKey(packed[r]);
  if (group_count_ > STANDARD_VECTOR_SIZE) {
    for (idx_t i = 0; i < count; i++) __builtin_prefetch(&packed_slots_[hashes[sel ? sel[i] : i] & packed_mask_]);
  }
  for (idx_t i = 0; i < count; i++) {
    const idx_t row = sel ? sel[i] : i;
    const PackedKey& key = packed[row];
    uint64_t pos = hashes[row] & packed_mask_;
    while (true) {
      PackedKeySlot& slot = packed_slots_[pos];
      if (slot.id == 0) {
        if (!insert) {
          group_ids[i] = kMissingGroup;
          break;
        }
        uint32_t gid = AddGroup(keys, row);
        slot.key = key;
        slot.id = gid + 1;
        group_ids[i] = gid;
        if (group_count_ * 2 > packed_slots_.size()) GrowPackedKeySlots(packed_slots_, packed_mask_);
        break;
      }
      if (slot.key == key) {
        group_ids[i] = slot.id - 1;
        break;
      }
      pos = (pos + 1) & packed_mask_;
    }
  }
  return true;
}

void PhysicalHashAggregate::FindGroups(DataChunk& keys, idx_t count, uint32_t* group_ids, bool insert, const sel_t* sel) {
  // Spilling partitions rows by HashVector's hashes: no packed mode then.
  if (packed_ && spill_) LeavePackedMode();
  if (packed_ && FindPackedGroups(keys, count, group_ids, insert, sel)) return;
  // With a selection, every row is hashed: cheaper than copying the selected ones out.
  const idx_t hashed = sel ? keys.size() : count;
  hashes_.resize(hashed);
  uint64_t* hashes = hashes_.data();
  for (idx_t c = 0; c < keys.ColumnCount(); c++) HashVector(keys.data[c], hashed, hashes, c > 0);
  if (integer_key_) return FindIntegerGroups(keys, count, group_ids, insert, sel);
  idx_t key_count = keys.ColumnCount();
  // Many groups: each row's first slot is a cache miss; start them all
  // before probing so they overlap (as the hash join's probe does).
  if (group_count_ > STANDARD_VECTOR_SIZE) {
    for (idx_t i = 0; i < count; i++) {
      __builtin_prefetch(&slots_[hashes[sel ? sel[i] : i] & mask_]);
      __builtin_prefetch(&slot_hashes_[hashes[sel ? sel[i] : i] & mask_]);
    }
  }
  for (idx_t i = 0; i < count; i++) {
    const idx_t row = sel ? sel[i] : i;
    uint64_t h = hashes[row];
    uint64_t pos = h & mask_;
    while (true) {
      uint32_t entry = slots_[pos];
      if (entry == 0 && !insert) {
        group_ids[i] = kMissingGroup;
        break;
      }
      if (entry == 0) {
        uint32_t gid = AddGroup(keys, row);
        slots_[pos] = gid + 1;
        slot_hashes_[pos] = h;
        group_ids[i] = gid;
        if (group_count_ * 2 > slots_.size()) Grow();
        break;
      }
      if (slot_hashes_[pos] == h) {
        uint32_t gid = entry - 1;
        bool equal = true;
        for (idx_t c = 0; c < key_count && equal; c++) equal = key_equal_[c](keys.data[c], row, *group_keys_[c], gid);
        if (equal) {
          group_ids[i] = gid;
          break;
        }
      }
      pos = (pos + 1) & mask_;
    }
  }
}

}  // namespace lakestream
