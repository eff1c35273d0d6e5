#include "execution/operator/physical_window.hpp"

#include <map>
#include <memory>

#include "function/window/window_executor.hpp"

namespace lakestream {

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
  return d;
}

// Appends `chunk` to `rows`, taking the chunk over when the layout allows
// (no copy), and leaves `chunk` ready for the next batch.
static void Keep(ChunkCollection& rows, DataChunk& chunk, const std::vector<LogicalType>& types) {
  if (rows.Append(std::move(chunk))) {
    chunk = DataChunk();
    chunk.Initialize(types);
  }
}

void PhysicalWindow::Materialize(ExecutionContext& context) {
  ExpressionExecutor& executor = Executor(context);
  rows_.SetTypes(children[0]->types);
  std::vector<LogicalType> input_types;
  input_types.reserve(input_expressions_.size());
  for (auto& e : input_expressions_) input_types.push_back(e->return_type);
  // The inputs are kept chunk by chunk first and copied once into vectors of
  // the final size: growing them as rows arrive would copy (and fault in)
  // every byte several times.
  ChunkCollection evaluated_rows(input_types);
  DataChunk input, evaluated;
  children[0]->InitializeChunk(input);
  evaluated.Initialize(input_types);
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    evaluated.Reset();
    for (idx_t k = 0; k < input_expressions_.size(); k++) executor.Execute(*input_expressions_[k], input, evaluated.data[k]);
    evaluated.SetCardinality(input.size());
    Keep(evaluated_rows, evaluated, input_types);
    Keep(rows_, input, children[0]->types);
  }
  idx_t count = rows_.Count();
  for (idx_t k = 0; k < input_types.size(); k++) {
    inputs_.emplace_back(input_types[k], std::max<idx_t>(count, 1));
    idx_t offset = 0;
    for (idx_t c = 0; c < evaluated_rows.ChunkCount(); c++) {
      const DataChunk& chunk = evaluated_rows.Chunk(c);
      inputs_[k].Copy(chunk.data[k], nullptr, chunk.size(), 0, offset);
      offset += chunk.size();
    }
  }
}

void PhysicalWindow::Evaluate(ExecutionContext& context) {
  idx_t count = rows_.Count();
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

bool PhysicalWindow::Next(ExecutionContext& context, DataChunk& out) {
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
