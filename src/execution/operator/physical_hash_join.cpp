#include "execution/operator/physical_hash_join.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

#include "common/collection_gather.hpp"
#include "common/exception.hpp"
#include "execution/memory/memory_pool.hpp"
#include "execution/parallel/parallel_runner.hpp"

namespace lakestream {

// Key types stored inline in the hash table's entries (as int64).
static bool InlineKeyType(TypeId type) {
  return type == TypeId::BIGINT || type == TypeId::INTEGER || type == TypeId::DATE || type == TypeId::TIMESTAMP ||
         type == TypeId::TIMESTAMP_NTZ;
}

// A column of integer keys, read as int64 whatever its width.
class IntegerKeys {
 public:
  IntegerKeys() = default;
  explicit IntegerKeys(const Vector& keys) {
    if (keys.GetType().PhysicalSize() == sizeof(int64_t)) {
      wide_ = keys.GetData<int64_t>();
    } else {
      narrow_ = keys.GetData<int32_t>();
    }
  }
  int64_t operator[](idx_t row) const { return wide_ ? wide_[row] : narrow_[row]; }

 private:
  const int64_t* wide_ = nullptr;
  const int32_t* narrow_ = nullptr;
};

// The bloom tag bit of a hash in a bucket head (Table::heads): bits of the
// hash neither the bucket (low bits) nor the grace partition (top 6) use.
static inline uint64_t TagBit(uint64_t hash) { return uint64_t{1} << (48 + ((hash >> 40) & 15)); }
static constexpr uint64_t kHeadRowMask = 0xffffffffULL;

static std::vector<LogicalType> PairTypes(const PhysicalOperator& left, const PhysicalOperator& right) {
  return JoinOutputTypes(JoinKind::INNER, left.types, right.types);
}

PhysicalHashJoin::PhysicalHashJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, std::vector<BoundExprPtr> left_keys,
                                   std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, JoinKind kind)
    : PhysicalOperator(JoinOutputTypes(kind, left->types, right->types)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      residual_(std::move(residual)),
      kind_(kind),
      left_width_(left->types.size()),
      right_width_(right->types.size()),
      pair_types_(PairTypes(*left, *right)) {
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  for (auto& k : left_keys_) key_equal_.push_back(GetRowEqualFunction(k->return_type));
  children[0]->InitializeChunk(probe_);
  std::vector<LogicalType> key_types;
  for (auto& k : left_keys_) key_types.push_back(k->return_type);
  probe_keys_.Initialize(key_types);
  joined_.Initialize(pair_types_);
  pair_probe_.resize(STANDARD_VECTOR_SIZE);
  pair_build_.resize(STANDARD_VECTOR_SIZE);
}

std::string PhysicalHashJoin::Details() const {
  std::string d;
  for (idx_t i = 0; i < left_keys_.size(); i++) {
    d += (i ? " AND " : "") + left_keys_[i]->ToString() + (NullsEqual(i) ? " IS NOT DISTINCT FROM " : " = ") +
         right_keys_[i]->ToString();
  }
  if (residual_) d += " AND " + residual_->ToString();
  if (mark_condition_) d += " MARK " + mark_condition_->ToString();
  if (null_aware_) d += " (NULL-aware)";
  if (build_threads_ > 1) d += " [build: " + std::to_string(build_threads_) + " threads]";
  if (build_table_->direct) d += " [keys indexed directly]";
  // Partitions are joined by every copy of the join (one per thread): the
  // most any copy joined.
  idx_t spilled = spilled_partitions_;
  if (build_table_->grace) spilled = std::max<idx_t>(spilled, build_table_->grace->shared_partitions);
  if (spilled > 0) d += " [grace join: " + std::to_string(spilled) + " partitions from disk]";
  return d;
}


// The smallest and largest first key of the rows whose keys are all non-NULL
// (min > max: none).
static void InlineKeyRange(const ChunkCollection& rows, idx_t first_key, idx_t key_count, int64_t& min, int64_t& max) {
  min = 0;
  max = -1;
  bool any = false;
  for (idx_t c = 0; c < rows.ChunkCount(); c++) {
    const DataChunk& chunk = rows.Chunk(c);
    IntegerKeys keys(chunk.data[first_key]);
    for (idx_t r = 0; r < chunk.size(); r++) {
      bool valid = true;
      for (idx_t k = 0; k < key_count; k++) valid = valid && chunk.data[first_key + k].IsValid(r);
      if (!valid) continue;
      int64_t key = keys[r];
      min = any ? std::min(min, key) : key;
      max = any ? std::max(max, key) : key;
      any = true;
    }
  }
}

void PhysicalHashJoin::BuildIndex(ExecutionContext& context, Table& table, idx_t threads) const {
  idx_t rows = table.rows.Count();
  table.build_rows = rows;
  if (rows >= UINT32_MAX) throw NotImplementedError("hash join build side with more than 4 billion rows");
  // Inline keys have no NULL: not for IS NOT DISTINCT FROM keys.
  table.inline_key = !right_keys_.empty() && right_keys_.size() <= 2;
  for (idx_t k = 0; k < right_keys_.size(); k++) {
    table.inline_key = table.inline_key && InlineKeyType(right_keys_[k]->return_type.id()) && !NullsEqual(k);
  }
  if (table.inline_key) InlineKeyRange(table.rows, right_width_, right_keys_.size(), table.min_key, table.max_key);
  // One integer key whose values are dense (a primary key, most foreign-key
  // joins): the key itself, less the smallest, picks the bucket, as in
  // DuckDB's perfect hash join; nothing is hashed, on either side. Heads
  // beyond the two per row the reservation counted are reserved here.
  table.direct = false;
  if (table.inline_key && right_keys_.size() == 1 && table.min_key <= table.max_key) {
    // max - min as unsigned does not overflow; + 1 could (the whole int64 range).
    uint64_t widest = static_cast<uint64_t>(table.max_key) - static_cast<uint64_t>(table.min_key);
    if (widest < kDirectSpanPerRow * rows && widest < UINT32_MAX) {
      uint64_t span = widest + 1;
      uint64_t extra = span > 2 * rows ? (span - 2 * rows) * sizeof(uint64_t) : 0;
      table.direct = extra == 0 || table.reservation.Grow(extra);
      if (table.direct) table.span = span;
    }
  }
  idx_t buckets = 1;
  while (buckets < rows * 2) buckets <<= 1;
  table.mask = buckets - 1;
  table.heads.assign(table.direct ? table.span : buckets, 0);
  table.entries.assign(rows, Entry{0, 0, 0});
  if (table.inline_key && right_keys_.size() == 2) table.keys2.assign(rows, 0);
  const ChunkCollection& built = table.rows;
  table.column_data.assign(right_width_, {});
  table.column_validity.assign(right_width_, {});
  for (idx_t col = 0; col < right_width_; col++) {
    for (idx_t c = 0; c < built.ChunkCount(); c++) {
      table.column_data[col].push_back(built.Chunk(c).data[col].GetData<uint8_t>());
      table.column_validity[col].push_back(built.Chunk(c).data[col].Validity());
    }
  }
  const idx_t chunks = built.ChunkCount();
  // Below this many chunks per thread, starting threads costs more than it saves.
  static constexpr idx_t kChunksPerThread = 16;
  threads = std::max<idx_t>(1, std::min(threads, chunks / kChunksPerThread));
  std::vector<uint8_t> has_null(threads, 0);
  if (threads == 1) {
    IndexChunks(table, 0, chunks, false, has_null[0]);
  } else {
    // Threads take runs of chunks and link their rows into the shared buckets.
    static constexpr idx_t kChunksPerTask = 8;
    std::atomic<idx_t> next{0};
    RunParallel(context, threads, [&](idx_t t, ExecutionContext& local) {
      for (idx_t first = next.fetch_add(kChunksPerTask); first < chunks; first = next.fetch_add(kChunksPerTask)) {
        local.CheckInterrupt();
        IndexChunks(table, first, std::min(chunks, first + kChunksPerTask), true, has_null[t]);
      }
    });
  }
  for (uint8_t h : has_null) table.has_null_key = table.has_null_key || h;
}

void PhysicalHashJoin::IndexChunks(Table& table, idx_t first, idx_t end, bool atomic, uint8_t& has_null_key) const {
  const bool two_keys = !table.keys2.empty();
  std::vector<uint64_t> hashes(STANDARD_VECTOR_SIZE, 0);
  for (idx_t c = first; c < end; c++) {
    DataChunk& chunk = table.rows.Chunk(c);
    if (!table.direct) {
      for (idx_t k = 0; k < right_keys_.size(); k++) HashVector(chunk.data[right_width_ + k], chunk.size(), hashes.data(), k > 0);
    }
    IntegerKeys keys1, keys2;
    if (table.inline_key) keys1 = IntegerKeys(std::as_const(chunk).data[right_width_]);
    if (two_keys) keys2 = IntegerKeys(std::as_const(chunk).data[right_width_ + 1]);
    for (idx_t r = 0; r < chunk.size(); r++) {
      bool has_null = false;
      for (idx_t k = 0; k < right_keys_.size(); k++) has_null |= !NullsEqual(k) && !chunk.data[right_width_ + k].IsValid(r);
      if (has_null) {  // NULL never equals anything
        has_null_key = 1;
        continue;
      }
      idx_t row = c * STANDARD_VECTOR_SIZE + r;
      Entry& entry = table.entries[row];
      entry.hash = hashes[r];
      if (table.inline_key) {
        entry.key = keys1[r];
        if (two_keys) table.keys2[row] = keys2[r];
      }
      uint64_t bucket = hashes[r] & table.mask;
      uint64_t bits = TagBit(hashes[r]) | (row + 1);
      if (table.direct) {
        bucket = static_cast<uint64_t>(entry.key) - static_cast<uint64_t>(table.min_key);
        bits = row + 1;
      }
      uint64_t& head = table.heads[bucket];
      if (!atomic) {
        entry.next = static_cast<uint32_t>(head & kHeadRowMask);
        head = (head & ~kHeadRowMask) | bits;
        continue;
      }
      // Other threads link rows into this bucket at the same time.
      std::atomic_ref<uint64_t> shared(head);
      uint64_t old = shared.load(std::memory_order_relaxed);
      do {
        entry.next = static_cast<uint32_t>(old & kHeadRowMask);
      } while (!shared.compare_exchange_weak(old, (old & ~kHeadRowMask) | bits, std::memory_order_relaxed));
    }
  }
}

void PhysicalHashJoin::StartProbe(ExecutionContext& context) {
  ExpressionExecutor& executor = Executor(context);
  idx_t count = probe_.size();
  probe_keys_.Reset();
  for (idx_t k = 0; k < left_keys_.size(); k++) executor.Execute(*left_keys_[k], probe_, probe_keys_.data[k]);
  probe_keys_.SetCardinality(count);
  const Table& table = *table_;
  probe_hashes_.resize(count);
  if (table.direct) {
    std::fill(probe_hashes_.begin(), probe_hashes_.end(), 0);  // as the entries' (CollectPairs compares them)
  } else {
    for (idx_t k = 0; k < left_keys_.size(); k++) HashVector(probe_keys_.data[k], count, probe_hashes_.data(), k > 0);
  }
  probe_skip_.assign(count, 0);
  for (idx_t k = 0; k < left_keys_.size(); k++) {
    if (NullsEqual(k)) continue;
    const uint8_t* valid = probe_keys_.data[k].Validity();
    for (idx_t i = 0; i < count; i++) probe_skip_[i] |= !valid[i];
  }
  probe_heads_.resize(count);
  candidates_.resize(count);
  const uint64_t* heads = table.heads.data();
  idx_t candidates = 0;
  if (table.direct) {
    // The bucket is the key less the smallest build key; a key outside the
    // span, or NULL, meets nothing.
    IntegerKeys keys(std::as_const(probe_keys_).data[0]);
    const uint64_t min = static_cast<uint64_t>(table.min_key);
    const uint64_t span = table.span;
    if (span * sizeof(uint64_t) > (64 << 10)) {
      for (idx_t i = 0; i < count; i++) {
        uint64_t bucket = static_cast<uint64_t>(keys[i]) - min;
        if (bucket < span) __builtin_prefetch(&heads[bucket]);
      }
    }
    for (idx_t i = 0; i < count; i++) {
      uint64_t bucket = static_cast<uint64_t>(keys[i]) - min;
      bool in_span = (bucket < span) & !probe_skip_[i];
      uint64_t head = heads[in_span ? bucket : 0] & kHeadRowMask;
      bool hit = in_span & (head != 0);
      probe_heads_[i] = hit ? static_cast<uint32_t>(head) : 0;
      candidates_[candidates] = static_cast<sel_t>(i);
      candidates += hit;
    }
  } else {
    // Rows whose key lies outside the build keys' range skip the table.
    probe_out_of_range_.assign(count, 0);
    if (table.inline_key && table.min_key <= table.max_key) {
      IntegerKeys keys(std::as_const(probe_keys_).data[0]);
      for (idx_t i = 0; i < count; i++) probe_out_of_range_[i] = keys[i] < table.min_key || keys[i] > table.max_key;
    }
    // Load every row's bucket head before walking any chain, with prefetches,
    // so the cache misses of a chunk overlap instead of queueing up. A row
    // becomes a candidate when its bucket's tag has its bit.
    const uint64_t* hashes = probe_hashes_.data();
    const uint64_t mask = table.mask;
    if (table.heads.size() * sizeof(uint64_t) > (64 << 10)) {
      for (idx_t i = 0; i < count; i++) __builtin_prefetch(&heads[hashes[i] & mask]);
    }
    for (idx_t i = 0; i < count; i++) {
      uint64_t head = heads[hashes[i] & mask];
      bool hit = !(probe_skip_[i] | probe_out_of_range_[i]) & ((head & TagBit(hashes[i])) != 0);
      probe_heads_[i] = hit ? static_cast<uint32_t>(head & kHeadRowMask) : 0;
      candidates_[candidates] = static_cast<sel_t>(i);
      candidates += hit;
    }
  }
  candidates_.resize(candidates);
  for (idx_t c = 0; c < candidates; c++) __builtin_prefetch(&table.entries[probe_heads_[candidates_[c]] - 1]);
  matched_.assign(count, 0);
  if (kind_ == JoinKind::MARK) mark_null_.assign(count, 0);
  candidate_ = 0;
  row_started_ = false;
  have_probe_ = true;
}

idx_t PhysicalHashJoin::CollectPairs() {
  idx_t pairs = 0;
  idx_t key_count = left_keys_.size();
  bool existence_only = ExistenceOnly();
  // SEMI/ANTI/MARK: a row whose match is known needs no more pairs.
  bool skip_matched = kind_ == JoinKind::SEMI || kind_ == JoinKind::ANTI || (kind_ == JoinKind::MARK && !mark_condition_);
  const Table& table = *table_;
  const Entry* entries = table.entries.data();
  const int64_t* keys2 = table.keys2.empty() ? nullptr : table.keys2.data();
  IntegerKeys probe_keys, probe_keys2;
  if (table.inline_key) {
    probe_keys = IntegerKeys(std::as_const(probe_keys_).data[0]);
    if (keys2) probe_keys2 = IntegerKeys(std::as_const(probe_keys_).data[1]);
  }
  const idx_t candidates = candidates_.size();
  while (candidate_ < candidates && pairs < STANDARD_VECTOR_SIZE) {
    const idx_t probe_row = candidates_[candidate_];
    if (!row_started_) {
      chain_ = (skip_matched && matched_[probe_row]) ? 0 : probe_heads_[probe_row];
      row_started_ = true;
      if (!chain_) {
        candidate_++;
        row_started_ = false;
        continue;
      }
    }
    uint64_t hash = probe_hashes_[probe_row];
    if (table.inline_key) {
      int64_t probe_key = probe_keys[probe_row];
      int64_t probe_key2 = keys2 ? probe_keys2[probe_row] : 0;
      while (chain_ && pairs < STANDARD_VECTOR_SIZE) {
        uint32_t row = chain_ - 1;
        const Entry& entry = entries[row];
        chain_ = entry.next;
        if (entry.hash != hash || entry.key != probe_key || (keys2 && keys2[row] != probe_key2)) continue;
        if (existence_only) {
          matched_[probe_row] = 1;
          chain_ = 0;
          break;
        }
        pair_probe_[pairs] = static_cast<sel_t>(probe_row);
        pair_build_[pairs] = row;
        pairs++;
      }
    }
    while (chain_ && pairs < STANDARD_VECTOR_SIZE) {
      uint32_t row = chain_ - 1;
      chain_ = entries[row].next;
      if (entries[row].hash != hash) continue;
      const DataChunk& chunk = table.rows.Chunk(row / STANDARD_VECTOR_SIZE);
      idx_t offset = row % STANDARD_VECTOR_SIZE;
      bool equal = true;
      for (idx_t k = 0; k < key_count && equal; k++) {
        equal = key_equal_[k](probe_keys_.data[k], probe_row, chunk.data[right_width_ + k], offset);
      }
      if (!equal) continue;
      if (existence_only) {
        matched_[probe_row] = 1;
        chain_ = 0;
        break;
      }
      pair_probe_[pairs] = static_cast<sel_t>(probe_row);
      pair_build_[pairs] = row;
      pairs++;
    }
    if (!chain_) {
      candidate_++;
      row_started_ = false;
    }
  }
  return pairs;
}

void PhysicalHashJoin::GatherBuild(idx_t column, const uint32_t* rows, idx_t count, Vector& out) const {
  const Table& table = *table_;
  switch (out.GetType().id()) {
    case TypeId::BOOLEAN:
    case TypeId::INTEGER:
    case TypeId::DATE:
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::DOUBLE:
    case TypeId::DECIMAL:
    case TypeId::VARCHAR: {
      // Shares the ownership of the table, which holds every heap.
      std::shared_ptr<StringHeap> heaps(table_, &table_->heap_anchor);
      if (!GatherFlatColumn(table.column_data[column], table.column_validity[column], rows, count, out)) {
        throw InternalError("hash join gather of a " + out.GetType().ToString() + " column");
      }
      // Keep the build side's string bytes alive as long as `out` lives.
      if (out.GetType().id() == TypeId::VARCHAR) out.AddHeapReference(heaps);
      return;
    }
    default:
      for (idx_t i = 0; i < count; i++) {
        out.Copy(table.rows.Chunk(rows[i] / STANDARD_VECTOR_SIZE).data[column], nullptr, 1, rows[i] % STANDARD_VECTOR_SIZE, i);
      }
  }
}

void PhysicalHashJoin::EmitPairs(ExecutionContext& context, idx_t pairs, DataChunk& out) {
  if (EmitsBuildRowsOnly() && !residual_) {  // the keys decide: nothing to gather
    for (idx_t i = 0; i < pairs; i++) build_matched_[pair_build_[i]] = 1;
    out.Reset();
    return;
  }
  bool direct = EmitsPairs() && !residual_;
  DataChunk& target = direct ? out : joined_;
  target.Reset();
  // Every probe row once, in order (a key join meeting one build row each):
  // the probe columns are passed on, not copied.
  bool whole_probe = pairs == probe_.size();
  for (idx_t i = 0; i < pairs && whole_probe; i++) whole_probe = pair_probe_[i] == i;
  for (idx_t c = 0; c < left_width_; c++) {
    if (!left_needed_.empty() && !left_needed_[c]) {
      std::memset(target.data[c].Validity(), 0, pairs);
      continue;
    }
    if (whole_probe) {
      target.data[c].Reference(probe_.data[c], pairs);
    } else {
      target.data[c].Copy(probe_.data[c], pair_probe_.data(), pairs, 0, 0);
    }
  }
  for (idx_t c = 0; c < right_width_; c++) {
    if (!right_needed_.empty() && !right_needed_[c]) {
      std::memset(target.data[left_width_ + c].Validity(), 0, pairs);
      continue;
    }
    GatherBuild(c, pair_build_.data(), pairs, target.data[left_width_ + c]);
  }
  target.SetCardinality(pairs);
  if (direct && kind_ == JoinKind::INNER) return;  // nothing to remember about the pairs
  idx_t kept = pairs;
  if (residual_) {
    kept = Executor(context).Select(*residual_, joined_, sel_);
  } else {
    sel_.resize(pairs);
    for (idx_t i = 0; i < pairs; i++) sel_[i] = static_cast<sel_t>(i);
  }
  if (kind_ == JoinKind::MARK && mark_condition_) {
    // Three-valued OR of the mark condition over the kept pairs.
    Vector mark(TypeId::BOOLEAN, std::max<idx_t>(pairs, 1));
    Executor(context).Execute(*mark_condition_, joined_, mark);
    const bool* m = mark.GetData<bool>();
    for (idx_t i = 0; i < kept; i++) {
      sel_t p = sel_[i];
      if (!mark.IsValid(p)) {
        mark_null_[pair_probe_[p]] = 1;
      } else if (m[p]) {
        matched_[pair_probe_[p]] = 1;
      }
    }
  } else {
    for (idx_t i = 0; i < kept; i++) {
      uint8_t& m = matched_[pair_probe_[sel_[i]]];
      if (kind_ == JoinKind::SINGLE && m) throw InvalidInputError(SingleJoinError());
      m = 1;
    }
  }
  if (TracksBuildMatches()) {
    for (idx_t i = 0; i < kept; i++) build_matched_[pair_build_[sel_[i]]] = 1;
  }
  if (!EmitsPairs()) {
    out.Reset();
    return;
  }
  if (direct) return;
  out.Reset();
  out.Append(joined_, sel_.data(), kept);
}

void PhysicalHashJoin::EmitProbeRows(DataChunk& out) {
  out.Reset();
  std::vector<sel_t> rows;
  idx_t count = probe_.size();
  if (kind_ == JoinKind::MARK) {
    for (idx_t i = 0; i < count; i++) rows.push_back(static_cast<sel_t>(i));
  } else {
    bool want_matched = kind_ == JoinKind::SEMI;
    for (idx_t i = 0; i < count; i++) {
      if (static_cast<bool>(matched_[i]) == want_matched) rows.push_back(static_cast<sel_t>(i));
    }
  }
  idx_t n = rows.size();
  for (idx_t c = 0; c < left_width_; c++) out.data[c].Copy(probe_.data[c], rows.data(), n, 0, 0);
  if (kind_ == JoinKind::MARK) {
    Vector& mark = out.data[left_width_];
    bool* m = mark.GetData<bool>();
    bool build_empty = table_->build_rows == 0;
    for (idx_t i = 0; i < n; i++) {
      int value = MarkValue(matched_[i], mark_null_[i]);
      if (null_aware_ && value == 0 && !build_empty && (probe_skip_[i] || table_->has_null_key)) value = -1;
      mark.SetValid(i, value >= 0);
      m[i] = value == 1;
    }
  } else if (kind_ != JoinKind::SEMI && kind_ != JoinKind::ANTI) {
    for (idx_t c = 0; c < right_width_; c++) std::memset(out.data[left_width_ + c].Validity(), 0, n);
  }
  out.SetCardinality(n);
}

bool PhysicalHashJoin::EmitUnmatchedBuild(DataChunk& out) {
  out.Reset();
  std::vector<uint32_t> rows;
  idx_t total = table_->rows.Count();
  bool want_matched = kind_ == JoinKind::RIGHT_SEMI;
  while (build_scan_ < total && rows.size() < STANDARD_VECTOR_SIZE) {
    if (static_cast<bool>(build_matched_[build_scan_]) == want_matched) rows.push_back(static_cast<uint32_t>(build_scan_));
    build_scan_++;
  }
  idx_t n = rows.size();
  if (n == 0) return false;
  idx_t offset = EmitsBuildRowsOnly() ? 0 : left_width_;
  for (idx_t c = 0; c < offset; c++) std::memset(out.data[c].Validity(), 0, n);
  for (idx_t c = 0; c < right_width_; c++) GatherBuild(c, rows.data(), n, out.data[offset + c]);
  out.SetCardinality(n);
  return true;
}

bool PhysicalHashJoin::MergeBuildMatches() {
  Table& table = *build_table_;
  if (table.copies <= 1) return true;
  std::lock_guard<std::mutex> lock(table.mutex);
  if (table.matched.empty()) table.matched.assign(build_matched_.size(), 0);
  for (idx_t i = 0; i < build_matched_.size(); i++) table.matched[i] |= build_matched_[i];
  if (--table.probing > 0) return false;
  build_matched_ = std::move(table.matched);
  return true;
}

bool PhysicalHashJoin::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (grace_done_ || finished_) return false;
  if (!built_) {
    builder_->BuildOnce(context);
    build_matched_.assign(TracksBuildMatches() ? table_->rows.Count() : 0, 0);
    built_ = true;
    if (build_table_->grace) {
      grace_ = build_table_->grace;
      if (!PartitionProbe(context)) {
        finished_ = true;
        return false;
      }
      if (!NextGracePartition(context)) return false;
    }
  }
  while (true) {
    if (probe_done_) {
      if (TracksBuildMatches() && !grace_ && !matches_merged_) {
        matches_merged_ = true;
        if (!MergeBuildMatches()) {
          finished_ = true;
          return false;
        }
      }
      if (TracksBuildMatches() && EmitUnmatchedBuild(out)) return true;
      if (!NextGracePartition(context)) return false;
      continue;
    }
    if (!have_probe_) {
      context.CheckInterrupt();
      if (!NextProbeChunk(context)) {
        probe_done_ = true;
        continue;
      }
      if (probe_.size() == 0) continue;
      StartProbe(context);
    }
    idx_t pairs = CollectPairs();
    if (pairs > 0) {
      EmitPairs(context, pairs, out);
      if (out.size() > 0) return true;
      continue;
    }
    if (candidate_ < candidates_.size()) continue;  // existence checks moved the cursor without pairs
    // This probe chunk is exhausted.
    have_probe_ = false;
    if (kind_ != JoinKind::INNER && kind_ != JoinKind::RIGHT && !EmitsBuildRowsOnly()) {
      EmitProbeRows(out);
      if (out.size() > 0) return true;
    }
  }
}

}  // namespace lakestream
