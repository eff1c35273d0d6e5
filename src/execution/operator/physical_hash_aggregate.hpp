// GROUP BY: a hash table from group keys to dense group ids, and one
// AggregateState per aggregate indexed by group id. Without GROUP BY there is
// exactly one group, present even when the input is empty (count(*) = 0).
// Output: the group key columns, then the aggregate columns, in first-seen
// group order.
//
// GROUPING SETS (ROLLUP and CUBE are expanded to them by the binder): each
// input chunk is grouped once per set, the columns outside the set read as
// NULL, and the set's index is a hidden extra key so that a rolled-up NULL
// and a NULL in the data stay different groups. As in Spark, an empty input
// gives no rows even for the empty set () (DuckDB and Postgres give one).
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "common/vector_operations.hpp"
#include "function/aggregate_function.hpp"
#include "planner/bound_aggregate.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

class PhysicalHashAggregate : public PhysicalOperator {
 public:
  // `grouping_sets`: positions in `groups` of each set; empty for plain GROUP BY.
  PhysicalHashAggregate(PhysicalOperatorPtr child, std::vector<BoundExprPtr> groups, std::vector<BoundAggregate> aggregates,
                        std::vector<std::vector<idx_t>> grouping_sets = {});
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "HASH_GROUP_BY"; }
  std::string Details() const override;
  // SELECT COUNT(*) [, COUNT(*)...] FROM t without WHERE or GROUP BY: the
  // planner lets the aggregate take the count from the child scan's table
  // metadata instead of reading the rows (opening a large Delta table for a
  // count then costs its log, not its data files).
  static bool CanCountFromTable(const std::vector<BoundExprPtr>& groups, const std::vector<BoundAggregate>& aggregates,
                                const PhysicalOperator& child);
  void CountFromTable() { count_from_table_ = true; }
  bool CountsFromTable() const { return count_from_table_; }
  // Whether copies of this aggregate on several threads, merged, give what
  // one gives: every aggregate Combinable(), no GROUPING SETS.
  static bool Parallelizable(const std::vector<BoundAggregate>& aggregates,
                             const std::vector<std::vector<idx_t>>& grouping_sets);
  // Parallel execution: `workers` are copies of this aggregate (same groups
  // and aggregates), each over its own copy of the child chain, whose scans
  // share `morsels` with this one's. Next() then runs this aggregate and the
  // workers on a thread each, and merges the workers' groups into its own.
  void SetWorkers(std::vector<std::unique_ptr<PhysicalHashAggregate>> workers, std::shared_ptr<MorselSource> morsels);

 private:
  // The rows of one chunk as each aggregate sees them: its arguments after
  // FILTER (WHERE ...), compacted to the rows that pass.
  struct AggregateInput {
    std::unique_ptr<Vector> argument, second;
    std::vector<std::unique_ptr<Vector>> keys;
    std::unique_ptr<Vector> filter_result;
    std::unique_ptr<Vector> compact_argument, compact_second;
    std::vector<std::unique_ptr<Vector>> compact_keys;
    std::vector<sel_t> sel;  // rows passing the filter
    const Vector* arg = nullptr;
    const Vector* sec = nullptr;
    std::vector<const Vector*> key_ptrs;
    idx_t count = 0;
  };
  void Consume(ExecutionContext& context);
  void ConsumeParallel(ExecutionContext& context);
  // Folds every group of `other` (a worker) into this aggregate.
  void Combine(PhysicalHashAggregate& other);
  void PrepareInput(ExpressionExecutor& executor, DataChunk& input, idx_t a);
  void UpdateAggregate(idx_t a, idx_t set, const uint32_t* group_ids);
  void FindGroups(DataChunk& keys, idx_t count, uint32_t* group_ids);
  void Grow();

  std::vector<BoundExprPtr> groups_;
  std::vector<BoundAggregate> aggregates_;
  std::vector<std::vector<idx_t>> grouping_sets_;
  std::vector<std::unique_ptr<AggregateState>> states_;
  std::vector<OrderedAggregateState*> ordered_;  // states_[a] when aggregate a has ORDER BY
  std::vector<AggregateInput> inputs_;
  // grouping()/grouping_id() values: [aggregate][set], and a vector of them.
  std::vector<std::vector<int64_t>> grouping_values_;
  Vector grouping_vector_{TypeId::BIGINT};
  std::vector<uint32_t> compact_ids_;
  std::vector<row_equal_t> key_equal_;

  // Group keys, columnar, indexed by group id.
  std::vector<std::unique_ptr<Vector>> group_keys_;
  idx_t group_count_ = 0;
  // Open addressing: slot -> group id + 1 (0 = empty), with the full hash beside it.
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> slot_hashes_;
  uint64_t mask_ = 0;

  bool grouped_ = false;  // GROUP BY or GROUPING SETS: groups come from the keys
  bool count_from_table_ = false;
  bool consumed_ = false;
  std::vector<std::unique_ptr<PhysicalHashAggregate>> workers_;
  idx_t threads_ = 1;  // this copy and its workers (kept for EXPLAIN ANALYZE once they are merged)
  std::shared_ptr<MorselSource> morsels_;
  idx_t emitted_ = 0;
};

}  // namespace lakestream
