// Joins without equality keys (CROSS, or ON with only non-equi predicates):
// the right side is materialised and every left row meets every right row.
// The output is produced a vector at a time (a cursor over probe rows and
// right chunks), so memory stays bounded by the right side however large the
// product is, and a consumer that stops early (LIMIT, an interrupt) stops it.
// Every JoinKind (join_kind.hpp): a FULL join remembers which right rows
// matched and pads the others after the last left chunk. The interrupt is
// checked per (left row, right chunk) step, so a join that finds no pair for
// a long time still stops.
#pragma once

#include "common/chunk_collection.hpp"
#include "execution/operator/join_kind.hpp"
#include "execution/operator/physical_operator.hpp"

namespace lakestream {

class PhysicalNestedLoopJoin : public PhysicalOperator {
 public:
  PhysicalNestedLoopJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, BoundExprPtr condition, JoinKind kind);
  // MARK joins: the mark is the three-valued OR of `mark_condition` over the
  // pairs that pass the condition (null: TRUE when any pair passes).
  void SetMarkCondition(BoundExprPtr mark_condition) { mark_condition_ = std::move(mark_condition); }
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "NESTED_LOOP_JOIN" + JoinKindSuffix(kind_); }
  std::string Details() const override {
    return (condition_ ? condition_->ToString() : "") + (mark_condition_ ? " MARK " + mark_condition_->ToString() : "");
  }

 private:
  // Joins the probe chunk from the cursor on until about one vector of output
  // is pending or the probe chunk is done (then emits the rows its kind
  // keeps for unmatched / matched left rows).
  void JoinSome(ExecutionContext& context);
  void JoinRow(ExecutionContext& context, idx_t left_row, idx_t right_index);
  void FinishProbe();
  void PadUnmatchedRightRows();

  BoundExprPtr condition_;
  BoundExprPtr mark_condition_;
  JoinKind kind_;
  idx_t left_width_;
  idx_t right_width_;
  std::vector<LogicalType> pair_types_;
  bool built_ = false;
  bool probe_done_ = false;
  ChunkCollection right_;
  std::vector<std::vector<uint8_t>> right_matched_;  // FULL: per right chunk, per row
  DataChunk probe_;
  ChunkCollection pending_;
  idx_t pending_position_ = 0;
  // The cursor over the current probe chunk: right chunk, then left row.
  bool probe_active_ = false;
  idx_t right_chunk_ = 0;
  idx_t left_row_ = 0;
  std::vector<uint8_t> matched_;    // per left row: pairs kept (SINGLE counts to 2)
  std::vector<uint8_t> mark_null_;  // MARK: the mark condition was NULL for a pair
  std::vector<sel_t> selection_;
};

}  // namespace lakestream
