// GROUP BY: a hash table from group keys to dense group ids, and one
// AggregateState per aggregate indexed by group id. Without GROUP BY there is
// exactly one group, present even when the input is empty (count(*) = 0).
// Output: the group key columns, then the aggregate columns, in first-seen
// group order.
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "common/vector_operations.hpp"
#include "function/aggregate_function.hpp"
#include "planner/bound_aggregate.hpp"

namespace lakestream {

class PhysicalHashAggregate : public PhysicalOperator {
 public:
  PhysicalHashAggregate(PhysicalOperatorPtr child, std::vector<BoundExprPtr> groups, std::vector<BoundAggregate> aggregates);
  bool Next(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "HASH_GROUP_BY"; }
  std::string Details() const override;
  // SELECT COUNT(*) [, COUNT(*)...] FROM t without WHERE or GROUP BY: the
  // planner lets the aggregate take the count from the child scan's table
  // metadata instead of reading the rows (opening a large Delta table for a
  // count then costs its log, not its data files).
  static bool CanCountFromTable(const std::vector<BoundExprPtr>& groups, const std::vector<BoundAggregate>& aggregates,
                                const PhysicalOperator& child);
  void CountFromTable() { count_from_table_ = true; }

 private:
  void Consume(ExecutionContext& context);
  void FindGroups(DataChunk& keys, idx_t count, uint32_t* group_ids);
  void Grow();

  std::vector<BoundExprPtr> groups_;
  std::vector<BoundAggregate> aggregates_;
  std::vector<std::unique_ptr<AggregateState>> states_;
  std::vector<row_equal_t> key_equal_;

  // Group keys, columnar, indexed by group id.
  std::vector<std::unique_ptr<Vector>> group_keys_;
  idx_t group_count_ = 0;
  // Open addressing: slot -> group id + 1 (0 = empty), with the full hash beside it.
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> slot_hashes_;
  uint64_t mask_ = 0;

  bool count_from_table_ = false;
  bool consumed_ = false;
  idx_t emitted_ = 0;
};

}  // namespace lakestream
