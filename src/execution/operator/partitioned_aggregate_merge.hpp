// The merge phase of a parallel hash aggregate with many groups, after
// DuckDB's radix-partitioned aggregation.
//
// Each thread of a parallel PhysicalHashAggregate fills its own table. Merged
// serially (every worker's groups looked up in the first table), a query with
// a million groups spends about as long merging on one thread as building on
// all of them, so a second thread bought nothing (TPC-H Q18). Here the groups
// are split instead by the top bits of their key hash into P partitions
// (P a power of two): every thread lists its table's groups by partition,
// then each partition, taken from a shared counter by one of the threads,
// gets its own new table into which the partition's groups of every thread's
// table are combined (AggregateState::Combine with `sources`). The
// partitions hold disjoint groups, so no two threads touch the same table,
// and each partition table is P times smaller than one merged table would
// be: its probes mostly hit cache.
//
// Order: partition by partition; within a partition, the first thread's
// groups in their first-seen order, then the next thread's new ones.
// Spilled tables are not merged here (their spill files need the serial
// fold, docs/memory.md), nor small ones, where the serial merge is cheaper.
#pragma once

#include <memory>
#include <vector>

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

class PhysicalHashAggregate;

class PartitionedAggregateMerge {
 public:
  // Fewer groups than this in all the tables together: the serial merge is
  // cheaper than making P tables.
  static constexpr idx_t kMinGroups = idx_t{1} << 15;
  // P for `threads` threads and `groups` groups in all tables: a power of
  // two in [16, 256], at least 8 per thread, and enough for a partition
  // table to stay near 16K groups.
  static idx_t PartitionCount(idx_t threads, idx_t groups);
  // Whether `tables` (this thread's table first) may be merged here: GROUP BY
  // without GROUPING SETS, kMinGroups groups in all, and every aggregate's
  // state combines selected groups (AggregateState::CombinesSelected).
  static bool Applies(const std::vector<PhysicalHashAggregate*>& tables);
  // Merges every group of `tables` into PartitionCount() new tables (in
  // partition order) on tables.size() threads. The tables are only read:
  // the caller frees them after. Memory for the new tables is reserved with
  // ForceGrow (as the serial merge does): the source tables are freed right
  // after, so the pool holds both only briefly.
  static std::vector<std::unique_ptr<PhysicalHashAggregate>> Merge(ExecutionContext& context,
                                                                   const std::vector<PhysicalHashAggregate*>& tables);
};

}  // namespace lakestream
