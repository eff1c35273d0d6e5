// The build side of the hash join (see physical_hash_join.hpp): read on one
// thread, or on several when the planner gave the join build workers
// (SetBuildWorkers), each thread collecting rows of its own.
#include <algorithm>
#include <utility>

#include "common/exception.hpp"
#include "execution/memory/memory_pool.hpp"
#include "execution/operator/physical_hash_join.hpp"
#include "execution/parallel/parallel_planning.hpp"
#include "execution/parallel/parallel_runner.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

struct PhysicalHashJoin::BuildSink {
  std::vector<LogicalType> types;  // build columns, then key columns
  bool can_spill = false;
  // Guards the rest, and the table's reservation.
  std::mutex mutex;
  idx_t collected_rows = 0;                 // rows the reservation took (for the out-of-memory error)
  std::unique_ptr<PartitionedSpill> spill;  // set once the reservation refused
  idx_t spilled_rows = 0;
  bool spilled_null_key = false;
};

// Appends the chunks of `parts` to `rows`, moving the full ones first and
// copying the few partial ones after, so that row r stays in chunk
// r / STANDARD_VECTOR_SIZE (what BuildIndex and the gathers assume).
static void MergeRows(std::vector<ChunkCollection>& parts, ChunkCollection& rows) {
  std::vector<std::unique_ptr<DataChunk>> partial;
  for (auto& part : parts) {
    for (auto& chunk : part.TakeChunks()) {
      if (chunk->size() == STANDARD_VECTOR_SIZE) {
        rows.Append(std::move(*chunk));
      } else if (chunk->size() > 0) {
        partial.push_back(std::move(chunk));
      }
    }
  }
  for (auto& chunk : partial) rows.Append(static_cast<const DataChunk&>(*chunk));
}

void PhysicalHashJoin::Build(ExecutionContext& context) {
  BuildSink sink;
  sink.types = children[1]->types;
  for (auto& k : right_keys_) sink.types.push_back(k->return_type);
  build_table_->rows.SetTypes(sink.types);
  if (context.memory) build_table_->reservation.Attach(context.memory);
  sink.can_spill = context.spill && CanSpill(sink.types) && CanSpill(children[0]->types);
  const idx_t threads = build_workers_.size() + 1;
  if (threads == 1) {
    BuildFrom(context, *children[1], right_keys_, sink, build_table_->rows);
  } else {
    // Each thread evaluates its own copy of the keys into rows of its own.
    std::vector<std::vector<BoundExprPtr>> keys(threads);
    for (idx_t t = 1; t < threads; t++) {
      for (auto& k : right_keys_) keys[t].push_back(k->Copy());
    }
    std::vector<ChunkCollection> parts(threads);
    RunParallel(
        context, threads,
        [&](idx_t t, ExecutionContext& local) {
          parts[t].SetTypes(sink.types);
          BuildFrom(local, t == 0 ? *children[1] : *build_workers_[t - 1], t == 0 ? right_keys_ : keys[t], sink,
                    parts[t]);
        },
        [this] { build_morsels_->Cancel(); });
    if (sink.spill) {
      // Threads that finished before the spill began still hold their rows.
      for (auto& part : parts) SpillBuildRows(part, sink);
    } else {
      MergeRows(parts, build_table_->rows);
    }
  }
  build_workers_.clear();  // their scans are done; free their scratch now
  if (sink.spill) {
    auto grace = std::make_shared<GraceBuild>();
    for (idx_t p = 0; p < kGracePartitions; p++) grace->files.push_back(sink.spill->Take(p));
    grace->loaded.resize(kGracePartitions);
    grace->rows = sink.spilled_rows;
    grace->types = sink.types;
    grace->has_null_key = sink.spilled_null_key;
    build_table_->grace = std::move(grace);
    build_table_->build_rows = sink.spilled_rows;
    return;
  }
  // The index is built on every thread the statement may use, whether or not
  // the rows were read on several.
  BuildIndex(context, *build_table_, std::max(threads, context.client ? ThreadCount(*context.client) : 1));
}

void PhysicalHashJoin::BuildFrom(ExecutionContext& context, PhysicalOperator& source,
                                 const std::vector<BoundExprPtr>& keys, BuildSink& sink, ChunkCollection& rows) {
  ExpressionExecutor executor(context.function_context);
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> partitions;
  DataChunk input, combined;
  source.InitializeChunk(input);
  combined.Initialize(sink.types);
  while (source.Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    combined.Reset();
    for (idx_t c = 0; c < right_width_; c++) combined.data[c].Reference(input.data[c], input.size());
    for (idx_t k = 0; k < keys.size(); k++) executor.Execute(*keys[k], input, combined.data[right_width_ + k]);
    combined.SetCardinality(input.size());
    uint64_t bytes = ChunkBytes(combined) + combined.size() * kIndexBytesPerRow;
    std::unique_lock<std::mutex> lock(sink.mutex);
    if (!sink.spill) {
      if (build_table_->reservation.Grow(bytes)) {
        sink.collected_rows += combined.size();
        lock.unlock();
        rows.Append(combined);
        continue;
      }
      if (!sink.can_spill) {
        ThrowOutOfMemory("HASH_JOIN build side (" + std::to_string(sink.collected_rows) + " rows so far)", bytes,
                         context.memory.get(),
                         context.spill ? "not supported yet: spilling rows with STRUCT, LIST or MAP columns" : "");
      }
      sink.spill = std::make_unique<PartitionedSpill>(context.spill, sink.types, kGracePartitions, "join-build");
      // Every thread's rows go to the files (each moves its own at its next chunk).
      build_table_->reservation.Reset();
    }
    SpillBuildRows(rows, sink);
    GracePartitions(combined, right_width_, combined.size(), hashes, partitions);
    sink.spill->Append(combined, nullptr, partitions.data(), combined.size());
    sink.spilled_rows += combined.size();
    sink.spilled_null_key = sink.spilled_null_key || HasNullKey(combined);
  }
}

void PhysicalHashJoin::SpillBuildRows(ChunkCollection& rows, BuildSink& sink) const {
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> partitions;
  for (idx_t c = 0; c < rows.ChunkCount(); c++) {
    DataChunk& chunk = rows.Chunk(c);
    GracePartitions(chunk, right_width_, chunk.size(), hashes, partitions);
    sink.spill->Append(chunk, nullptr, partitions.data(), chunk.size());
    sink.spilled_rows += chunk.size();
    sink.spilled_null_key = sink.spilled_null_key || HasNullKey(chunk);
  }
  rows.Clear();
}

bool PhysicalHashJoin::HasNullKey(const DataChunk& chunk) const {
  for (idx_t k = 0; k < right_keys_.size(); k++) {
    if (NullsEqual(k)) continue;
    const uint8_t* valid = chunk.data[right_width_ + k].Validity();
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (!valid[r]) return true;
    }
  }
  return false;
}

void PhysicalHashJoin::BuildOnce(ExecutionContext& context) {
  // The other workers wait here while one builds: they have nothing to probe before.
  std::lock_guard<std::mutex> lock(build_table_->mutex);
  if (build_table_->error) std::rethrow_exception(build_table_->error);
  if (build_table_->done) return;
  try {
    Build(context);
    build_table_->done = true;
  } catch (...) {
    build_table_->error = std::current_exception();
    throw;
  }
}

}  // namespace lakestream
