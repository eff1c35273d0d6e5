#include "execution/operator/physical_order.hpp"

#include <algorithm>

#include "common/vector_operations.hpp"

namespace lakestream {

PhysicalOrder::PhysicalOrder(PhysicalOperatorPtr child, std::vector<BoundOrder> orders, idx_t top_n)
    : PhysicalOperator(child->types), orders_(std::move(orders)), top_n_(top_n) {
  children.push_back(std::move(child));
}

std::string PhysicalOrder::Details() const {
  std::string d;
  for (auto& o : orders_) d += (d.empty() ? "" : ", ") + o.expression->ToString() + (o.descending ? " DESC" : " ASC");
  if (top_n_ > 0) d += " [top " + std::to_string(top_n_) + "]";
  if (spilled_runs_ > 0) d += " [merged " + std::to_string(spilled_runs_) + " sorted runs from disk]";
  return d;
}

bool PhysicalOrder::KeyLess(const DataChunk& a, idx_t ra, idx_t ka, const DataChunk& b, idx_t rb, idx_t kb) const {
  for (idx_t k = 0; k < orders_.size(); k++) {
    const Vector& x = a.data[ka + k];
    const Vector& y = b.data[kb + k];
    bool va = x.IsValid(ra), vb = y.IsValid(rb);
    if (!va || !vb) {
      if (va == vb) continue;
      // NULL placement is independent of ASC/DESC.
      return orders_[k].nulls_first ? !va : va;
    }
    int c = compare_[k](x, ra, y, rb);
    if (c != 0) return orders_[k].descending ? c > 0 : c < 0;
  }
  return false;
}

void PhysicalOrder::SortInMemory() {
  permutation_.resize(rows_.Count());
  for (idx_t i = 0; i < permutation_.size(); i++) permutation_[i] = i;
  auto less = [&](uint64_t a, uint64_t b) {
    return KeyLess(keys_.Chunk(a / STANDARD_VECTOR_SIZE), a % STANDARD_VECTOR_SIZE, 0,
                   keys_.Chunk(b / STANDARD_VECTOR_SIZE), b % STANDARD_VECTOR_SIZE, 0);
  };
  std::stable_sort(permutation_.begin(), permutation_.end(), less);
}

void PhysicalOrder::CutToTopN() {
  SortInMemory();
  ChunkCollection rows(types), keys(keys_.Types());
  DataChunk r, k;
  r.Initialize(types);
  k.Initialize(keys_.Types());
  const idx_t keep = std::min<idx_t>(top_n_, permutation_.size());
  for (idx_t start = 0; start < keep; start += STANDARD_VECTOR_SIZE) {
    const idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, keep - start);
    r.Reset();
    k.Reset();
    for (idx_t i = 0; i < n; i++) {
      const uint64_t row = permutation_[start + i];
      const DataChunk& rc = rows_.Chunk(row / STANDARD_VECTOR_SIZE);
      const DataChunk& kc = keys_.Chunk(row / STANDARD_VECTOR_SIZE);
      for (idx_t c = 0; c < r.ColumnCount(); c++) r.data[c].Copy(rc.data[c], nullptr, 1, row % STANDARD_VECTOR_SIZE, i);
      for (idx_t c = 0; c < k.ColumnCount(); c++) k.data[c].Copy(kc.data[c], nullptr, 1, row % STANDARD_VECTOR_SIZE, i);
    }
    r.SetCardinality(n);
    k.SetCardinality(n);
    rows.Append(r);
    keys.Append(k);
  }
  rows_ = std::move(rows);
  keys_ = std::move(keys);
  permutation_.clear();
  if (keep < top_n_) return;
  const idx_t last = keep - 1;
  boundary_.Reset();
  const DataChunk& kc = keys_.Chunk(last / STANDARD_VECTOR_SIZE);
  for (idx_t c = 0; c < boundary_.ColumnCount(); c++) boundary_.data[c].Copy(kc.data[c], nullptr, 1, last % STANDARD_VECTOR_SIZE, 0);
  boundary_.SetCardinality(1);
  has_boundary_ = true;
}

void PhysicalOrder::AppendBeforeBoundary(const DataChunk& input, const DataChunk& keys) {
  if (!has_boundary_) {
    rows_.Append(input);
    keys_.Append(keys);
    return;
  }
  sel_.clear();
  for (idx_t i = 0; i < input.size(); i++) {
    if (KeyLess(keys, i, 0, boundary_, 0, 0)) sel_.push_back(static_cast<sel_t>(i));
  }
  if (sel_.empty()) return;
  picked_rows_.Reset();
  picked_keys_.Reset();
  for (idx_t c = 0; c < input.ColumnCount(); c++) picked_rows_.data[c].Copy(input.data[c], sel_.data(), sel_.size(), 0, 0);
  for (idx_t c = 0; c < keys.ColumnCount(); c++) picked_keys_.data[c].Copy(keys.data[c], sel_.data(), sel_.size(), 0, 0);
  picked_rows_.SetCardinality(sel_.size());
  picked_keys_.SetCardinality(sel_.size());
  rows_.Append(picked_rows_);
  keys_.Append(picked_keys_);
}

void PhysicalOrder::SpillRun(ExecutionContext& context) {
  SortInMemory();
  std::vector<LogicalType> run_types = types;
  for (auto& t : keys_.Types()) run_types.push_back(t);
  auto run = std::make_unique<SpillFile>(context.spill, run_types, "order-by-run");
  DataChunk chunk;
  chunk.Initialize(run_types);
  idx_t width = types.size();
  for (idx_t start = 0; start < permutation_.size(); start += STANDARD_VECTOR_SIZE) {
    context.CheckInterrupt();
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, permutation_.size() - start);
    chunk.Reset();
    for (idx_t i = 0; i < n; i++) {
      uint64_t row = permutation_[start + i];
      const DataChunk& r = rows_.Chunk(row / STANDARD_VECTOR_SIZE);
      const DataChunk& k = keys_.Chunk(row / STANDARD_VECTOR_SIZE);
      for (idx_t c = 0; c < width; c++) chunk.data[c].Copy(r.data[c], nullptr, 1, row % STANDARD_VECTOR_SIZE, i);
      for (idx_t c = 0; c < orders_.size(); c++) {
        chunk.data[width + c].Copy(k.data[c], nullptr, 1, row % STANDARD_VECTOR_SIZE, i);
      }
    }
    chunk.SetCardinality(n);
    run->Append(chunk, nullptr, n);
  }
  runs_.push_back(std::move(run));
  spilled_runs_++;
  rows_.Clear();
  keys_.Clear();
  permutation_.clear();
  reservation_.Reset();
}

void PhysicalOrder::Sort(ExecutionContext& context) {
  ExpressionExecutor executor(context.function_context);
  std::vector<LogicalType> key_types;
  for (auto& o : orders_) key_types.push_back(o.expression->return_type);
  for (auto& t : key_types) compare_.push_back(GetRowCompareFunction(t));
  rows_.SetTypes(types);
  keys_.SetTypes(key_types);
  if (context.memory) reservation_.Attach(context.memory);
  bool can_spill = context.spill && CanSpill(types) && CanSpill(key_types);
  DataChunk input, keys;
  children[0]->InitializeChunk(input);
  keys.Initialize(key_types);
  if (top_n_ > 0) {
    boundary_.Initialize(key_types);
    picked_rows_.Initialize(types);
    picked_keys_.Initialize(key_types);
  }
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    keys.Reset();
    for (idx_t k = 0; k < orders_.size(); k++) executor.Execute(*orders_[k].expression, input, keys.data[k]);
    keys.SetCardinality(input.size());
    uint64_t bytes = ChunkBytes(input) + ChunkBytes(keys) + input.size() * sizeof(uint64_t);
    if (!reservation_.Grow(bytes)) {
      if (!can_spill) {
        ThrowOutOfMemory("ORDER_BY (" + std::to_string(rows_.Count()) + " rows so far)", bytes, context.memory.get(),
                         "not supported yet: spilling rows with STRUCT, LIST or MAP columns");
      }
      if (rows_.Count() > 0) SpillRun(context);
      if (!reservation_.Grow(bytes)) reservation_.ForceGrow(bytes);  // one chunk always fits
    }
    if (top_n_ == 0) {
      rows_.Append(input);
      keys_.Append(keys);
      continue;
    }
    AppendBeforeBoundary(input, keys);
    if (rows_.Count() >= 2 * top_n_ + STANDARD_VECTOR_SIZE) {
      CutToTopN();
      uint64_t kept = 0;
      for (idx_t c = 0; c < rows_.ChunkCount(); c++) kept += ChunkBytes(rows_.Chunk(c)) + ChunkBytes(keys_.Chunk(c));
      reservation_.Reset();
      reservation_.ForceGrow(kept);
    }
  }
  if (runs_.empty()) {
    SortInMemory();
    return;
  }
  if (rows_.Count() > 0) SpillRun(context);
  StartMerge();
}

bool PhysicalOrder::RunAfter(idx_t a, idx_t b) const {
  const RunCursor& x = cursors_[a];
  const RunCursor& y = cursors_[b];
  idx_t width = types.size();
  if (KeyLess(y.chunk, y.row, width, x.chunk, x.row, width)) return true;
  if (KeyLess(x.chunk, x.row, width, y.chunk, y.row, width)) return false;
  return a > b;  // equal keys: the earlier run's row first (stable)
}

void PhysicalOrder::StartMerge() {
  std::vector<LogicalType> run_types = types;
  for (auto& t : keys_.Types()) run_types.push_back(t);
  cursors_.resize(runs_.size());
  for (idx_t r = 0; r < runs_.size(); r++) {
    cursors_[r].chunk.Initialize(run_types);
    if (runs_[r]->Read(cursors_[r].chunk)) heap_.push_back(r);
  }
  std::make_heap(heap_.begin(), heap_.end(), [this](idx_t a, idx_t b) { return RunAfter(a, b); });
}

bool PhysicalOrder::MergeNext(ExecutionContext& context, DataChunk& out) {
  context.CheckInterrupt();
  out.Reset();
  idx_t width = types.size();
  idx_t n = 0;
  auto after = [this](idx_t a, idx_t b) { return RunAfter(a, b); };
  while (n < STANDARD_VECTOR_SIZE && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), after);
    idx_t r = heap_.back();
    RunCursor& cursor = cursors_[r];
    for (idx_t c = 0; c < width; c++) out.data[c].Copy(cursor.chunk.data[c], nullptr, 1, cursor.row, n);
    n++;
    if (++cursor.row >= cursor.chunk.size()) {
      cursor.row = 0;
      if (!runs_[r]->Read(cursor.chunk)) {
        heap_.pop_back();
        runs_[r].reset();  // read: delete it now
        continue;
      }
    }
    std::push_heap(heap_.begin(), heap_.end(), after);
  }
  out.SetCardinality(n);
  return n > 0;
}

bool PhysicalOrder::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!sorted_) {
    Sort(context);
    sorted_ = true;
  }
  if (!runs_.empty()) return MergeNext(context, out);
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
