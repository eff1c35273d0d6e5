#include "storage/table/row_tracking_rewrite.hpp"

#include "common/exception.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

RowTrackingRewrite::RowTrackingRewrite(const DeltaSnapshotState& state, std::string table)
    : state_(state), table_(std::move(table)) {
  const auto& snapshot = state.snapshot;
  assigns_ = delta::RowTrackingAssigns(snapshot.protocol, snapshot.metadata);
  // Not enabled: ids are not stable yet, nothing to preserve (PROTOCOL "Row Tracking").
  if (!assigns_ || !delta::RowTrackingEnabled(snapshot.metadata)) return;
  columns_ = delta::MaterializedColumnNames(snapshot.metadata);
  missing_names_ = !columns_;
}

void RowTrackingRewrite::ThrowUnnamed() const {
  throw CorruptionError("Delta table " + table_ + " enables row tracking but its metaData names no " +
                        delta::kMaterializedRowIdColumn + " or " + delta::kMaterializedRowCommitVersionColumn +
                        "; its rows cannot be rewritten without losing their row ids");
}

void RowTrackingRewrite::TagCommit(delta::CommitInfo& info, bool rows_copied) const {
  if (assigns_) delta::TagRowTrackingPreserved(info, Active() || !rows_copied);
}

void RowTrackingRewrite::Prepare(DeltaFileWriter& writer) const {
  if (columns_) writer.AddRowTrackingColumns(*columns_);
}

void RowTrackingRewrite::Load(uint64_t file_index) {
  if (loaded_file_ == file_index) return;
  if (file_index >= state_.files.size()) throw InternalError("row tracking: row names a file the snapshot does not have");
  const delta::AddFile& add = *state_.files[file_index];
  auto read = delta::ReadFileRowTracking(state_.access ? state_.access->Confined() : nullptr,
                                         state_.snapshot.FilePath(add.path), add, *columns_);
  if (!read.ok()) {
    std::string message = "Delta table " + table_ + ": cannot read the row ids of data file " + add.path + ": " +
                          read.status().message();
    if (read.status().IsCorruption()) throw CorruptionError(message);
    throw IOError(message);
  }
  loaded_ = read.take();
  loaded_file_ = file_index;
}

template <class Fill>
void RowTrackingRewrite::AppendWith(DeltaFileWriter& writer, const DataChunk& rows, Fill fill) {
  std::vector<LogicalType> types = rows.GetTypes();
  idx_t id_column = types.size();
  types.emplace_back(TypeId::BIGINT);
  types.emplace_back(TypeId::BIGINT);
  DataChunk out;
  out.Initialize(types, rows.size());
  for (idx_t c = 0; c < rows.ColumnCount(); c++) out.data[c].Copy(rows.data[c], nullptr, rows.size(), 0, 0);
  int64_t* ids = out.data[id_column].GetData<int64_t>();
  int64_t* versions = out.data[id_column + 1].GetData<int64_t>();
  for (idx_t r = 0; r < rows.size(); r++) {
    std::optional<int64_t> id, version;
    fill(r, id, version);
    out.data[id_column].SetValid(r, id.has_value());
    if (id) ids[r] = *id;
    out.data[id_column + 1].SetValid(r, version.has_value());
    if (version) versions[r] = *version;
  }
  out.SetCardinality(rows.size());
  writer.Append(out);
}

void RowTrackingRewrite::AppendCopied(DeltaFileWriter& writer, const DataChunk& rows, uint64_t file_index,
                                      const uint64_t* positions) {
  if (missing_names_ && rows.size() > 0) ThrowUnnamed();
  if (!columns_ || rows.size() == 0) {
    writer.Append(rows);
    return;
  }
  Load(file_index);
  AppendWith(writer, rows, [&](idx_t r, std::optional<int64_t>& id, std::optional<int64_t>& version) {
    uint64_t p = positions[r];
    if (p >= loaded_.row_ids.size()) throw CorruptionError("Delta table " + table_ + ": a row position is past the end of its data file");
    id = loaded_.row_ids[p];
    version = loaded_.commit_versions[p];
  });
}

void RowTrackingRewrite::AppendCopied(DeltaFileWriter& writer, const DataChunk& rows, const Vector& row_ids) {
  if (missing_names_ && rows.size() > 0) ThrowUnnamed();
  if (!columns_ || rows.size() == 0) {
    writer.Append(rows);
    return;
  }
  const int64_t* raw = row_ids.GetData<int64_t>();
  // Rows of one file come in runs; each run is appended with that file loaded.
  idx_t begin = 0;
  while (begin < rows.size()) {
    uint64_t file = static_cast<uint64_t>(raw[begin]) >> 32;
    idx_t end = begin;
    std::vector<sel_t> sel;
    std::vector<uint64_t> positions;
    for (; end < rows.size() && (static_cast<uint64_t>(raw[end]) >> 32) == file; end++) {
      sel.push_back(static_cast<sel_t>(end));
      positions.push_back(static_cast<uint64_t>(raw[end]) & 0xffffffffULL);
    }
    DataChunk run;
    run.Initialize(rows.GetTypes(), sel.size());
    run.Append(rows, sel.data(), sel.size());
    AppendCopied(writer, run, file, positions.data());
    begin = end;
  }
}

void RowTrackingRewrite::NoteUpdated(int64_t update_index, uint64_t file_index, uint64_t position) {
  if (missing_names_) ThrowUnnamed();
  if (!columns_) return;
  Load(file_index);
  if (position >= loaded_.row_ids.size()) throw CorruptionError("Delta table " + table_ + ": an updated row is past the end of its data file");
  auto index = static_cast<size_t>(update_index);
  if (index >= updated_ids_.size()) updated_ids_.resize(index + 1, -1);
  updated_ids_[index] = loaded_.row_ids[position];
}

void RowTrackingRewrite::AppendUpdated(DeltaFileWriter& writer, const DataChunk& rows, const int64_t* update_indexes) {
  if (!columns_) {
    writer.Append(rows);
    return;
  }
  AppendWith(writer, rows, [&](idx_t r, std::optional<int64_t>& id, std::optional<int64_t>&) {
    auto index = static_cast<size_t>(update_indexes[r]);
    // An updated row keeps its id; its commit version is the new file's (NULL).
    if (index < updated_ids_.size() && updated_ids_[index] >= 0) id = updated_ids_[index];
  });
}

}  // namespace lakestream
