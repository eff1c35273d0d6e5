#include "execution/operator/physical_hash_aggregate.hpp"

#include <algorithm>

#include "execution/operator/physical_table_scan.hpp"

namespace lakestream {

static std::vector<LogicalType> AggregateOutputTypes(const std::vector<BoundExprPtr>& groups,
                                                     const std::vector<BoundAggregate>& aggregates) {
  std::vector<LogicalType> types;
  types.reserve(groups.size() + aggregates.size());
  for (auto& g : groups) types.push_back(g->return_type);
  for (auto& a : aggregates) types.push_back(a.signature.return_type);
  return types;
}

PhysicalHashAggregate::PhysicalHashAggregate(PhysicalOperatorPtr child, std::vector<BoundExprPtr> groups,
                                             std::vector<BoundAggregate> aggregates)
    : PhysicalOperator(AggregateOutputTypes(groups, aggregates)),
      groups_(std::move(groups)),
      aggregates_(std::move(aggregates)) {
  children.push_back(std::move(child));
  for (auto& a : aggregates_) states_.push_back(CreateAggregateState(a.signature));
  for (auto& g : groups_) {
    key_equal_.push_back(GetRowEqualFunction(g->return_type));
    group_keys_.push_back(std::make_unique<Vector>(g->return_type, 1024));
  }
  slots_.assign(1024, 0);
  slot_hashes_.assign(1024, 0);
  mask_ = 1023;
  if (groups_.empty()) {
    group_count_ = 1;
    for (auto& s : states_) s->Resize(1);
  }
}

std::string PhysicalHashAggregate::Details() const {
  std::string d;
  for (auto& g : groups_) d += (d.empty() ? "" : ", ") + g->ToString();
  for (auto& a : aggregates_) {
    d += (d.empty() ? "" : ", ") + a.signature.name + "(" + (a.signature.distinct ? "DISTINCT " : "") +
         (a.argument ? a.argument->ToString() : "*") + ")";
  }
  if (count_from_table_) d += " [row count from table metadata]";
  return d;
}

bool PhysicalHashAggregate::CanCountFromTable(const std::vector<BoundExprPtr>& groups,
                                              const std::vector<BoundAggregate>& aggregates,
                                              const PhysicalOperator& child) {
  if (!groups.empty() || aggregates.empty()) return false;
  for (auto& a : aggregates) {
    if (a.signature.kind != AggregateKind::COUNT_STAR) return false;
  }
  auto* scan = dynamic_cast<const PhysicalTableScan*>(&child);
  return scan && scan->CountsWithoutReading();
}

void PhysicalHashAggregate::Grow() {
  idx_t capacity = slots_.size() * 2;
  std::vector<uint32_t> slots(capacity, 0);
  std::vector<uint64_t> hashes(capacity, 0);
  uint64_t mask = capacity - 1;
  for (idx_t s = 0; s < slots_.size(); s++) {
    if (!slots_[s]) continue;
    uint64_t pos = slot_hashes_[s] & mask;
    while (slots[pos]) pos = (pos + 1) & mask;
    slots[pos] = slots_[s];
    hashes[pos] = slot_hashes_[s];
  }
  slots_ = std::move(slots);
  slot_hashes_ = std::move(hashes);
  mask_ = mask;
}

void PhysicalHashAggregate::FindGroups(DataChunk& keys, idx_t count, uint32_t* group_ids) {
  std::vector<uint64_t> hashes(count);
  for (idx_t c = 0; c < keys.ColumnCount(); c++) HashVector(keys.data[c], count, hashes.data(), c > 0);
  idx_t key_count = keys.ColumnCount();
  for (idx_t i = 0; i < count; i++) {
    uint64_t h = hashes[i];
    uint64_t pos = h & mask_;
    while (true) {
      uint32_t entry = slots_[pos];
      if (entry == 0) {
        // A new group: store its keys and give it the next id.
        uint32_t gid = static_cast<uint32_t>(group_count_++);
        for (idx_t c = 0; c < key_count; c++) {
          if (gid >= group_keys_[c]->Capacity()) group_keys_[c]->Resize(group_keys_[c]->Capacity() * 2);
          Vector& store = *group_keys_[c];
          if (store.GetType().id() == TypeId::VARCHAR) {
            // Copy the bytes: referencing the input's heap would pin every input chunk.
            bool valid = keys.data[c].IsValid(i);
            store.SetValid(gid, valid);
            if (valid) store.GetData<string_t>()[gid] = store.AddString(keys.data[c].GetData<string_t>()[i]);
          } else {
            store.Copy(keys.data[c], nullptr, 1, i, gid);
          }
        }
        slots_[pos] = gid + 1;
        slot_hashes_[pos] = h;
        group_ids[i] = gid;
        if (group_count_ * 2 > slots_.size()) Grow();
        break;
      }
      if (slot_hashes_[pos] == h) {
        uint32_t gid = entry - 1;
        bool equal = true;
        for (idx_t c = 0; c < key_count && equal; c++) equal = key_equal_[c](keys.data[c], i, *group_keys_[c], gid);
        if (equal) {
          group_ids[i] = gid;
          break;
        }
      }
      pos = (pos + 1) & mask_;
    }
  }
}

void PhysicalHashAggregate::Consume(ExecutionContext& context) {
  ExpressionExecutor executor(context.function_context);
  DataChunk input;
  children[0]->InitializeChunk(input);
  DataChunk keys;
  std::vector<LogicalType> key_types;
  for (auto& g : groups_) key_types.push_back(g->return_type);
  keys.Initialize(key_types);
  std::vector<std::unique_ptr<Vector>> arguments;
  for (auto& a : aggregates_) {
    arguments.push_back(a.argument ? std::make_unique<Vector>(a.argument->return_type) : nullptr);
  }
  std::vector<uint32_t> group_ids(STANDARD_VECTOR_SIZE, 0);
  if (count_from_table_) {
    idx_t rows = static_cast<PhysicalTableScan&>(*children[0]).RowCount();
    for (auto& s : states_) s->UpdateSingle(nullptr, nullptr, rows);
    return;
  }
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    idx_t count = input.size();
    if (count == 0) continue;
    if (!groups_.empty()) {
      keys.Reset();
      for (idx_t c = 0; c < groups_.size(); c++) executor.Execute(*groups_[c], input, keys.data[c]);
      keys.SetCardinality(count);
      FindGroups(keys, count, group_ids.data());
      for (auto& s : states_) s->Resize(group_count_);
    }
    for (idx_t a = 0; a < aggregates_.size(); a++) {
      Vector* arg = arguments[a].get();
      if (arg) {
        // A bare column reference needs no copy.
        auto& expr = *aggregates_[a].argument;
        if (expr.type == BoundExpressionType::COLUMN_REF) arg = &input.data[expr.column_index];
        else executor.Execute(expr, input, *arg);
      }
      if (groups_.empty()) states_[a]->UpdateSingle(arg, group_ids.data(), count);
      else states_[a]->Update(arg, group_ids.data(), count);
    }
  }
}

bool PhysicalHashAggregate::Next(ExecutionContext& context, DataChunk& out) {
  if (!consumed_) {
    Consume(context);
    consumed_ = true;
  }
  if (emitted_ >= group_count_) return false;
  idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, group_count_ - emitted_);
  out.Reset();
  for (idx_t c = 0; c < groups_.size(); c++) out.data[c].Copy(*group_keys_[c], nullptr, n, emitted_, 0);
  for (idx_t a = 0; a < aggregates_.size(); a++) states_[a]->Finalize(emitted_, n, out.data[groups_.size() + a]);
  out.SetCardinality(n);
  emitted_ += n;
  return true;
}

}  // namespace lakestream
