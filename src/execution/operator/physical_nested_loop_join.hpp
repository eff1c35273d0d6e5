// Joins without equality keys (CROSS, or ON with only non-equi predicates):
// the right side is materialised and every left row meets every right row.
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
  void JoinProbeChunk(ExecutionContext& context);

  BoundExprPtr condition_;
  bool left_join_;
  bool built_ = false;
  ChunkCollection right_;
  DataChunk probe_;
  ChunkCollection pending_;
  idx_t pending_position_ = 0;
};

}  // namespace lakestream
