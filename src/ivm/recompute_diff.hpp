// The diff behind recompute-and-diff refreshes (REFRESH ... FULL, views the
// delta rules do not cover, recovery, CREATE's first fill): what turns the
// rows a view holds into its query's whole result, worked out on columns.
//
// The same answer as DiffRows (view_diff.hpp) over Value rows, without
// building them: the recomputed rows stay the executor's chunks, with per
// row a 64-bit hash and a 32-bit chain link (plus 4-8 bytes of bucket heads);
// the stored rows stream past chunk by chunk, each matched at once against
// an equal recomputed row not taken yet (same hash, then equal column by
// column), so of them only the ones left unmatched (the removals) are kept.
// A 10M-row join view's REFRESH ... FULL ran in 0.65 GB, where Value rows
// of both sides took 10.3 GB (docs/views.md).
//
// Equality is the diff's (EncodeRow's): NULL equals NULL, DOUBLE -0.0 equals
// 0.0 and every NaN equals every NaN, DECIMAL by unscaled value (one scale
// per column), strings byte by byte, nested and INTERVAL values as
// AppendVectorValue encodes them.
#pragma once

#include <cstdint>
#include <vector>

#include "storage/data_table.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

class RecomputeDiff {
 public:
  // `fresh`: the view's query run in full (converted to `types`, the view's
  // columns, when its types differ). With `key_columns` (GROUP BY keys),
  // a stored and a recomputed row of one key whose other values differ
  // become an update, as DiffRows pairs them (not when a key repeats on
  // either side). Throws NotImplementedError past 4G recomputed rows.
  RecomputeDiff(std::vector<LogicalType> types, ChunkCollection fresh, std::vector<idx_t> key_columns);

  // Matches the stored rows of `chunk` (the view's columns; row ids `ids`):
  // each takes one equal recomputed row not taken yet, or is kept as a
  // removal. Returns how many were kept.
  idx_t MatchStored(const DataChunk& chunk, const int64_t* ids);

  // Adds the diff to `commit` (deletes in the order the stored rows came,
  // updates by the row id they replace, inserts in the result's order);
  // `removed` (may be null): the removed rows' values, deleted then
  // updated, as KnownRemovedRows wants them. Call once, after every stored row.
  void Finish(TableCommit& commit, ChunkCollection* removed);

 private:
  // hashes[i] = the hash of row i of `chunk`'s `columns` (all when empty), for i < count.
  void HashRows(const DataChunk& chunk, const std::vector<idx_t>& columns, uint64_t* hashes) const;
  // Row ra of `a` equals row rb of `b` in `columns` (all when empty), as the diff sees values.
  bool RowsEqual(const DataChunk& a, idx_t ra, const DataChunk& b, idx_t rb, const std::vector<idx_t>& columns) const;
  const DataChunk& FreshChunk(uint32_t row) const { return fresh_.Chunk(row / STANDARD_VECTOR_SIZE); }
  // (hash of key_columns_, position) of every row of `rows`, in order.
  std::vector<std::pair<uint64_t, uint32_t>> KeyHashes(const ChunkCollection& rows) const;
  // Pairs kept stored rows with unmatched recomputed rows of the same key:
  // (kept index, recomputed row); false when a key repeats on either side.
  bool PairByKey(std::vector<std::pair<uint32_t, uint32_t>>& pairs) const;

  using equal_t = bool (*)(const Vector& a, idx_t ra, const Vector& b, idx_t rb);
  std::vector<LogicalType> types_;
  std::vector<idx_t> key_columns_;
  std::vector<equal_t> equal_;  // per column
  ChunkCollection fresh_;       // row g in chunk g / STANDARD_VECTOR_SIZE
  std::vector<uint64_t> hashes_;  // per recomputed row
  // Chains of recomputed rows not matched yet, by hash & mask_: heads_ per
  // bucket, next_ per row (kMatched once a stored row took it).
  std::vector<uint32_t> heads_, next_;
  uint64_t mask_ = 0;
  ChunkCollection kept_;       // stored rows no recomputed row matched, in the order they came
  std::vector<row_t> kept_ids_;
};

// Diffs `view` (scanned in full) against `fresh` into `commit` (see
// RecomputeDiff). With `keep_files` (a view that removes rows by rewriting
// its files), the whole files that hold a removed row go to `read` for the
// commit to rewrite without reading them again; the others are not kept.
void DiffViewAgainstResult(DataTable& view, const std::vector<LogicalType>& types, ChunkCollection fresh,
                           const std::vector<idx_t>& key_columns, bool keep_files, TableCommit& commit,
                           DeltaFileRows& read, ChunkCollection* removed);

}  // namespace lakestream
