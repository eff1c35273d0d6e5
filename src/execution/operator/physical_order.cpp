#include "execution/operator/physical_order.hpp"

#include <algorithm>

#include "common/vector_operations.hpp"

namespace lakestream {

PhysicalOrder::PhysicalOrder(PhysicalOperatorPtr child, std::vector<BoundOrder> orders)
    : PhysicalOperator(child->types), orders_(std::move(orders)) {
  children.push_back(std::move(child));
}

std::string PhysicalOrder::Details() const {
  std::string d;
  for (auto& o : orders_) d += (d.empty() ? "" : ", ") + o.expression->ToString() + (o.descending ? " DESC" : " ASC");
  return d;
}

void PhysicalOrder::Sort(ExecutionContext& context) {
  ExpressionExecutor executor(context.function_context);
  std::vector<LogicalType> key_types;
  for (auto& o : orders_) key_types.push_back(o.expression->return_type);
  rows_.SetTypes(types);
  keys_.SetTypes(key_types);
  DataChunk input, keys;
  children[0]->InitializeChunk(input);
  keys.Initialize(key_types);
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    keys.Reset();
    for (idx_t k = 0; k < orders_.size(); k++) executor.Execute(*orders_[k].expression, input, keys.data[k]);
    keys.SetCardinality(input.size());
    rows_.Append(input);
    keys_.Append(keys);
  }
  std::vector<row_compare_t> compare;
  compare.reserve(key_types.size());
  for (auto& t : key_types) compare.push_back(GetRowCompareFunction(t));
  permutation_.resize(rows_.Count());
  for (idx_t i = 0; i < permutation_.size(); i++) permutation_[i] = i;
  auto less = [&](uint64_t a, uint64_t b) {
    const DataChunk& ca = keys_.Chunk(a / STANDARD_VECTOR_SIZE);
    const DataChunk& cb = keys_.Chunk(b / STANDARD_VECTOR_SIZE);
    idx_t ra = a % STANDARD_VECTOR_SIZE, rb = b % STANDARD_VECTOR_SIZE;
    for (idx_t k = 0; k < orders_.size(); k++) {
      bool va = ca.data[k].IsValid(ra), vb = cb.data[k].IsValid(rb);
      if (!va || !vb) {
        if (va == vb) continue;
        // NULL placement is independent of ASC/DESC.
        return orders_[k].nulls_first ? !va : va;
      }
      int c = compare[k](ca.data[k], ra, cb.data[k], rb);
      if (c != 0) return orders_[k].descending ? c > 0 : c < 0;
    }
    return false;
  };
  std::stable_sort(permutation_.begin(), permutation_.end(), less);
}

bool PhysicalOrder::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!sorted_) {
    Sort(context);
    sorted_ = true;
  }
  if (position_ >= permutation_.size()) return false;
  idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, permutation_.size() - position_);
  out.Reset();
  for (idx_t i = 0; i < n; i++) {
    uint64_t row = permutation_[position_ + i];
    const DataChunk& chunk = rows_.Chunk(row / STANDARD_VECTOR_SIZE);
    for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(chunk.data[c], nullptr, 1, row % STANDARD_VECTOR_SIZE, i);
  }
  out.SetCardinality(n);
  position_ += n;
  return true;
}

}  // namespace lakestream
