#include "execution/operator/partitioned_aggregate_merge.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

#include "common/vector_operations.hpp"
#include "execution/operator/physical_hash_aggregate.hpp"
#include "execution/parallel/parallel_runner.hpp"

namespace lakestream {

namespace {

// One table's groups listed by partition: those of partition p are
// order[offsets[p], offsets[p + 1]), in group id order.
struct TablePartitions {
  std::vector<uint32_t> order;
  std::vector<idx_t> offsets;
};

// Lists the groups of `table` by the top log2(partition_count) bits of their
// key hash (the bits below pick slots in the partition's table).
TablePartitions ListByPartition(const std::vector<std::unique_ptr<Vector>>& keys, idx_t group_count,
                                idx_t partition_count) {
  std::vector<uint64_t> hashes(group_count);
  for (idx_t c = 0; c < keys.size(); c++) HashVector(*keys[c], group_count, hashes.data(), c > 0);
  const int shift = 64 - std::countr_zero(partition_count);
  TablePartitions parts;
  parts.offsets.assign(partition_count + 1, 0);
  for (uint64_t h : hashes) parts.offsets[(h >> shift) + 1]++;
  for (idx_t p = 0; p < partition_count; p++) parts.offsets[p + 1] += parts.offsets[p];
  parts.order.resize(group_count);
  std::vector<idx_t> next(parts.offsets.begin(), parts.offsets.end() - 1);
  for (idx_t g = 0; g < group_count; g++) parts.order[next[hashes[g] >> shift]++] = static_cast<uint32_t>(g);
  return parts;
}

// RunParallel over `tasks` tasks on `threads` threads, each thread taking the
// next task from a shared counter.
void RunTasks(ExecutionContext& context, idx_t threads, idx_t tasks, const std::function<void(idx_t task)>& run) {
  std::atomic<idx_t> next{0};
  RunParallel(context, std::min(threads, tasks), [&](idx_t, ExecutionContext& local) {
    for (idx_t task = next++; task < tasks; task = next++) {
      local.CheckInterrupt();
      run(task);
    }
  });
}

}  // namespace

idx_t PartitionedAggregateMerge::PartitionCount(idx_t threads, idx_t groups) {
  const idx_t by_threads = std::bit_ceil(std::max<idx_t>(threads, 1) * 8);
  const idx_t by_groups = std::bit_ceil(std::max<idx_t>(groups / 16384, 1));
  return std::clamp<idx_t>(std::max(by_threads, by_groups), 16, 256);
}

bool PartitionedAggregateMerge::Applies(const std::vector<PhysicalHashAggregate*>& tables) {
  const PhysicalHashAggregate& first = *tables[0];
  if (first.groups_.empty() || !first.grouping_sets_.empty()) return false;
  for (auto& state : first.states_) {
    if (!state->CombinesSelected()) return false;
  }
  idx_t groups = 0;
  for (auto* table : tables) groups += table->group_count_;
  return groups >= kMinGroups;
}

std::vector<std::unique_ptr<PhysicalHashAggregate>> PartitionedAggregateMerge::Merge(
    ExecutionContext& context, const std::vector<PhysicalHashAggregate*>& tables) {
  const PhysicalHashAggregate& shape = *tables[0];
  const idx_t threads = tables.size();
  idx_t groups = 0;
  for (auto* table : tables) groups += table->group_count_;
  const idx_t partition_count = PartitionCount(threads, groups);

  std::vector<TablePartitions> listed(tables.size());
  RunTasks(context, threads, tables.size(), [&](idx_t t) {
    listed[t] = ListByPartition(tables[t]->group_keys_, tables[t]->group_count_, partition_count);
  });

  std::vector<LogicalType> key_types;
  for (auto& k : shape.group_keys_) key_types.push_back(k->GetType());
  std::vector<std::unique_ptr<PhysicalHashAggregate>> partitions(partition_count);
  RunTasks(context, threads, partition_count, [&](idx_t p) {
    // A table that only ever combines: its aggregates need only their
    // signatures (the state kinds), its keys their types.
    std::vector<BoundExprPtr> group_exprs;
    for (auto& g : shape.groups_) group_exprs.push_back(g->Copy());
    std::vector<BoundAggregate> aggregates;
    for (auto& a : shape.aggregates_) aggregates.emplace_back(a.signature, nullptr);
    auto part = std::make_unique<PhysicalHashAggregate>(nullptr, std::move(group_exprs), std::move(aggregates));
    if (context.memory) part->reservation_.Attach(context.memory);
    idx_t most = 0;  // the partition's groups if no two tables share one
    for (auto& list : listed) most += list.offsets[p + 1] - list.offsets[p];
    part->ReserveSlots(most);
    DataChunk keys;
    keys.Initialize(key_types);
    std::vector<uint32_t> targets(STANDARD_VECTOR_SIZE);
    for (idx_t t = 0; t < tables.size(); t++) {
      PhysicalHashAggregate& from = *tables[t];
      const TablePartitions& list = listed[t];
      for (idx_t first = list.offsets[p]; first < list.offsets[p + 1]; first += STANDARD_VECTOR_SIZE) {
        const idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, list.offsets[p + 1] - first);
        const uint32_t* sources = list.order.data() + first;
        keys.Reset();
        for (idx_t c = 0; c < key_types.size(); c++) keys.data[c].Copy(*from.group_keys_[c], sources, n, 0, 0);
        keys.SetCardinality(n);
        part->FindGroups(keys, n, targets.data());
        for (auto& s : part->states_) s->Resize(part->group_count_);
        for (idx_t a = 0; a < part->states_.size(); a++) {
          part->states_[a]->Combine(*from.states_[a], targets.data(), n, sources);
        }
      }
    }
    part->ReserveGroups(part->group_count_, true);
    partitions[p] = std::move(part);
  });
  return partitions;
}

}  // namespace lakestream
