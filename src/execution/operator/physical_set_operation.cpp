#include "execution/operator/physical_set_operation.hpp"

#include <algorithm>

#include "common/exception.hpp"
#include "execution/operator/hash_slots.hpp"

namespace lakestream {

PhysicalSetOperation::PhysicalSetOperation(std::vector<LogicalType> types, PhysicalOperatorPtr left,
                                           PhysicalOperatorPtr right, LogicalSetOperation operation, bool all)
    : PhysicalOperator(std::move(types)), operation_(operation), all_(all) {
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  for (auto& type : this->types) {
    equal_.push_back(GetRowEqualFunction(type));
    rows_.push_back(std::make_unique<Vector>(type, 1024));
  }
  slots_.assign(1024, 0);
  slot_hashes_.assign(1024, 0);
  mask_ = 1023;
  hashes_.resize(STANDARD_VECTOR_SIZE);
  sel_.resize(STANDARD_VECTOR_SIZE);
}

std::string PhysicalSetOperation::Name() const {
  std::string name = operation_ == LogicalSetOperation::EXCEPT ? "HASH_EXCEPT" : "HASH_INTERSECT";
  return all_ ? name + " ALL" : name;
}

void PhysicalSetOperation::Grow() { GrowHashSlots(slots_, slot_hashes_, mask_); }

void PhysicalSetOperation::StoreRow(const DataChunk& chunk, idx_t row, uint32_t id) {
  for (idx_t c = 0; c < rows_.size(); c++) {
    Vector& store = *rows_[c];
    if (id >= store.Capacity()) store.Resize(store.Capacity() * 2);
    const Vector& input = chunk.data[c];
    if (store.GetType().id() == TypeId::VARCHAR) {
      // Copy the bytes: referencing the input's heap would pin every input chunk.
      bool valid = input.IsValid(row);
      store.SetValid(id, valid);
      if (valid) store.GetData<string_t>()[id] = store.AddString(input.GetData<string_t>()[row]);
    } else {
      store.Copy(input, nullptr, 1, row, id);
    }
  }
}

void PhysicalSetOperation::FindRows(const DataChunk& chunk, bool insert, uint32_t* ids) {
  idx_t count = chunk.size();
  uint64_t* hashes = hashes_.data();
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) HashVector(chunk.data[c], count, hashes, c > 0);
  for (idx_t i = 0; i < count; i++) {
    uint64_t h = hashes[i];
    uint64_t pos = h & mask_;
    while (true) {
      uint32_t entry = slots_[pos];
      if (entry == 0) {
        if (!insert) {
          ids[i] = kNotFound;
          break;
        }
        if (row_count_ >= kNotFound - 1) {
          throw InvalidInputError(Name() + ": the left query has more than 4 billion distinct rows; filter it first");
        }
        auto id = static_cast<uint32_t>(row_count_++);
        StoreRow(chunk, i, id);
        left_counts_.push_back(0);
        right_counts_.push_back(0);
        slots_[pos] = id + 1;
        slot_hashes_[pos] = h;
        ids[i] = id;
        if (row_count_ * 2 > slots_.size()) Grow();
        break;
      }
      if (slot_hashes_[pos] == h) {
        uint32_t id = entry - 1;
        bool equal = true;
        for (idx_t c = 0; c < rows_.size() && equal; c++) equal = equal_[c](chunk.data[c], i, *rows_[c], id);
        if (equal) {
          ids[i] = id;
          break;
        }
      }
      pos = (pos + 1) & mask_;
    }
  }
}

void PhysicalSetOperation::Consume(ExecutionContext& context) {
  std::vector<uint32_t> ids(STANDARD_VECTOR_SIZE);
  DataChunk input;
  children[0]->InitializeChunk(input);
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    FindRows(input, true, ids.data());
    for (idx_t i = 0; i < input.size(); i++) left_counts_[ids[i]]++;
  }
  // With no left rows nothing can survive: the right side need not be read.
  if (row_count_ == 0) return;
  DataChunk right;
  children[1]->InitializeChunk(right);
  while (children[1]->Next(context, right)) {
    context.CheckInterrupt();
    if (right.size() == 0) continue;
    FindRows(right, false, ids.data());
    for (idx_t i = 0; i < right.size(); i++) {
      if (ids[i] != kNotFound) right_counts_[ids[i]]++;
    }
  }
}

uint64_t PhysicalSetOperation::CopiesOf(idx_t id) const {
  uint64_t m = left_counts_[id];
  uint64_t n = right_counts_[id];
  if (operation_ == LogicalSetOperation::EXCEPT) {
    if (!all_) return n == 0 ? 1 : 0;
    return m > n ? m - n : 0;
  }
  if (!all_) return n > 0 ? 1 : 0;
  return std::min(m, n);
}

bool PhysicalSetOperation::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!consumed_) {
    Consume(context);
    consumed_ = true;
  }
  context.CheckInterrupt();
  sel_t* sel = sel_.data();
  idx_t n = 0;
  while (n < STANDARD_VECTOR_SIZE && next_row_ < row_count_) {
    uint64_t copies = CopiesOf(next_row_);
    while (emitted_copies_ < copies && n < STANDARD_VECTOR_SIZE) {
      sel[n++] = static_cast<sel_t>(next_row_);
      emitted_copies_++;
    }
    if (emitted_copies_ >= copies) {
      next_row_++;
      emitted_copies_ = 0;
    }
  }
  if (n == 0) return false;
  out.Reset();
  for (idx_t c = 0; c < rows_.size(); c++) out.data[c].Copy(*rows_[c], sel, n, 0, 0);
  out.SetCardinality(n);
  return true;
}

}  // namespace lakestream
