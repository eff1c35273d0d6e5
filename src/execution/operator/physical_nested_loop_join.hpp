// Joins without equality keys (CROSS, or ON with only non-equi predicates):
// the right side is materialised and every left row meets every right row.
// The output is produced a vector at a time (a cursor over probe rows and
// right chunks), so memory stays bounded by the right side however large the
// product is, and a consumer that stops early (LIMIT, an interrupt) stops it.
#pragma once

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"

namespace lakestream {

class PhysicalNestedLoopJoin : public PhysicalOperator {
 public:
  PhysicalNestedLoopJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, BoundExprPtr condition, bool left_join);
  bool Next(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return left_join_ ? "NESTED_LOOP_JOIN (LEFT)" : "NESTED_LOOP_JOIN"; }
  std::string Details() const override { return condition_ ? condition_->ToString() : ""; }

 private:
  // Joins the probe chunk from the cursor on until about one vector of output
  // is pending or the probe chunk is done (then pads a LEFT join's misses).
  void JoinSome(ExecutionContext& context);
  void JoinRow(ExecutionContext& context, idx_t left_row, const DataChunk& right_chunk);
  void PadUnmatchedLeftRows();

  BoundExprPtr condition_;
  bool left_join_;
  bool built_ = false;
  ChunkCollection right_;
  DataChunk probe_;
  ChunkCollection pending_;
  idx_t pending_position_ = 0;
  // The cursor over the current probe chunk: right chunk, then left row.
  bool probe_active_ = false;
  idx_t right_chunk_ = 0;
  idx_t left_row_ = 0;
  std::vector<bool> matched_;
  std::vector<sel_t> selection_;
};

}  // namespace lakestream
