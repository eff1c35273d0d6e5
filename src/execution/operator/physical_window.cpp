#include "execution/operator/physical_window.hpp"

#include <cstring>
#include <map>
#include <memory>

#include "execution/parallel/numbered_morsels.hpp"
#include "execution/parallel/parallel_planning.hpp"
#include "execution/parallel/pipeline_workers.hpp"
#include "execution/parallel/window_partitions.hpp"
#include "function/window/window_executor.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

// Fewer rows are evaluated whole, on one thread: splitting them costs more
// than it saves.
static constexpr idx_t kSplitRows = 16384;

static std::vector<LogicalType> OutputTypes(const PhysicalOperator& child, const std::vector<BoundWindow>& windows) {
  std::vector<LogicalType> types = child.types;
  for (auto& w : windows) types.push_back(w.return_type);
  return types;
}

PhysicalWindow::PhysicalWindow(PhysicalOperatorPtr child, std::vector<BoundExprPtr> inputs, std::vector<BoundWindow> windows)
    : PhysicalOperator(OutputTypes(*child, windows)), input_expressions_(std::move(inputs)), windows_(std::move(windows)) {
  children.push_back(std::move(child));
}

std::string PhysicalWindow::Details() const {
  std::string d;
  for (auto& w : windows_) d += (d.empty() ? "" : ", ") + w.name;
  if (input_threads_ > 1) d += " [" + std::to_string(input_threads_) + " threads]";
  if (partition_threads_ > 1) d += " [partitions on " + std::to_string(partition_threads_) + " threads]";
  return d;
}

// dst[offset, offset + n) = src[0, n) for a dst with room for them.
static void CopyRows(const Vector& src, idx_t n, Vector& dst, idx_t offset) {
  idx_t width = src.GetType().PhysicalSize();
  if (src.GetType().IsNested() || width == 0) {
    dst.Copy(src, nullptr, n, 0, offset);
    return;
  }
  // Results gathered from dst (lag, first_value, min, ...) may outlive the operator.
  if (src.GetType().id() == TypeId::VARCHAR) dst.AddHeapReference(src);
  std::memcpy(dst.GetData<uint8_t>() + offset * width, src.GetData<uint8_t>(), n * width);
  std::memcpy(dst.Validity() + offset, src.Validity(), n);
}

// Appends `chunk` to `rows`, taking the chunk over when the layout allows
// (no copy), and leaves `chunk` ready for the next batch.
static void Keep(ChunkCollection& rows, DataChunk& chunk, const std::vector<LogicalType>& types) {
  if (rows.Append(std::move(chunk))) {
    chunk = DataChunk();
    chunk.Initialize(types);
  }
}

void PhysicalWindow::SetWorkers(std::vector<std::unique_ptr<PhysicalWindow>> workers,
                                std::vector<std::shared_ptr<NumberedMorsels>> morsels) {
  workers_ = std::move(workers);
  input_threads_ = workers_.size() + 1;
  morsels_ = morsels[0];
  for (idx_t w = 0; w < workers_.size(); w++) workers_[w]->morsels_ = morsels[w + 1];
}

void PhysicalWindow::Collect(ExecutionContext& context) {
  ExpressionExecutor& executor = Executor(context);
  rows_.SetTypes(children[0]->types);
  // Inputs that are columns of the child are read from rows_ itself; the
  // others are evaluated chunk by chunk into evaluated_.
  std::vector<idx_t> computed;
  std::vector<LogicalType> computed_types;
  for (idx_t k = 0; k < input_expressions_.size(); k++) {
    if (input_expressions_[k]->type == BoundExpressionType::COLUMN_REF) continue;
    computed.push_back(k);
    computed_types.push_back(input_expressions_[k]->return_type);
  }
  evaluated_.SetTypes(computed_types);
  DataChunk input, evaluated;
  children[0]->InitializeChunk(input);
  evaluated.Initialize(computed_types);
  ChunkCollection* rows = &rows_;
  ChunkCollection* evaluated_rows = &evaluated_;
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    // A parallel copy: read after the chunk, the chain emitting rows of the
    // morsel its scan read last.
    if (morsels_ && (segments_.empty() || segments_.back().morsel != morsels_->Current())) {
      segments_.push_back(Segment{morsels_->Current(), ChunkCollection(children[0]->types), ChunkCollection(computed_types)});
      rows = &segments_.back().rows;
      evaluated_rows = &segments_.back().evaluated;
    }
    if (!computed.empty()) {
      evaluated.Reset();
      for (idx_t j = 0; j < computed.size(); j++) executor.Execute(*input_expressions_[computed[j]], input, evaluated.data[j]);
      evaluated.SetCardinality(input.size());
      Keep(*evaluated_rows, evaluated, computed_types);
    }
    Keep(*rows, input, children[0]->types);
  }
}

void PhysicalWindow::CollectParallel(ExecutionContext& context) {
  RunPipelineWorkers(
      context, *this, workers_.size() + 1,
      [this](idx_t worker, ExecutionContext& local) { (worker == 0 ? this : workers_[worker - 1].get())->Collect(local); },
      [this] { morsels_->CancelAll(); });
  // Each morsel was read by one copy: its segment. In morsel order, the
  // rows are in the order one thread reads them.
  std::vector<Segment*> order;
  for (idx_t c = 0; c <= workers_.size(); c++) {
    for (Segment& segment : (c == 0 ? this : workers_[c - 1].get())->segments_) order.push_back(&segment);
  }
  std::stable_sort(order.begin(), order.end(), [](const Segment* a, const Segment* b) { return a->morsel < b->morsel; });
  for (Segment* segment : order) {
    context.CheckInterrupt();
    rows_.Merge(std::move(segment->rows));
    evaluated_.Merge(std::move(segment->evaluated));
  }
  segments_.clear();
  workers_.clear();
}

void PhysicalWindow::Materialize(ExecutionContext& context) {
  if (workers_.empty()) {
    Collect(context);
  } else {
    CollectParallel(context);
  }
  // One vector per input over every row, copied once at its final size
  // (growing it as rows arrive would copy and fault in every byte several
  // times).
  idx_t count = rows_.Count();
  idx_t next_computed = 0;
  for (idx_t k = 0; k < input_expressions_.size(); k++) {
    const BoundExpression& e = *input_expressions_[k];
    bool is_column = e.type == BoundExpressionType::COLUMN_REF;
    const ChunkCollection& source = is_column ? rows_ : evaluated_;
    idx_t column = is_column ? e.column_index : next_computed++;
    inputs_.emplace_back(e.return_type, std::max<idx_t>(count, 1));
    idx_t offset = 0;
    for (idx_t c = 0; c < source.ChunkCount(); c++) {
      const Vector& from = source.Chunk(c).data[column];
      idx_t n = source.Chunk(c).size();
      CopyRows(from, n, inputs_[k], offset);
      offset += n;
    }
  }
}

void PhysicalWindow::Evaluate(ExecutionContext& context) {
  idx_t count = rows_.Count();
  idx_t threads = context.client ? ThreadCount(*context.client) : 1;
  if (threads > 1 && count >= kSplitRows && WindowsSplittable(windows_)) {
    for (auto& w : windows_) results_.emplace_back(w.return_type, std::max<idx_t>(count, 1));
    EvaluateWindowsSplit(context, windows_, inputs_, count, results_, threads);
    partition_threads_ = threads;
    return;
  }
  auto check = [&context] { context.CheckInterrupt(); };
  // Windows with the same PARTITION BY and ORDER BY share one sort.
  std::map<std::string, std::unique_ptr<WindowSort>> sorts;
  for (auto& w : windows_) {
    auto& sort = sorts[WindowSortKey(w)];
    if (!sort) sort = std::make_unique<WindowSort>(inputs_, count, w);
    context.CheckInterrupt();
    results_.emplace_back(w.return_type, std::max<idx_t>(count, 1));
    EvaluateWindow(w, inputs_, *sort, results_.back(), check);
  }
}

bool PhysicalWindow::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!done_) {
    Materialize(context);
    Evaluate(context);
    done_ = true;
  }
  if (next_chunk_ >= rows_.ChunkCount()) return false;
  const DataChunk& chunk = rows_.Chunk(next_chunk_);
  idx_t first = next_chunk_ * STANDARD_VECTOR_SIZE;
  out.Reset();
  idx_t n = chunk.size();
  idx_t columns = chunk.ColumnCount();
  for (idx_t c = 0; c < columns; c++) out.data[c].Copy(chunk.data[c], nullptr, n, 0, 0);
  for (idx_t w = 0; w < results_.size(); w++) out.data[columns + w].Copy(results_[w], nullptr, n, first, 0);
  out.SetCardinality(n);
  next_chunk_++;
  return true;
}

}  // namespace lakestream
