// Where each row of a materialized view is stored: an arrangement from a
// row's value to its place (data file, row in the file), kept in memory by a
// row view (ViewRuntime::rows) so that a refresh removes the rows its change
// names without scanning the view (a 10M-row join view spent seconds
// scanning and encoding every row for a change of 1,000, see docs/views.md).
//
// A row is identified by a 128-bit hash of all its columns (two 64-bit
// lanes over the per-column hashes, combined in opposite orders). Two
// different rows of the view with one hash would make a refresh remove the
// wrong one. Integer-like columns hash without collisions; strings and
// decimals through 64-bit hashes, so two rows that differ only there share
// a hash with probability about 2^-64: far below the rate of undetected disk
// errors, so the index does not read rows back to check.
//
// Entries are ordered by a key before the hash: the value of the view's
// first integer-like column (INTEGER, BIGINT, DATE, TIMESTAMP: usually a key
// or a time), or the hash itself when it has none. A change usually names
// rows of neighbouring keys (a range of ids updated, the latest rows), and
// their entries then sit together: a lookup's cost is mostly the memory
// pages it touches for the first time since the last refresh (on the bench
// VM a huge page not touched for a while costs ~6 us to reach again: with
// hashed order, 1,000 lookups in a 10M-row view touched all ~120 of them).
// Rows without neighbouring keys cost what they did in hash order.
//
// The index follows the view's Delta snapshot (Sync): files it has not seen
// are read and indexed (a refresh's own new file: the rows it inserted);
// rows a refresh deleted through deletion vectors are dropped when that
// commit succeeds (Forget). Anything else (a file removed, a deletion vector
// that does not count the rows the index dropped: OPTIMIZE, a full refresh,
// another process's commit, a crash) makes Sync rebuild the index from a
// scan of the whole view. So it is rebuilt once after the database opens
// (on the view's first refresh) and kept up to date from then on.
//
// Memory: about 36 bytes per row of the view (360 MB for 10M rows), plus the
// path of each data file. Only views on deletion vectors use it (a
// copy-on-write commit rewrites whole files, which would rebuild it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/chunk_collection.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

class ViewRowIndex {
 public:
  // Brings the index to the view's current snapshot (see the header).
  // Throws what scanning the view throws.
  void Sync(DeltaTable& view);

  // For each row of `rows` (the view's column types), a distinct live row of
  // the view equal to it: its row id in the snapshot last synced, in
  // `ids` (aligned with `rows`). False when the view holds fewer copies of
  // some row than `rows` names. Remembers the rows found for Forget().
  bool Locate(const ChunkCollection& rows, std::vector<row_t>& ids);
  // The rows the last Locate found left the view (its commit succeeded).
  void Forget();

  idx_t LiveRows() const { return live_; }

 private:
  static constexpr uint32_t kDead = ~uint32_t(0);
  struct Entry {
    uint64_t key = 0;       // the order key (see the header)
    uint64_t a = 0, b = 0;  // the row's hash
    uint32_t file = 0;      // index into files_; kDead once the row is gone
    uint32_t row = 0;       // position in the file
  };
  // The order key and hash of each row of `chunk` (columns types_).
  struct Keys {
    std::vector<uint64_t> key, a, b;
  };
  void KeyRows(const DataChunk& chunk, Keys& out) const;
  struct FileInfo {
    std::string path;
    int64_t dead = 0;  // rows its deletion vector hides, as far as the index knows
    int64_t live = 0;  // rows indexed and not forgotten
    bool present = true;  // false once gone from the snapshot (after its last row was deleted)
  };

  void Clear();
  // Indexes the rows of the snapshot's files `indexes`.
  void IndexFiles(const std::shared_ptr<const DeltaSnapshotState>& state, const std::vector<uint64_t>& indexes);
  // Merges `batch` (unsorted) into recent_, and recent_ into base_ when it grows large.
  void Add(std::vector<Entry> batch);
  // directory_[slot] is the first entry of base_ whose key's slot is at
  // least `slot`: slots split base_'s key range [key_low_, its last key]
  // evenly (hashes and keys such as ids spread evenly over it, so a lookup
  // starts within a few entries of its key; keys outside the range, added
  // since, fall in the first or last slot).
  void BuildDirectory();
  size_t Slot(uint64_t key) const {
    // A shift of 64 (one slot over a range of 2^63 or more) means slot 0; as
    // a shift it would be undefined.
    if (key <= key_low_ || slot_shift_ >= 64) return 0;
    return std::min(static_cast<size_t>((key - key_low_) >> slot_shift_), directory_.size() - 2);
  }
  // An entry by handle: an index into base_, or into recent_ with kRecent set.
  Entry& At(uint64_t handle) { return handle & kRecent ? recent_[handle & ~kRecent] : base_[handle]; }
  static constexpr uint64_t kRecent = uint64_t(1) << 63;

  std::vector<LogicalType> types_;
  std::vector<Entry> base_;    // sorted by (a, b)
  std::vector<Entry> recent_;  // sorted by (a, b); added since base_ was built
  std::vector<size_t> directory_;  // slots + 1 entries (the last: base_.size())
  uint64_t key_low_ = 0;
  int slot_shift_ = 0;
  int key_column_ = -1;  // the column giving the order key; -1: the hash
  std::vector<FileInfo> files_;
  std::unordered_map<std::string, uint32_t> by_path_;  // files present in the snapshot last synced
  std::vector<uint64_t> snapshot_index_;  // files_ index -> index in the synced snapshot
  std::vector<uint64_t> pending_;         // handles found by the last Locate
  idx_t live_ = 0;
  idx_t dead_entries_ = 0;
};

}  // namespace lakestream
