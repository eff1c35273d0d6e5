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
//
// Spilling (SET memory_limit, docs/memory.md): the table reserves memory for
// its groups (MemoryReservation) before a chunk may add them. Once the pool
// refuses, the table takes no new groups: rows of groups it holds are still
// aggregated in it, the other input rows go, as they came from the child, to
// 16 temp files by 4 bits of their group hash (radix partitions). The table's
// groups are then complete and are emitted and freed; each partition is
// aggregated in turn in the emptied table (spilling again by the next 4 bits
// when it too overflows). Groups of different partitions differ, so every
// group comes out once. A parallel aggregate's threads spill each to their
// own files; after their tables are merged, one pass over the files folds
// into the merged table the rows of the groups it now holds (a thread may have
// spilled rows of a group another thread kept). GROUPING SETS and input with
// nested columns do not spill: they fail with the out-of-memory error.
//
// Many groups and no spill: the threads' tables are merged partition by
// partition in parallel instead (partitioned_aggregate_merge.hpp), and the
// groups come out partition by partition.
#pragma once

#include <functional>

#include "execution/operator/hash_slots.hpp"
#include "execution/operator/packed_keys.hpp"
#include "execution/operator/physical_operator.hpp"
#include "execution/operator/selected_output.hpp"
#include "common/vector_operations.hpp"
#include "function/aggregate/selected_update.hpp"
#include "function/aggregate/shared_totals.hpp"
#include "function/aggregate_function.hpp"
#include "planner/bound_aggregate.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

class PhysicalHashAggregate : public PhysicalOperator {
  friend class PartitionedAggregateMerge;  // reads the threads' tables, fills its partition tables

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
  // The rows of one chunk as each aggregate sees them: the chunk's selected
  // rows, those passing its FILTER (WHERE ...) when it has one. Read in place
  // by the states that can (SelectedUpdate); copied out for the others and
  // for the aggregates that take dense vectors (ORDER BY, two arguments).
  struct AggregateInput {
    std::unique_ptr<Vector> argument, second;
    std::vector<std::unique_ptr<Vector>> keys;
    std::unique_ptr<Vector> filter_result;
    std::unique_ptr<Vector> compact_argument, compact_second;
    std::vector<std::unique_ptr<Vector>> compact_keys;
    std::vector<sel_t> sel;        // FILTER: the rows passing it
    std::vector<sel_t> positions;  // FILTER: their places among the chunk's selected rows (their group ids')
    DataChunk filtered;            // FILTER: a copy of the passing rows, when an argument raised on a dropped row
    const Vector* arg = nullptr;
    const Vector* sec = nullptr;
    std::vector<const Vector*> key_ptrs;
    const sel_t* rows = nullptr;  // the rows of arg, sec and keys to aggregate; null: [0, count)
    idx_t count = 0;
  };
  // Reads the input rows from `source` (the child, or a spill file): a
  // chunk, and the selection of its rows (selected_output.hpp).
  using ChunkSource = std::function<bool(DataChunk&, ChunkSelection&)>;
  void Consume(ExecutionContext& context, const ChunkSource& source);
  // The source reading this aggregate's child; it lets the child hand on
  // selections when every expression of the aggregate may be evaluated on
  // rows outside them (repeatable) and EXPLAIN ANALYZE is not counting rows.
  ChunkSource ChildSource(ExecutionContext& context);
  void ConsumeParallel(ExecutionContext& context);
  // Spilling (see the top of this file).
  struct SpilledPartition {
    idx_t depth;      // of the table that spilled it: its rows' hashes agree on 4 * (depth + 1) bits
    idx_t partition;  // which of the 16
    std::vector<std::unique_ptr<SpillFile>> files;
  };
  // Reserves memory for `groups` groups; false when the pool refuses (then
  // nothing more is reserved), unless `force`.
  bool ReserveGroups(idx_t groups, bool force);
  bool SpillAllowed() const;
  // Lets an aggregate finalize from the totals of an earlier one over the
  // same argument (sum(x) and avg(x): shared_totals.hpp); sets totals_of_.
  void ShareTotals();
  void StartSpilling(ExecutionContext& context, uint64_t needed);
  // Moves the files this table spilled to (if any) into `into`, one entry
  // per partition: files of a partition already in `into` from `round_start`
  // on (another thread's) join that entry.
  void CollectSpill(std::vector<SpilledPartition>& into, size_t round_start);
  // In spill mode: sends the rows of `input` whose group is not in the
  // table to the spill files and leaves the others in `hits`; false when none is left.
  bool SplitMisses(DataChunk& input, DataChunk& keys, DataChunk& hits);
  // Empties the table (groups, states, reservation) for the next partition.
  void ResetTable();
  // Folds the spilled rows of groups the (merged) table holds into it.
  void FoldSpilledIntoTable(ExecutionContext& context);
  // Folds every group of `other` (a worker) into this aggregate.
  void Combine(PhysicalHashAggregate& other);
  // Writes the next groups of the table (from emitted_ on) to `out`.
  void EmitChunk(DataChunk& out);
  void PrepareInput(ExpressionExecutor& executor, DataChunk& input, const ChunkSelection& selection, idx_t a);
  void UpdateAggregate(idx_t a, idx_t set, const uint32_t* group_ids);
  // Group ids of the rows of `keys` (rows sel[0, count) of it when `sel` is
  // given: group_ids[i] is row sel[i]'s), adding new groups; with `insert`
  // false a row whose group is missing gets kMissingGroup. Leaves the hashes
  // (of every row of `keys` with `sel`) in hashes_: HashVector's, except in
  // packed mode (never while spilling, which partitions by them).
  static constexpr uint32_t kMissingGroup = UINT32_MAX;
  void FindGroups(DataChunk& keys, idx_t count, uint32_t* group_ids, bool insert = true, const sel_t* sel = nullptr);
  // FindGroups for one integer key (IntegerKeySlot), hashes_ already set.
  void FindIntegerGroups(DataChunk& keys, idx_t count, uint32_t* group_ids, bool insert, const sel_t* sel);
  // FindGroups in packed mode (packed_keys.hpp); false (nothing found, the
  // table back to per-column slots) when a row's keys do not fit.
  bool FindPackedGroups(DataChunk& keys, idx_t count, uint32_t* group_ids, bool insert, const sel_t* sel);
  // Leaves packed mode for good: the groups go into slots_ by HashVector's hashes.
  void LeavePackedMode();
  // A new group for row `row` of `keys`: stores its keys, returns its id.
  uint32_t AddGroup(DataChunk& keys, idx_t row);
  void Grow();
  // Sizes an empty table's slots and key columns for `groups` groups, so
  // that adding them neither grows nor rehashes (the partitioned merge knows
  // its partitions' sizes).
  void ReserveSlots(idx_t groups);

  std::vector<BoundExprPtr> groups_;
  std::vector<BoundAggregate> aggregates_;
  std::vector<std::vector<idx_t>> grouping_sets_;
  std::vector<std::unique_ptr<AggregateState>> states_;
  std::vector<OrderedAggregateState*> ordered_;  // states_[a] when aggregate a has ORDER BY
  std::vector<SelectedUpdate*> selected_updates_;  // states_[a] when it reads selected rows in place
  // The aggregate whose totals aggregate a finalizes from, or kOwnTotals:
  // an aggregate with another's totals is neither evaluated nor updated.
  static constexpr idx_t kOwnTotals = static_cast<idx_t>(-1);
  std::vector<idx_t> totals_of_;
  std::vector<AggregateInput> inputs_;
  // grouping()/grouping_id() values: [aggregate][set], and a vector of them.
  std::vector<std::vector<int64_t>> grouping_values_;
  Vector grouping_vector_{TypeId::BIGINT};
  std::vector<uint32_t> compact_ids_;
  bool all_repeatable_ = true;  // groups and every aggregate's expressions
  std::vector<row_equal_t> key_equal_;

  // Group keys, columnar, indexed by group id.
  std::vector<std::unique_ptr<Vector>> group_keys_;
  idx_t group_count_ = 0;
  // Open addressing: slot -> group id + 1 (0 = empty), with the full hash beside it.
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> slot_hashes_;
  uint64_t mask_ = 0;
  // One GROUP BY key of an integer type (no GROUPING SETS): the groups are
  // found in integer_slots_ instead, NULL being its own group.
  bool integer_key_ = false;
  std::vector<IntegerKeySlot> integer_slots_;
  uint64_t integer_mask_ = 0;
  uint32_t null_group_ = UINT32_MAX;
  // Several keys, or one not an integer, that pack into 16 bytes: the groups
  // are found in packed_slots_ by their packed keys while packed_ holds.
  KeyPacker packer_;
  bool packable_ = false;
  bool packed_ = false;
  std::vector<PackedKey> packed_keys_;
  std::vector<PackedKeySlot> packed_slots_;
  uint64_t packed_mask_ = 0;

  bool grouped_ = false;  // GROUP BY or GROUPING SETS: groups come from the keys
  bool count_from_table_ = false;
  bool consumed_ = false;
  std::vector<std::unique_ptr<PhysicalHashAggregate>> workers_;
  idx_t threads_ = 1;  // this copy and its workers (kept for EXPLAIN ANALYZE once they are merged)
  std::shared_ptr<MorselSource> morsels_;
  idx_t emitted_ = 0;

  std::vector<uint64_t> hashes_;
  MemoryReservation reservation_;
  uint64_t bytes_per_group_ = 0;  // estimate: keys, slots, states
  uint64_t string_bytes_ = 0;     // VARCHAR key bytes held
  std::shared_ptr<SpillFolder> spill_folder_;
  std::unique_ptr<PartitionedSpill> spill_;  // set in spill mode: where missing groups' rows go
  idx_t depth_ = 0;                          // partition bits the rows this table reads agree on
  std::vector<SpilledPartition> pending_;    // partitions still to aggregate
  idx_t spilled_partitions_ = 0;             // for EXPLAIN ANALYZE
  std::vector<uint32_t> miss_partitions_;
  // After a partitioned merge: the partition tables, emitted in order (this
  // table is then empty).
  std::vector<std::unique_ptr<PhysicalHashAggregate>> partitions_;
  idx_t next_partition_ = 0;
  idx_t merged_partitions_ = 0;  // for EXPLAIN ANALYZE
  std::vector<sel_t> hit_sel_, miss_sel_;
};

}  // namespace lakestream
