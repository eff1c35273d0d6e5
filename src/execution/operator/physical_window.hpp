// WINDOW: materialises its input with every input expression (arguments,
// PARTITION BY/ORDER BY keys, frame bounds) evaluated alongside, sorts the
// rows once per distinct PARTITION BY + ORDER BY, evaluates each window
// function over its partitions (function/window/window_executor.hpp), and
// emits the input rows in input order with one column per window appended.
//
// Parallel: over a chain of filters, projections and hash-join probes on a
// table scan (SetWorkers), a copy of the operator on each thread reads its
// own copy of the chain, the scans sharing numbered morsels
// (NumberedMorsels); each copy keeps the rows of each morsel apart, and this
// copy puts them together in morsel order, the order of one thread. With a
// PARTITION BY key every window shares, the windows are then evaluated one
// hash partition of the rows at a time on several threads
// (parallel/window_partitions.hpp), giving the values one thread gives.
#pragma once

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"
#include "function/window/window_function.hpp"

namespace lakestream {

class NumberedMorsels;

class PhysicalWindow : public PhysicalOperator {
 public:
  PhysicalWindow(PhysicalOperatorPtr child, std::vector<BoundExprPtr> inputs, std::vector<BoundWindow> windows);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "WINDOW"; }
  std::string Details() const override;
  // Parallel input (above): `workers` are copies of this operator whose
  // chains' scans read morsels[1..]; this copy's scan reads morsels[0].
  void SetWorkers(std::vector<std::unique_ptr<PhysicalWindow>> workers,
                  std::vector<std::shared_ptr<NumberedMorsels>> morsels);

 private:
  // The child's rows (and the inputs that are not its columns) into
  // rows_/evaluated_, or into segments_ (one per morsel) for a parallel copy.
  void Collect(ExecutionContext& context);
  // Collect on every copy's thread, then the segments in morsel order.
  void CollectParallel(ExecutionContext& context);
  void Materialize(ExecutionContext& context);
  void Evaluate(ExecutionContext& context);

  std::vector<BoundExprPtr> input_expressions_;
  std::vector<BoundWindow> windows_;
  bool done_ = false;
  ChunkCollection rows_;
  ChunkCollection evaluated_;    // inputs that are not columns of the child, chunk by chunk
  std::vector<Vector> inputs_;   // one per input expression, every row
  std::vector<Vector> results_;  // one per window, every row
  idx_t next_chunk_ = 0;
  struct Segment {
    idx_t morsel;
    ChunkCollection rows, evaluated;
  };
  std::vector<Segment> segments_;
  std::shared_ptr<NumberedMorsels> morsels_;
  std::vector<std::unique_ptr<PhysicalWindow>> workers_;
  idx_t input_threads_ = 1;      // for EXPLAIN ANALYZE
  idx_t partition_threads_ = 1;  // windows evaluated split across threads
};

}  // namespace lakestream
