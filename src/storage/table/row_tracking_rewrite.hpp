// RowTrackingRewrite: keeps the stable row ids and row commit versions of rows
// that a copy-on-write statement (UPDATE, DELETE, MERGE, OPTIMIZE) copies
// into new data files, on tables with delta.enableRowTracking = true
// (PROTOCOL.md "Row Tracking"; storage/delta/row_tracking.hpp):
//
//   copied row   -> materialized row id = its stable id, commit version = its stable version
//   updated row  -> materialized row id = its stable id, commit version = NULL (the new file's)
//   inserted row -> both NULL (fresh values of the new file)
//
// On other tables every call writes the rows as they are. One object per
// statement; it reads each file's stable values once, when the file's rows
// are first copied, and holds those of one file at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/vector.hpp"
#include "storage/delta/row_tracking.hpp"

namespace lakestream {

class DeltaFileWriter;
struct DeltaSnapshotState;

class RowTrackingRewrite {
 public:
  // `state` (the snapshot the statement read) must outlive this object's use.
  // A table that enables row tracking without naming the materialized
  // columns can still take inserts; copying or updating a row of it is a
  // CorruptionError naming `table`.
  RowTrackingRewrite(const DeltaSnapshotState& state, std::string table);
  bool Active() const { return columns_.has_value(); }
  // Gives `writer`'s files the materialized columns (when active).
  void Prepare(DeltaFileWriter& writer) const;
  // Appends `rows` (every table column) copied unchanged from file
  // `file_index` of the snapshot, row r having been at `positions[r]` in it.
  void AppendCopied(DeltaFileWriter& writer, const DataChunk& rows, uint64_t file_index, const uint64_t* positions);
  // The same with the scan's row ids ((file index << 32) | position).
  void AppendCopied(DeltaFileWriter& writer, const DataChunk& rows, const Vector& row_ids);
  // The row at `position` of file `file_index` is updated; its new version
  // is the statement's updated row `update_index`.
  void NoteUpdated(int64_t update_index, uint64_t file_index, uint64_t position);
  // Appends new versions of updated rows: row r is updated row `update_indexes[r]`.
  void AppendUpdated(DeltaFileWriter& writer, const DataChunk& rows, const int64_t* update_indexes);
  // Tags the statement's commitInfo with delta.rowTracking.preserved when the
  // table assigns row ids: true when enabled (every copied or updated row
  // kept its values) or when `rows_copied` is false, else false.
  void TagCommit(delta::CommitInfo& info, bool rows_copied) const;

 private:
  // CorruptionError: the stable values of rows cannot be kept.
  [[noreturn]] void ThrowUnnamed() const;
  // Loads file `file_index`'s stable values unless they are the ones held.
  void Load(uint64_t file_index);
  // `rows` plus the two materialized columns, filled by `fill(r, id, version)`.
  template <class Fill>
  void AppendWith(DeltaFileWriter& writer, const DataChunk& rows, Fill fill);

  const DeltaSnapshotState& state_;
  std::string table_;
  bool assigns_ = false;        // the table assigns row ids
  bool missing_names_ = false;  // enabled, but the materialized columns are not named
  std::optional<delta::MaterializedColumns> columns_;
  std::optional<uint64_t> loaded_file_;
  delta::FileRowTracking loaded_;
  std::vector<int64_t> updated_ids_;  // stable row id per updated row index (-1: none)
};

}  // namespace lakestream
