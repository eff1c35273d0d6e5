// Grace mode of the hash join (see physical_hash_join.hpp): build and probe
// rows partitioned to temp files, then joined partition by partition.
#include "common/exception.hpp"
#include "execution/memory/memory_pool.hpp"
#include "execution/operator/physical_hash_join.hpp"

namespace lakestream {

void PhysicalHashJoin::GracePartitions(DataChunk& keys, idx_t key_offset, idx_t count, std::vector<uint64_t>& hashes,
                                       std::vector<uint32_t>& partitions) const {
  hashes.resize(count);
  partitions.resize(count);
  for (idx_t k = 0; k < right_keys_.size(); k++) HashVector(keys.data[key_offset + k], count, hashes.data(), k > 0);
  // The top bits: the table's buckets use the low ones.
  for (idx_t i = 0; i < count; i++) partitions[i] = static_cast<uint32_t>(hashes[i] >> 58);
}

std::shared_ptr<PhysicalHashJoin::Table> PhysicalHashJoin::LoadPartition(ExecutionContext& context, GraceBuild& grace,
                                                                         idx_t p) {
  std::lock_guard<std::mutex> lock(grace.mutex);
  if (auto table = grace.loaded[p].lock()) return table;
  auto table = std::make_shared<Table>();
  table->done = true;
  table->rows.SetTypes(grace.types);
  if (context.memory) table->reservation.Attach(context.memory);
  if (SpillFile* file = grace.files[p].get()) {
    uint64_t need = file->Bytes() + file->Rows() * kIndexBytesPerRow;
    MemoryPool* pool = context.memory.get();
    if (!table->reservation.Grow(need)) {
      // Partitions cannot be split further; a small one is loaded even when
      // other operators hold the rest of the limit (docs/memory.md).
      if (pool && need > pool->Limit() / 4) {
        ThrowOutOfMemory("HASH_JOIN build partition " + std::to_string(p) + " of " + std::to_string(kGracePartitions) +
                             " (" + std::to_string(file->Rows()) + " rows)",
                         need, pool,
                         need > pool->Limit() ? "many build rows share a key, so partitioning does not split them"
                                              : "other operators of running queries hold the rest of the limit");
      }
      table->reservation.ForceGrow(need);
    }
    file->Rewind();
    DataChunk chunk;
    chunk.Initialize(table->rows.Types());
    while (file->Read(chunk)) {
      context.CheckInterrupt();
      table->rows.Append(chunk);
    }
  }
  BuildIndex(context, *table);
  table->build_rows = grace.rows;
  table->has_null_key = table->has_null_key || grace.has_null_key;
  grace.loaded[p] = table;
  return table;
}

bool PhysicalHashJoin::PartitionProbe(ExecutionContext& context) {
  ExpressionExecutor& executor = Executor(context);
  const bool shared = TracksBuildMatches() && build_table_->copies > 1;
  if (shared) {
    std::lock_guard<std::mutex> lock(grace_->mutex);
    if (!grace_->shared_probe) {
      grace_->shared_probe =
          std::make_unique<PartitionedSpill>(context.spill, children[0]->types, kGracePartitions, "join-probe");
      grace_->partitioning = build_table_->copies;
    }
  } else {
    probe_spill_ = std::make_unique<PartitionedSpill>(context.spill, children[0]->types, kGracePartitions, "join-probe");
  }
  std::vector<uint32_t> partitions;
  while (children[0]->Next(context, probe_)) {
    context.CheckInterrupt();
    idx_t count = probe_.size();
    if (count == 0) continue;
    probe_keys_.Reset();
    for (idx_t k = 0; k < left_keys_.size(); k++) executor.Execute(*left_keys_[k], probe_, probe_keys_.data[k]);
    probe_keys_.SetCardinality(count);
    probe_hashes_.resize(count);
    partitions.resize(count);
    for (idx_t k = 0; k < left_keys_.size(); k++) HashVector(probe_keys_.data[k], count, probe_hashes_.data(), k > 0);
    for (idx_t i = 0; i < count; i++) partitions[i] = static_cast<uint32_t>(probe_hashes_[i] >> 58);
    if (!shared) {
      probe_spill_->Append(probe_, nullptr, partitions.data(), count);
      continue;
    }
    std::lock_guard<std::mutex> lock(grace_->mutex);
    grace_->shared_probe->Append(probe_, nullptr, partitions.data(), count);
  }
  if (!shared) return true;
  std::lock_guard<std::mutex> lock(grace_->mutex);
  if (--grace_->partitioning > 0) return false;
  probe_spill_ = std::move(grace_->shared_probe);
  return true;
}

bool PhysicalHashJoin::NextGracePartition(ExecutionContext& context) {
  if (!grace_) return false;
  if (grace_done_) return false;
  table_.reset();
  probe_file_.reset();
  while (grace_partition_ < kGracePartitions) {
    idx_t p = grace_partition_++;
    probe_file_ = probe_spill_->Take(p);
    bool has_build = grace_->files[p] != nullptr;
    // Without build rows only the probe rows' padding or marks come out;
    // without probe rows only unmatched build rows (FULL, RIGHT, RIGHT_ANTI).
    bool needed = (has_build && (probe_file_ || TracksBuildMatches())) || (probe_file_ && !EmitsPairsOnlyOnMatch());
    if (!needed) {
      probe_file_.reset();
      continue;
    }
    table_ = LoadPartition(context, *grace_, p);
    if (probe_file_) probe_file_->Rewind();
    build_matched_.assign(TracksBuildMatches() ? table_->rows.Count() : 0, 0);
    build_scan_ = 0;
    probe_done_ = false;
    have_probe_ = false;
    spilled_partitions_++;
    // The copy EXPLAIN ANALYZE asks may have probed no rows (its threads took
    // every morsel) or, sharing probe files, joined none itself.
    idx_t most = grace_->shared_partitions.load();
    while (most < spilled_partitions_ && !grace_->shared_partitions.compare_exchange_weak(most, spilled_partitions_)) {
    }
    return true;
  }
  grace_done_ = true;
  table_ = std::make_shared<Table>();  // empty: later calls find nothing to emit
  probe_spill_.reset();
  return false;
}

bool PhysicalHashJoin::NextProbeChunk(ExecutionContext& context) {
  if (!grace_) return children[0]->Next(context, probe_);
  return probe_file_ && probe_file_->Read(probe_);
}

}  // namespace lakestream
