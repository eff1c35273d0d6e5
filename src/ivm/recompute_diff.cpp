#include "ivm/recompute_diff.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/vector_operations.hpp"
#include "ivm/view_diff.hpp"

namespace lakestream {

static constexpr uint32_t kEnd = ~uint32_t(0);   // end of a chain
static constexpr uint32_t kMatched = kEnd - 1;    // next_: a stored row took this recomputed row
static constexpr uint32_t kPaired = kEnd - 2;     // next_: an update (or an equal row of its key) took it

// Values of the types GetRowEqualFunction compares by their bits equal
// exactly as EncodeRow sees them (DOUBLE: -0.0 = 0.0, NaN = NaN); the others
// (nested, INTERVAL) are compared by their encodings, the diff's own rule.
static bool ComparedByBits(TypeId id) {
  switch (id) {
    case TypeId::BOOLEAN:
    case TypeId::INTEGER:
    case TypeId::BIGINT:
    case TypeId::DOUBLE:
    case TypeId::DECIMAL:
    case TypeId::VARCHAR:
    case TypeId::DATE:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return true;
    default: return false;
  }
}

static bool EncodedEqual(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  std::string x, y;
  AppendVectorValue(a, ra, x);
  AppendVectorValue(b, rb, y);
  return x == y;
}

// `rows` in the layout RecomputeDiff relies on (every chunk full but the
// last) and in `types`; the executor's chunks are moved, not copied, when
// they already are.
static ChunkCollection Conformed(ChunkCollection rows, const std::vector<LogicalType>& types) {
  bool same = rows.Types() == types;
  bool packed = true;
  for (idx_t k = 0; k + 1 < rows.ChunkCount(); k++) packed = packed && rows.Chunk(k).size() == STANDARD_VECTOR_SIZE;
  if (same && packed) return rows;
  ChunkCollection out(types);
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    DataChunk& chunk = rows.Chunk(k);
    if (same) {
      out.Append(chunk);
    } else {
      DataChunk cast;
      cast.Initialize(types, chunk.size());
      for (idx_t c = 0; c < types.size(); c++) CastVector(chunk.data[c], cast.data[c], chunk.size());
      cast.SetCardinality(chunk.size());
      out.Append(cast);
    }
    chunk = DataChunk();  // freed as it goes: the result is not held twice
  }
  return out;
}

// The rows `rows` (positions: row p in chunk p / STANDARD_VECTOR_SIZE) of `from`, in that order.
static ChunkCollection GatherRows(const ChunkCollection& from, const std::vector<uint32_t>& rows) {
  ChunkCollection out(from.Types());
  DataChunk part;
  part.Initialize(from.Types());
  std::vector<sel_t> sel;
  for (idx_t i = 0; i < rows.size();) {
    idx_t k = rows[i] / STANDARD_VECTOR_SIZE;
    sel.clear();
    while (i < rows.size() && rows[i] / STANDARD_VECTOR_SIZE == k && part.size() + sel.size() < STANDARD_VECTOR_SIZE) {
      sel.push_back(static_cast<sel_t>(rows[i] % STANDARD_VECTOR_SIZE));
      i++;
    }
    part.Append(from.Chunk(k), sel.data(), sel.size());
    if (part.size() == STANDARD_VECTOR_SIZE) {
      out.Append(part);
      part.Reset();
    }
  }
  if (part.size() > 0) out.Append(part);
  return out;
}

RecomputeDiff::RecomputeDiff(std::vector<LogicalType> types, ChunkCollection fresh, std::vector<idx_t> key_columns)
    : types_(std::move(types)), key_columns_(std::move(key_columns)), kept_(types_) {
  for (auto& type : types_) equal_.push_back(ComparedByBits(type.id()) ? GetRowEqualFunction(type) : EncodedEqual);
  fresh_ = Conformed(std::move(fresh), types_);
  idx_t count = fresh_.Count();
  if (count >= kPaired) {
    throw NotImplementedError("a view's recomputed result of " + std::to_string(count) +
                              " rows is past what REFRESH ... FULL diffs (4 billion rows); recreate the view instead");
  }
  hashes_.resize(count);
  for (idx_t k = 0; k < fresh_.ChunkCount(); k++) HashRows(fresh_.Chunk(k), {}, hashes_.data() + k * STANDARD_VECTOR_SIZE);
  // A power of two of at least as many buckets as rows: chains of ~1.
  uint64_t buckets = std::bit_ceil(std::max<uint64_t>(count, 1024));
  mask_ = buckets - 1;
  heads_.assign(buckets, kEnd);
  next_.resize(count);
  // Last row first, so equal rows chain in the result's order (the first copy is taken first).
  for (idx_t g = count; g-- > 0;) {
    uint32_t& head = heads_[hashes_[g] & mask_];
    next_[g] = head;
    head = static_cast<uint32_t>(g);
  }
}

void RecomputeDiff::HashRows(const DataChunk& chunk, const std::vector<idx_t>& columns, uint64_t* hashes) const {
  // HashVector's hash agrees with the diff's equality: equal values (NULLs,
  // -0.0 and 0.0, NaNs, nested values encoded alike) hash alike.
  if (columns.empty()) {
    for (idx_t c = 0; c < chunk.ColumnCount(); c++) HashVector(chunk.data[c], chunk.size(), hashes, c > 0);
    return;
  }
  for (idx_t i = 0; i < columns.size(); i++) HashVector(chunk.data[columns[i]], chunk.size(), hashes, i > 0);
}

bool RecomputeDiff::RowsEqual(const DataChunk& a, idx_t ra, const DataChunk& b, idx_t rb,
                              const std::vector<idx_t>& columns) const {
  if (columns.empty()) {
    for (idx_t c = 0; c < a.ColumnCount(); c++) {
      if (!equal_[c](a.data[c], ra, b.data[c], rb)) return false;
    }
    return true;
  }
  for (idx_t c : columns) {
    if (!equal_[c](a.data[c], ra, b.data[c], rb)) return false;
  }
  return true;
}

idx_t RecomputeDiff::MatchStored(const DataChunk& chunk, const int64_t* ids) {
  uint64_t hashes[STANDARD_VECTOR_SIZE];
  HashRows(chunk, {}, hashes);
  std::vector<sel_t> left;
  for (idx_t r = 0; r < chunk.size(); r++) {
    uint64_t h = hashes[r];
    uint32_t* link = &heads_[h & mask_];
    bool matched = false;
    for (uint32_t g = *link; g != kEnd; g = *link) {
      if (hashes_[g] == h && RowsEqual(chunk, r, FreshChunk(g), g % STANDARD_VECTOR_SIZE, {})) {
        *link = next_[g];  // out of its chain: no other stored row takes it
        next_[g] = kMatched;
        matched = true;
        break;
      }
      link = &next_[g];
    }
    if (!matched) {
      left.push_back(static_cast<sel_t>(r));
      kept_ids_.push_back(ids[r]);
    }
  }
  AppendSelected(kept_, chunk, left);
  return left.size();
}

// (hash, row) sorted; true when two rows of one hash are equal in `columns`.
template <class Equal>
static bool HasRepeat(const std::vector<std::pair<uint64_t, uint32_t>>& sorted, Equal row_equal) {
  for (idx_t i = 0; i < sorted.size();) {
    idx_t end = i + 1;
    while (end < sorted.size() && sorted[end].first == sorted[i].first) end++;
    for (idx_t a = i; a < end; a++) {
      for (idx_t b = a + 1; b < end; b++) {
        if (row_equal(sorted[a].second, sorted[b].second)) return true;
      }
    }
    i = end;
  }
  return false;
}

std::vector<std::pair<uint64_t, uint32_t>> RecomputeDiff::KeyHashes(const ChunkCollection& rows) const {
  std::vector<std::pair<uint64_t, uint32_t>> out(rows.Count());
  uint64_t hashes[STANDARD_VECTOR_SIZE];
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    const DataChunk& chunk = rows.Chunk(k);
    HashRows(chunk, key_columns_, hashes);
    for (idx_t r = 0; r < chunk.size(); r++) {
      idx_t row = k * STANDARD_VECTOR_SIZE + r;
      out[row] = {hashes[r], static_cast<uint32_t>(row)};
    }
  }
  return out;
}

bool RecomputeDiff::PairByKey(std::vector<std::pair<uint32_t, uint32_t>>& pairs) const {
  // Keys unique among the recomputed rows. Then every stored row another
  // matched whole holds its partner's key, unique too; a kept stored row's
  // key must be neither a matched row's nor another kept row's.
  std::vector<std::pair<uint64_t, uint32_t>> fresh_keys = KeyHashes(fresh_);
  std::sort(fresh_keys.begin(), fresh_keys.end());
  auto fresh_equal = [&](uint32_t a, uint32_t b) {
    return RowsEqual(FreshChunk(a), a % STANDARD_VECTOR_SIZE, FreshChunk(b), b % STANDARD_VECTOR_SIZE, key_columns_);
  };
  if (HasRepeat(fresh_keys, fresh_equal)) return false;
  std::vector<std::pair<uint64_t, uint32_t>> kept_keys = KeyHashes(kept_);
  auto kept_chunk = [&](uint32_t i) -> const DataChunk& { return kept_.Chunk(i / STANDARD_VECTOR_SIZE); };
  std::vector<std::pair<uint64_t, uint32_t>> by_hash = kept_keys;
  std::sort(by_hash.begin(), by_hash.end());
  if (HasRepeat(by_hash, [&](uint32_t a, uint32_t b) {
        return RowsEqual(kept_chunk(a), a % STANDARD_VECTOR_SIZE, kept_chunk(b), b % STANDARD_VECTOR_SIZE, key_columns_);
      })) {
    return false;
  }
  for (auto [hash, i] : kept_keys) {
    auto it = std::lower_bound(fresh_keys.begin(), fresh_keys.end(), std::make_pair(hash, uint32_t(0)));
    for (; it != fresh_keys.end() && it->first == hash; ++it) {
      uint32_t g = it->second;
      if (!RowsEqual(kept_chunk(i), i % STANDARD_VECTOR_SIZE, FreshChunk(g), g % STANDARD_VECTOR_SIZE, key_columns_)) continue;
      if (next_[g] == kMatched) return false;  // the key is also a stored row's that matched whole
      pairs.emplace_back(i, g);
      break;
    }
  }
  return true;
}

void RecomputeDiff::Finish(TableCommit& commit, ChunkCollection* removed) {
  heads_ = std::vector<uint32_t>();
  hashes_ = std::vector<uint64_t>();
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  if (!key_columns_.empty() && kept_.Count() > 0 && !PairByKey(pairs)) pairs.clear();
  // A pair whose rows Value::Compare finds equal is no change (as DiffRows);
  // the others are updates, by the row id they replace.
  std::vector<bool> kept_paired(kept_.Count(), false);
  std::vector<std::pair<row_t, std::pair<uint32_t, uint32_t>>> updates;  // (row id, (kept, recomputed))
  for (auto [i, g] : pairs) {
    kept_paired[i] = true;
    next_[g] = kPaired;
    const DataChunk& old_chunk = kept_.Chunk(i / STANDARD_VECTOR_SIZE);
    const DataChunk& new_chunk = FreshChunk(g);
    bool same = true;
    for (idx_t c = 0; c < types_.size() && same; c++) {
      same = old_chunk.GetValue(c, i % STANDARD_VECTOR_SIZE).Compare(new_chunk.GetValue(c, g % STANDARD_VECTOR_SIZE)) == 0;
    }
    if (!same) updates.push_back({kept_ids_[i], {i, g}});
  }
  std::sort(updates.begin(), updates.end());
  std::vector<uint32_t> removed_rows, updated_rows, inserted_rows;
  for (uint32_t i = 0; i < kept_ids_.size(); i++) {
    if (kept_paired[i]) continue;
    commit.deleted_rows.push_back(kept_ids_[i]);
    removed_rows.push_back(i);
  }
  for (auto& [id, rows] : updates) {
    commit.updated_row_ids.push_back(id);
    removed_rows.push_back(rows.first);
    updated_rows.push_back(rows.second);
  }
  commit.updated = GatherRows(fresh_, updated_rows);
  for (uint32_t g = 0; g < next_.size(); g++) {
    if (next_[g] != kMatched && next_[g] != kPaired) inserted_rows.push_back(g);
  }
  next_ = std::vector<uint32_t>();
  if (inserted_rows.size() == fresh_.Count()) {
    commit.inserted = std::move(fresh_);  // every row is new (a view's first fill): no copy
  } else {
    commit.inserted = GatherRows(fresh_, inserted_rows);
  }
  fresh_ = ChunkCollection(types_);
  if (removed) *removed = removed_rows.size() == kept_.Count() && updates.empty() ? std::move(kept_) : GatherRows(kept_, removed_rows);
  kept_ = ChunkCollection(types_);
}

void DiffViewAgainstResult(DataTable& view, const std::vector<LogicalType>& types, ChunkCollection fresh,
                           const std::vector<idx_t>& key_columns, bool keep_files, TableCommit& commit,
                           DeltaFileRows& read, ChunkCollection* removed) {
  RecomputeDiff diff(types, std::move(fresh), key_columns);
  ScanView(view, types, keep_files ? &read : nullptr,
           [&](const DataChunk& chunk, const int64_t* ids) { return diff.MatchStored(chunk, ids) > 0; });
  diff.Finish(commit, removed);
}

}  // namespace lakestream
