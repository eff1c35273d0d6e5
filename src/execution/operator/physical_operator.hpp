// Physical operators: a pull-based tree. The consumer calls Next() with a
// chunk initialised to the operator's `types`; the operator fills it (up to
// STANDARD_VECTOR_SIZE rows) and returns true, or returns false when it is
// exhausted. A true return may carry 0 rows; consumers skip those.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/vector.hpp"
#include "expression/expression_executor.hpp"

namespace lakestream {

class ClientContext;

// Thrown by CheckInterrupt in a worker of a parallel pipeline once another
// worker has failed: the runner (execution/parallel/parallel_runner.hpp)
// swallows it and rethrows the first worker's own error.
struct WorkerCancelled {};

struct ExecutionContext {
  ClientContext* client = nullptr;
  FunctionContext function_context;
  // Set for the workers of a parallel pipeline: true once one of them failed.
  const std::atomic<bool>* cancelled = nullptr;
  // Throws InterruptError when the connection asked to stop
  // (ClientContext::Interrupt), WorkerCancelled when `cancelled` is set.
  // Loops that pull many chunks call it once a chunk.
  void CheckInterrupt() const;
};

class PhysicalOperator {
 public:
  explicit PhysicalOperator(std::vector<LogicalType> types_p) : types(std::move(types_p)) {}
  virtual ~PhysicalOperator() = default;

  virtual bool Next(ExecutionContext& context, DataChunk& out) = 0;
  virtual std::string Name() const = 0;
  // Extra detail for EXPLAIN (filters, keys, ...).
  virtual std::string Details() const { return ""; }
  // Indented tree, one operator per line.
  std::string ToString(int indent = 0) const;

  // Convenience for children: initialises a chunk of this operator's types.
  void InitializeChunk(DataChunk& chunk) const { chunk.Initialize(types); }

  std::vector<LogicalType> types;
  std::vector<std::unique_ptr<PhysicalOperator>> children;

 protected:
  // The operator's expression executor, created on first use and kept so its
  // scratch vectors are reused chunk after chunk.
  ExpressionExecutor& Executor(ExecutionContext& context) {
    if (!executor_) executor_ = std::make_unique<ExpressionExecutor>(context.function_context);
    return *executor_;
  }

 private:
  std::unique_ptr<ExpressionExecutor> executor_;
};

using PhysicalOperatorPtr = std::unique_ptr<PhysicalOperator>;

// Runs `op` to the end, appending every row to `sink`.
class ChunkCollection;
void DrainOperator(ExecutionContext& context, PhysicalOperator& op, ChunkCollection& sink);

}  // namespace lakestream
