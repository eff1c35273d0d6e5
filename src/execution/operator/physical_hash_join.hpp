// Hash join on equality keys (NULL keys never match, except for keys set to
// compare IS NOT DISTINCT FROM, where NULL meets NULL), of any JoinKind, with
// an optional residual predicate over the joined row. The right child is the
// build side: it is read fully into a chained hash table; the left child then
// streams through it, a chunk at a time, and each Next() emits up to
// STANDARD_VECTOR_SIZE rows. Output: JoinOutputTypes (join_kind.hpp).
// SEMI/ANTI/MARK stop walking a row's chain at its first match when no
// predicate other than the keys decides, so duplicate build keys cost nothing.
// A FULL or RIGHT join remembers which build rows matched and emits the
// others after the last probe chunk; RIGHT_SEMI/RIGHT_ANTI emit only then,
// the build rows that matched / did not. Copies of such a join probing in
// parallel (ShareBuild) each mark the build rows they matched; each ORs its
// marks into the table's when its probe input ends, and the last copy to end
// emits the build rows from the merged marks (the others emit none). In grace
// mode the copies write their probe rows to one set of partition files
// instead, and the last copy to finish joins every partition.
//
// Parallel build (SetBuildWorkers): when the build side is a chain over a
// table scan (execution/parallel/parallel_planning.hpp), copies of it read
// its morsels on several threads, each into rows of its own; the rows are
// merged (chunks moved, not copied) and the index is linked by those threads
// too, each bucket head swapped in with a compare-and-swap. The build rows'
// order, and so the order of the pairs, then varies from run to run.
//
// Grace hash join (SET memory_limit, docs/memory.md): the build reserves
// memory for its rows and index (MemoryReservation). When the pool refuses,
// the rows collected so far and every later build row go to 64 temp files by
// 6 bits of their key hash (GraceBuild); each probing copy of the join then
// sends its probe rows to 64 files of its own the same way, and joins
// partition by partition: partition p's build rows are loaded into a table
// (shared by the copies that probe at once), partition p's probe rows stream
// through it. Rows with equal keys meet in the same partition, so the
// answer is the in-memory one (in another order). A partition whose build
// rows alone exceed the limit, and build or probe rows with nested columns,
// fail with the out-of-memory error.
#pragma once

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"
#include "common/vector_operations.hpp"
#include "execution/operator/join_kind.hpp"

namespace lakestream {

class MorselSource;

class PhysicalHashJoin : public PhysicalOperator {
 public:
  PhysicalHashJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, std::vector<BoundExprPtr> left_keys,
                   std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, JoinKind kind);
  // MARK joins: the condition whose three-valued OR over the matching pairs is
  // the mark (null: any match), and whether the single key pair is an IN
  // comparison (a NULL key on either side makes a miss NULL rather than FALSE).
  void SetMark(BoundExprPtr mark_condition, bool null_aware) {
    mark_condition_ = std::move(mark_condition);
    null_aware_ = null_aware;
  }
  // Which keys compare IS NOT DISTINCT FROM (a decorrelated subquery's
  // correlated columns); empty: none.
  void SetNullsEqual(std::vector<bool> nulls_equal) { nulls_equal_ = std::move(nulls_equal); }
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "HASH_JOIN" + JoinKindSuffix(kind_); }
  bool HasResidual() const { return residual_ != nullptr; }
  // Output columns no operator above reads are left NULL instead of being
  // copied (empty vector: all needed).
  void SetNeededOutputs(std::vector<bool> left, std::vector<bool> right) {
    left_needed_ = std::move(left);
    right_needed_ = std::move(right);
  }
  std::string Details() const override;
  // Parallel pipelines: copies of this join may probe one build in several
  // threads, every kind (see the top of this file for FULL and RIGHT).
  bool ProbesInParallel() const { return true; }
  // This join (a worker's copy of `builder`) probes builder's table; only
  // builder's right child is read, once, by whichever copy needs it first.
  // Parallel build: `workers` are copies of the build side (children[1]),
  // planned from copies of its logical plan, whose table scans take morsels
  // from `morsels` as children[1]'s does; children[1] and the workers then
  // read the build side on as many threads, each into rows of its own,
  // merged before the index is built (over the same threads). Without
  // workers the build runs on the thread that needs it.
  void SetBuildWorkers(std::vector<PhysicalOperatorPtr> workers, std::shared_ptr<MorselSource> morsels) {
    build_workers_ = std::move(workers);
    build_morsels_ = std::move(morsels);
    build_threads_ = build_workers_.size() + 1;
  }
  void ShareBuild(PhysicalHashJoin& builder) {
    table_ = builder.build_table_;
    build_table_ = builder.build_table_;
    builder_ = &builder;
    build_table_->copies++;
    build_table_->probing++;
  }

 private:
  void Build(ExecutionContext& context);
  // What the threads of one build share (physical_hash_join_build.cpp).
  struct BuildSink;
  // Reads `source` (children[1] or a build worker) into `rows`, or into the
  // sink's partition files once the memory reservation refuses.
  void BuildFrom(ExecutionContext& context, PhysicalOperator& source, const std::vector<BoundExprPtr>& keys,
                 BuildSink& sink, ChunkCollection& rows);
  // Moves `rows` (build columns then keys) to the sink's partition files.
  void SpillBuildRows(ChunkCollection& rows, BuildSink& sink) const;
  // Prepares keys and hashes of a fresh probe chunk.
  void StartProbe(ExecutionContext& context);
  // Collects up to one vector of matching (probe row, build row) pairs.
  idx_t CollectPairs();
  // out[i] = build row rows[i] of build column `column`, for i < count.
  void GatherBuild(idx_t column, const uint32_t* rows, idx_t count, Vector& out) const;
  // Writes the collected pairs into `out`, applying the residual predicate.
  void EmitPairs(ExecutionContext& context, idx_t pairs, DataChunk& out);
  // Once a probe chunk is done: its rows a LEFT/FULL/SINGLE join pads, or
  // the rows a SEMI/ANTI join keeps, or every row with its MARK.
  void EmitProbeRows(DataChunk& out);
  // FULL/RIGHT/RIGHT_ANTI: the next chunk of build rows no probe row matched
  // (RIGHT_SEMI: that some probe row matched); false when done.
  bool EmitUnmatchedBuild(DataChunk& out);
  // SEMI/ANTI/MARK with nothing but the keys to check.
  bool ExistenceOnly() const {
    return (kind_ == JoinKind::SEMI || kind_ == JoinKind::ANTI || kind_ == JoinKind::MARK) && !residual_ &&
           !mark_condition_;
  }
  bool EmitsPairs() const {
    return kind_ == JoinKind::INNER || kind_ == JoinKind::LEFT || kind_ == JoinKind::FULL || kind_ == JoinKind::SINGLE ||
           kind_ == JoinKind::RIGHT;
  }
  // INNER, SEMI, RIGHT, RIGHT_SEMI: a probe row without a match gives nothing.
  bool EmitsPairsOnlyOnMatch() const {
    return kind_ == JoinKind::INNER || kind_ == JoinKind::SEMI || kind_ == JoinKind::RIGHT ||
           kind_ == JoinKind::RIGHT_SEMI || kind_ == JoinKind::RIGHT_ANTI;
  }
  bool TracksBuildMatches() const {
    return kind_ == JoinKind::FULL || kind_ == JoinKind::RIGHT || kind_ == JoinKind::RIGHT_SEMI ||
           kind_ == JoinKind::RIGHT_ANTI;
  }
  // RIGHT_SEMI/RIGHT_ANTI: only build rows come out, once probing is over.
  bool EmitsBuildRowsOnly() const { return kind_ == JoinKind::RIGHT_SEMI || kind_ == JoinKind::RIGHT_ANTI; }

  bool NullsEqual(idx_t key) const { return key < nulls_equal_.size() && nulls_equal_[key]; }

  std::vector<BoundExprPtr> left_keys_;
  std::vector<BoundExprPtr> right_keys_;
  std::vector<bool> nulls_equal_;
  BoundExprPtr residual_;
  JoinKind kind_;
  BoundExprPtr mark_condition_;
  bool null_aware_ = false;
  bool build_has_null_key_ = false;
  std::vector<uint8_t> build_matched_;  // TracksBuildMatches()
  idx_t build_scan_ = 0;                // TracksBuildMatches(): next build row to check once probing is over
  bool probe_done_ = false;
  idx_t left_width_;
  idx_t right_width_;
  std::vector<bool> left_needed_;
  std::vector<bool> right_needed_;


  bool built_ = false;
  // One entry per build row, so a chain step touches one cache line. For one
  // or two integer keys (the common foreign-key joins, and TPC-H's composite
  // partsupp key) the keys are stored inline, the second in `keys2`, and
  // compared without a call or a walk to the build chunk.
  struct Entry {
    uint64_t hash;
    int64_t key;
    uint32_t next;  // next build row + 1 in the chain
  };
  struct GraceBuild;
  // The build side's rows and hash table: this join's own, or shared with
  // the copies of the join in the other workers of a parallel pipeline
  // (ShareBuild), where the first worker to need it builds it.
  struct Table {
    std::mutex mutex;
    bool done = false;
    std::exception_ptr error;  // the build failed: every worker fails with it
    ChunkCollection rows;         // right columns + key columns
    // Bucket -> (build row + 1) of its chain's head in the low 32 bits, and
    // in the top 16 a bloom tag: bit TagBit(hash) of every row in the chain,
    // so most probe rows without a match stop at the bucket (as Umbra's
    // tagged pointers).
    std::vector<uint64_t> heads;
    std::vector<Entry> entries;
    bool inline_key = false;
    // Inline keys: the first key's smallest and largest build value; probe
    // keys outside skip the table.
    int64_t min_key = 0;
    int64_t max_key = -1;
    std::vector<int64_t> keys2;  // two inline keys: the second key of each build row
    // One inline key spanning at most kDirectSpanPerRow buckets per row: the
    // bucket of key k is k - min_key (heads has `span` of them, without
    // tags) and no hash is computed (the entries' and probes' are 0).
    bool direct = false;
    uint64_t span = 0;
    uint64_t mask = 0;
    bool has_null_key = false;
    // Per build column, each chunk's values and validity bytes: a gather
    // reads a row's value with two loads instead of walking chunk and vector.
    std::vector<std::vector<const uint8_t*>> column_data;
    std::vector<std::vector<const uint8_t*>> column_validity;
    // Stands for the table's string heaps in gathered vectors (their handle
    // owns the table, see Vector::AddHeapReference).
    StringHeap heap_anchor;
    MemoryReservation reservation;  // rows and index
    // Build rows in all (with the grace partitions: of all partitions).
    idx_t build_rows = 0;
    std::shared_ptr<GraceBuild> grace;  // set when the build spilled
    // The copies of the join probing this table (ShareBuild), those still
    // probing, and the build rows any finished copy matched (TracksBuildMatches).
    idx_t copies = 1;
    idx_t probing = 1;
    std::vector<uint8_t> matched;
  };
  // TracksBuildMatches() with copies: ORs this copy's marks into the table's;
  // true for the last copy to finish, whose build_matched_ becomes the merge.
  bool MergeBuildMatches();
  void BuildOnce(ExecutionContext& context);
  // The chained index over table.rows (after they are all there), on
  // `threads` threads (the caller's and threads - 1 started for it).
  void BuildIndex(ExecutionContext& context, Table& table, idx_t threads = 1) const;
  void IndexChunks(Table& table, idx_t first, idx_t end, bool atomic, uint8_t& has_null_key) const;
  // Grace mode (see the top of this file).
  static constexpr idx_t kGracePartitions = 64;
  static constexpr uint64_t kDirectSpanPerRow = 8;
  // Index bytes per build row: its Entry, about two bucket heads, a second key.
  static constexpr uint64_t kIndexBytesPerRow = sizeof(Entry) + sizeof(uint64_t) * 2 + sizeof(int64_t);
  struct GraceBuild {
    std::vector<std::unique_ptr<SpillFile>> files;  // build rows by partition (null: none)
    std::mutex mutex;
    std::vector<std::weak_ptr<Table>> loaded;  // partition tables some copy is probing
    std::vector<LogicalType> types;  // build columns, then key columns
    bool has_null_key = false;
    idx_t rows = 0;
    // TracksBuildMatches() with copies: every copy's probe rows, and the
    // copies still partitioning theirs.
    std::unique_ptr<PartitionedSpill> shared_probe;
    idx_t partitioning = 0;
    std::atomic<idx_t> shared_partitions{0};  // the most partitions one copy joined (EXPLAIN ANALYZE)
  };
  // Whether a row of `chunk` (build columns then keys) has a NULL key that never matches.
  bool HasNullKey(const DataChunk& chunk) const;
  // Partition of each row of `keys` (hashes left in `hashes`).
  void GracePartitions(DataChunk& keys, idx_t key_offset, idx_t count, std::vector<uint64_t>& hashes,
                       std::vector<uint32_t>& partitions) const;
  // Partition p's build table, loaded by the first copy that asks.
  std::shared_ptr<Table> LoadPartition(ExecutionContext& context, GraceBuild& grace, idx_t p);
  // Sends every probe row to this copy's partition files (the shared ones
  // when copies track build matches); false when another copy joins them.
  bool PartitionProbe(ExecutionContext& context);
  // Moves to the next partition (false when none is left).
  bool NextGracePartition(ExecutionContext& context);
  // The next probe chunk: from the left child, or the current partition's file.
  bool NextProbeChunk(ExecutionContext& context);

  // The table probed: build_table_, or in grace mode the current partition's.
  std::shared_ptr<Table> table_ = std::make_shared<Table>();
  std::shared_ptr<Table> build_table_ = table_;  // what Build fills; never replaced
  PhysicalHashJoin* builder_ = this;  // the join whose right child fills table_
  std::vector<PhysicalOperatorPtr> build_workers_;  // SetBuildWorkers
  std::shared_ptr<MorselSource> build_morsels_;
  idx_t build_threads_ = 1;  // the threads reading the build side (EXPLAIN)
  std::vector<row_equal_t> key_equal_;

  // Probe state, kept across Next() calls.
  bool have_probe_ = false;
  DataChunk probe_;
  DataChunk probe_keys_;
  std::vector<uint64_t> probe_hashes_;
  std::vector<uint8_t> probe_skip_;  // a NULL key: never matches
  std::vector<uint8_t> probe_out_of_range_;  // the key is outside the build keys' range
  std::vector<uint32_t> probe_heads_;  // first chain entry of each probe row, loaded with prefetching
  std::vector<sel_t> candidates_;      // probe rows whose bucket may hold their key, in order
  idx_t candidate_ = 0;                // the next of them to walk
  std::vector<uint8_t> matched_;     // per probe row: pairs kept (SINGLE counts to 2)
  std::vector<uint8_t> mark_null_;   // MARK: the mark condition was NULL for a pair
  bool row_started_ = false;
  uint32_t chain_ = 0;
  std::vector<sel_t> pair_probe_;
  std::vector<uint32_t> pair_build_;
  DataChunk joined_;  // pairs before the residual predicate
  std::vector<sel_t> sel_;
  std::vector<LogicalType> pair_types_;  // left then right columns

  // Grace mode, per probing copy.
  std::shared_ptr<GraceBuild> grace_;
  std::unique_ptr<PartitionedSpill> probe_spill_;
  idx_t grace_partition_ = 0;  // the partition being joined + 1 (0: none yet)
  std::unique_ptr<SpillFile> probe_file_;  // its probe rows
  idx_t spilled_partitions_ = 0;           // for EXPLAIN ANALYZE
  bool grace_done_ = false;
  bool matches_merged_ = false;
  bool finished_ = false;  // another copy emits the unmatched build rows
};

}  // namespace lakestream
