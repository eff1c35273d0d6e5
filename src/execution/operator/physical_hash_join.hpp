// Hash join on equality keys (NULL keys never match), INNER or LEFT, with an
// optional residual predicate over the joined row. The right child is the
// build side: it is read fully into a chained hash table; the left child then
// streams through it. Output: left columns, then right columns.
#pragma once

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"
#include "execution/vector_operations.hpp"

namespace lakestream {

class PhysicalHashJoin : public PhysicalOperator {
 public:
  PhysicalHashJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, std::vector<BoundExprPtr> left_keys,
                   std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, bool left_join);
  bool Next(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return left_join_ ? "HASH_JOIN (LEFT)" : "HASH_JOIN"; }
  std::string Details() const override;

 private:
  void Build(ExecutionContext& context);
  // Joins the current probe chunk into pending_.
  void Probe(ExecutionContext& context);
  void EmitPairs(ExecutionContext& context, const std::vector<sel_t>& probe_rows, const std::vector<uint32_t>& build_rows,
                 std::vector<bool>& matched);

  std::vector<BoundExprPtr> left_keys_;
  std::vector<BoundExprPtr> right_keys_;
  BoundExprPtr residual_;
  bool left_join_;
  idx_t left_width_;
  idx_t right_width_;

  bool built_ = false;
  ChunkCollection build_;        // right columns + key columns
  std::vector<uint32_t> heads_;  // bucket -> build row + 1
  std::vector<uint32_t> next_;   // build row -> next build row + 1 in the chain
  std::vector<uint64_t> build_hashes_;
  uint64_t mask_ = 0;
  std::vector<row_equal_t> key_equal_;

  DataChunk probe_;
  DataChunk probe_keys_;
  ChunkCollection pending_;
  idx_t pending_position_ = 0;
};

}  // namespace lakestream
