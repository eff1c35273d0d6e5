// TOP_N_WINDOW: the WINDOW operator of one row_number() when a filter above
// keeps only the rows it numbers 1 to N (rn = 1, rn <= N; the rewrite is
// planner/top_n_window.hpp). Instead of materialising and sorting every row
// it streams its input and keeps, per partition, the N rows that sort first
// (a grouped top-N: a hash table on the PARTITION BY keys, a bounded heap of
// rows per partition), then emits those rows: the child's columns, then the
// row_number as BIGINT.
//
// Contract: exactly the rows and row numbers the general WINDOW operator
// gives rows 1 to N, in the same (input) order. ORDER BY keys compare as in
// WindowSort (direction, NULLS FIRST/LAST, NaN above every number, -0.0 = 0.0)
// and rows equal on every key rank in the order the child produced them (the
// first one wins rn = 1), as WindowSort's ties keep input order.
//
// Memory is O(partitions x N) rows, not O(input): a winning row is copied
// (strings included) out of the child's chunk, and the copies are compacted
// when evicted rows outnumber the live ones.
#pragma once

#include <memory>

#include "execution/operator/physical_operator.hpp"
#include "function/window/window_function.hpp"

namespace lakestream {

class TopNWindowState;

class PhysicalTopNWindow : public PhysicalOperator {
 public:
  // `inputs` are the WINDOW's input expressions over the child's rows, which
  // `window` (a ROW_NUMBER) names by position; `limit` >= 1.
  PhysicalTopNWindow(PhysicalOperatorPtr child, std::vector<BoundExprPtr> inputs, BoundWindow window, idx_t limit);
  ~PhysicalTopNWindow() override;
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "TOP_N_WINDOW"; }
  std::string Details() const override;

 private:
  void Consume(ExecutionContext& context);

  std::vector<BoundExprPtr> input_expressions_;
  BoundWindow window_;
  idx_t limit_;
  std::unique_ptr<TopNWindowState> state_;
  bool done_ = false;
};

}  // namespace lakestream
