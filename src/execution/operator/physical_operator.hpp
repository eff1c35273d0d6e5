// Physical operators: a pull-based tree. The consumer calls Next() with a
// chunk initialised to the operator's `types`; the operator fills it (up to
// STANDARD_VECTOR_SIZE rows) and returns true, or returns false when it is
// exhausted. A true return may carry 0 rows; consumers skip those.
//
// EXPLAIN ANALYZE: with ExecutionContext::profiling set, Next() counts each
// operator's output rows and the time spent in its GetChunk calls, into an
// OperatorProfile that the copies of a parallel pipeline share.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/vector.hpp"
#include "execution/memory/memory_pool.hpp"
#include "execution/memory/spill_file.hpp"
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
  // EXPLAIN ANALYZE: operators count rows and time (OperatorProfile).
  bool profiling = false;
  // SET memory_limit: the database's pool operators reserve their working
  // memory from (null: no limit), and the query's folder for spill files
  // (execution/memory/).
  std::shared_ptr<MemoryPool> memory;
  std::shared_ptr<SpillFolder> spill;
  // Throws InterruptError when the connection asked to stop
  // (ClientContext::Interrupt), WorkerCancelled when `cancelled` is set.
  // Loops that pull many chunks call it once a chunk.
  void CheckInterrupt() const;
};

// What EXPLAIN ANALYZE reports of one operator, summed over the threads
// that ran a copy of it. `nanos` is the time spent inside the operator's
// GetChunk calls, its children's included (wall time per call, added up
// across threads).
struct OperatorProfile {
  std::atomic<uint64_t> rows{0};
  std::atomic<uint64_t> nanos{0};
};

class PhysicalOperator {
 public:
  explicit PhysicalOperator(std::vector<LogicalType> types_p)
      : types(std::move(types_p)), profile_(std::make_shared<OperatorProfile>()) {}
  virtual ~PhysicalOperator() = default;

  // The next chunk (see the top of this file).
  bool Next(ExecutionContext& context, DataChunk& out) {
    if (!context.profiling) return GetChunk(context, out);
    return ProfiledNext(context, out);
  }
  // What each operator implements: Next() without the profiling.
  virtual bool GetChunk(ExecutionContext& context, DataChunk& out) = 0;
  virtual std::string Name() const = 0;
  // Extra detail for EXPLAIN (filters, keys, ...).
  virtual std::string Details() const { return ""; }
  // The tree, one operator per line (EXPLAIN).
  std::string ToString() const;
  // The same tree with each operator's profile (EXPLAIN ANALYZE), drawn
  // with box-drawing branches: rows out, and time in the operator itself
  // (its profile's time less its children's).
  std::string ToProfileString() const;

  OperatorProfile& Profile() { return *profile_; }
  const OperatorProfile& Profile() const { return *profile_; }
  // `copy` (a worker's copy of this operator, planned from the same logical
  // plan) adds its counts to this operator's profile; the same for their
  // children, pairwise.
  void ShareProfileWith(PhysicalOperator& copy);

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
  bool ProfiledNext(ExecutionContext& context, DataChunk& out);

  std::unique_ptr<ExpressionExecutor> executor_;
  std::shared_ptr<OperatorProfile> profile_;
};

using PhysicalOperatorPtr = std::unique_ptr<PhysicalOperator>;

// Runs `op` to the end, appending every row to `sink`.
class ChunkCollection;
void DrainOperator(ExecutionContext& context, PhysicalOperator& op, ChunkCollection& sink);

}  // namespace lakestream
