#include "execution/operator/physical_order.hpp"

#include <algorithm>

#include "common/collection_gather.hpp"
#include "common/vector_operations.hpp"
#include "execution/operator/sort_packed_keys.hpp"
#include "execution/parallel/numbered_morsels.hpp"
#include "execution/parallel/pipeline_workers.hpp"

namespace lakestream {

PhysicalOrder::PhysicalOrder(PhysicalOperatorPtr child, std::vector<BoundOrder> orders, idx_t top_n)
    : PhysicalOperator(child->types), orders_(std::move(orders)), top_n_(top_n) {
  children.push_back(std::move(child));
}

PhysicalOrder::~PhysicalOrder() = default;

std::string PhysicalOrder::Details() const {
  std::string d;
  for (auto& o : orders_) d += (d.empty() ? "" : ", ") + o.expression->ToString() + (o.descending ? " DESC" : " ASC");
  if (top_n_ > 0) d += " [top " + std::to_string(top_n_) + "]";
  if (threads_ > 1) d += " [" + std::to_string(threads_) + " threads]";
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
  row_gather_.reset();
  key_gather_.reset();
  if (!SortPackedKeys(keys_, orders_, permutation_)) {
    permutation_.resize(rows_.Count());
    for (idx_t i = 0; i < permutation_.size(); i++) permutation_[i] = i;
    auto less = [&](uint64_t a, uint64_t b) {
      return KeyLess(keys_.Chunk(a / STANDARD_VECTOR_SIZE), a % STANDARD_VECTOR_SIZE, 0,
                     keys_.Chunk(b / STANDARD_VECTOR_SIZE), b % STANDARD_VECTOR_SIZE, 0);
    };
    std::stable_sort(permutation_.begin(), permutation_.end(), less);
  }
  row_gather_ = std::make_unique<CollectionGather>(rows_);
  key_gather_ = std::make_unique<CollectionGather>(keys_);
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
    // The strings are copied: the kept rows must not hold every cut chunk's heap.
    for (idx_t c = 0; c < r.ColumnCount(); c++) row_gather_->Gather(c, &permutation_[start], n, r.data[c], 0, true);
    for (idx_t c = 0; c < k.ColumnCount(); c++) key_gather_->Gather(c, &permutation_[start], n, k.data[c], 0, true);
    r.SetCardinality(n);
    k.SetCardinality(n);
    rows.Append(r);
    keys.Append(k);
  }
  row_gather_.reset();
  key_gather_.reset();
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

std::vector<LogicalType> PhysicalOrder::RunTypes() const {
  std::vector<LogicalType> run_types = types;
  for (auto& t : keys_.Types()) run_types.push_back(t);
  return run_types;
}

void PhysicalOrder::GatherSorted(idx_t start, idx_t n, DataChunk& chunk) const {
  chunk.Reset();
  const idx_t width = types.size();
  const idx_t key_count = keys_.Types().size();
  for (idx_t c = 0; c < width; c++) row_gather_->Gather(c, &permutation_[start], n, chunk.data[c]);
  for (idx_t c = 0; c < key_count; c++) key_gather_->Gather(c, &permutation_[start], n, chunk.data[width + c]);
  chunk.SetCardinality(n);
}

void PhysicalOrder::SpillRun(ExecutionContext& context) {
  SortInMemory();
  auto run = std::make_unique<SpillFile>(context.spill, RunTypes(), "order-by-run");
  DataChunk chunk;
  chunk.Initialize(RunTypes());
  for (idx_t start = 0; start < permutation_.size(); start += STANDARD_VECTOR_SIZE) {
    context.CheckInterrupt();
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, permutation_.size() - start);
    GatherSorted(start, n, chunk);
    run->Append(chunk, nullptr, n);
  }
  runs_.push_back(std::move(run));
  spilled_runs_++;
  row_gather_.reset();
  key_gather_.reset();
  rows_.Clear();
  keys_.Clear();
  permutation_.clear();
  reservation_.Reset();
}

void PhysicalOrder::Collect(ExecutionContext& context) {
  ExpressionExecutor executor(context.function_context);
  std::vector<LogicalType> key_types;
  for (auto& o : orders_) key_types.push_back(o.expression->return_type);
  for (auto& t : key_types) compare_.push_back(GetRowCompareFunction(t));
  if (morsels_) key_types.emplace_back(TypeId::BIGINT);  // the morsel number (parallel)
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
    if (morsels_) {
      // Read after the chunk: the chain emits rows of the morsel its scan read last.
      auto* number = keys.data[orders_.size()].GetData<int64_t>();
      std::fill_n(number, input.size(), static_cast<int64_t>(morsels_->Current()));
    }
    keys.SetCardinality(input.size());
    // Per row also its permutation entry and, while sorting, its packed key (up to 16 bytes).
    uint64_t bytes = ChunkBytes(input) + ChunkBytes(keys) + input.size() * (sizeof(uint64_t) + 16);
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
}

void PhysicalOrder::FinishRuns(ExecutionContext& context) {
  if (runs_.empty()) {
    SortInMemory();
    return;
  }
  if (rows_.Count() > 0) SpillRun(context);
}

idx_t PhysicalOrder::SortedRows() const {
  return top_n_ > 0 ? std::min<idx_t>(top_n_, permutation_.size()) : permutation_.size();
}

void PhysicalOrder::Sort(ExecutionContext& context) {
  Collect(context);
  FinishRuns(context);
  if (runs_.empty()) return;
  for (auto& run : runs_) {
    cursors_.emplace_back();
    cursors_.back().file = std::move(run);
  }
  runs_.clear();
  StartMerge();
}

void PhysicalOrder::SetWorkers(std::vector<std::unique_ptr<PhysicalOrder>> workers,
                               std::vector<std::shared_ptr<NumberedMorsels>> morsels) {
  workers_ = std::move(workers);
  threads_ = workers_.size() + 1;
  morsels_ = morsels[0];
  for (idx_t w = 0; w < workers_.size(); w++) workers_[w]->morsels_ = morsels[w + 1];
}

void PhysicalOrder::SortParallel(ExecutionContext& context) {
  RunPipelineWorkers(
      context, *this, workers_.size() + 1,
      [this](idx_t worker, ExecutionContext& local) {
        PhysicalOrder* copy = worker == 0 ? this : workers_[worker - 1].get();
        copy->Collect(local);
        copy->FinishRuns(local);
      },
      [this] { morsels_->CancelAll(); });
  // Runs in copy order, each copy's runs in the order it wrote them: the
  // merge's last tie-break (after the morsel number) is this order.
  for (idx_t c = 0; c <= workers_.size(); c++) {
    PhysicalOrder* copy = c == 0 ? this : workers_[c - 1].get();
    if (c > 0) spilled_runs_ += copy->spilled_runs_;
    for (auto& run : copy->runs_) {
      cursors_.emplace_back();
      cursors_.back().file = std::move(run);
    }
    copy->runs_.clear();
    if (copy->SortedRows() > 0) {
      cursors_.emplace_back();
      cursors_.back().owner = copy;
    }
  }
  StartMerge();
}

bool PhysicalOrder::ReadRun(RunCursor& cursor) const {
  if (cursor.file) {
    if (cursor.file->Read(cursor.chunk)) return true;
    cursor.file.reset();  // read: delete it now
    return false;
  }
  idx_t end = cursor.owner->SortedRows();
  if (cursor.next >= end) return false;
  idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, end - cursor.next);
  cursor.owner->GatherSorted(cursor.next, n, cursor.chunk);
  cursor.next += n;
  return true;
}

bool PhysicalOrder::RunAfter(idx_t a, idx_t b) const {
  const RunCursor& x = cursors_[a];
  const RunCursor& y = cursors_[b];
  idx_t width = types.size();
  if (KeyLess(y.chunk, y.row, width, x.chunk, x.row, width)) return true;
  if (KeyLess(x.chunk, x.row, width, y.chunk, y.row, width)) return false;
  if (morsels_) {
    // Parallel: equal keys in the order of the morsels they came from.
    auto mx = static_cast<uint64_t>(x.chunk.data[width + orders_.size()].GetData<int64_t>()[x.row]);
    auto my = static_cast<uint64_t>(y.chunk.data[width + orders_.size()].GetData<int64_t>()[y.row]);
    if (mx != my) return mx > my;
  }
  return a > b;  // equal keys: the earlier run's row first (stable)
}

void PhysicalOrder::StartMerge() {
  merging_ = true;
  for (idx_t r = 0; r < cursors_.size(); r++) {
    cursors_[r].chunk.Initialize(RunTypes());
    if (ReadRun(cursors_[r])) heap_.push_back(r);
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
      if (!ReadRun(cursor)) {
        heap_.pop_back();
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
    if (workers_.empty()) {
      Sort(context);
    } else {
      SortParallel(context);
    }
    sorted_ = true;
  }
  if (merging_) return MergeNext(context, out);
  if (position_ >= permutation_.size()) return false;
  idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, permutation_.size() - position_);
  out.Reset();
  for (idx_t c = 0; c < out.ColumnCount(); c++) row_gather_->Gather(c, &permutation_[position_], n, out.data[c]);
  out.SetCardinality(n);
  position_ += n;
  return true;
}

}  // namespace lakestream
