// WINDOW: materialises its input with every input expression (arguments,
// PARTITION BY/ORDER BY keys, frame bounds) evaluated alongside, sorts the
// rows once per distinct PARTITION BY + ORDER BY, evaluates each window
// function over its partitions (function/window/window_executor.hpp), and
// emits the input rows in input order with one column per window appended.
#pragma once

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"
#include "function/window/window_function.hpp"

namespace lakestream {

class PhysicalWindow : public PhysicalOperator {
 public:
  PhysicalWindow(PhysicalOperatorPtr child, std::vector<BoundExprPtr> inputs, std::vector<BoundWindow> windows);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "WINDOW"; }
  std::string Details() const override;

 private:
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
};

}  // namespace lakestream
