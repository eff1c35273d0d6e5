// DeltaTable::Scan: the active files of one snapshot, projected by name.
#include <string_view>

#include "common/exception.hpp"
#include "common/external_access.hpp"
#include "common/string_util.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/delta_stats.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {

[[noreturn]] static void ThrowMissingDataFile(const delta::Snapshot& snapshot, const std::string& path) {
  throw IOError("Table " + snapshot.table_path + " is missing its data file " + path + " (listed at version " +
                std::to_string(snapshot.version) +
                "); the files were deleted outside lakestream. Restore them, or time-travel to a version that does not need them");
}

// With external access disabled (DataFileAccess::Confined), a file the log
// names for `state`'s table (`what`: "data file", "deletion vector") must lie
// beneath the table's folder: a commit or checkpoint forged with an absolute,
// file:// or `..` path would otherwise make a SELECT read any file. Returns
// the file system to open it through (null: as named, access enabled). The
// open itself then follows no link (ConfinedFileSystem), so a link swapped
// in after this check fails instead of leading out.
static FileSystem* CheckBeneathTable(const DeltaSnapshotState& state, const std::string& path, const std::string& what,
                                     const std::string& named) {
  FileSystem* confined = state.access ? state.access->Confined() : nullptr;
  if (!confined) return nullptr;
  const std::string& root = state.access->root;
  std::string normalized = ExternalAccessPolicy::Normalize(path);
  if (normalized.size() > root.size() && normalized.compare(0, root.size(), root) == 0 && normalized[root.size()] == '/') {
    return confined;
  }
  throw PermissionError("Table " + state.snapshot.table_path + " (version " + std::to_string(state.snapshot.version) +
                        "): its log names the " + what + " '" + named + "', which is " + normalized +
                        ", outside the table's folder " + root +
                        "; with external access disabled (enable_external_access = false) a table reads only files "
                        "beneath its own folder. Repair the log, or open the database with external access on");
}

namespace {

// A file's TIMESTAMP where the table declares TIMESTAMP_NTZ (or the other way
// round) holds the same microseconds: lakestream before TIMESTAMP_NTZ, and
// some other writers, wrote timestamp_ntz columns with isAdjustedToUTC=true.
// The log's schema is the table's (PROTOCOL.md), so the values are read as
// the table's type, unshifted (CopyRelabeled).
bool SameUpToTimestampKind(const LogicalType& file, const LogicalType& table) {
  if (file.IsTimestamp() && table.IsTimestamp()) return true;
  if (file.id() != table.id() || !file.IsNested()) return file == table;
  const auto& a = file.children();
  const auto& b = table.children();
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (a[i].first != b[i].first || !SameUpToTimestampKind(a[i].second, b[i].second)) return false;
  }
  return true;
}

// `v` with the timestamp kinds of `type` (same microseconds): Vector::SetValue
// would cast, shifting by the session zone.
Value Relabel(const Value& v, const LogicalType& type) {
  if (v.IsNull()) return Value(type);
  if (type.id() == TypeId::TIMESTAMP) return Value::TIMESTAMP(v.GetTimestamp());
  if (type.id() == TypeId::TIMESTAMP_NTZ) return Value::TIMESTAMP_NTZ(v.GetTimestamp());
  if (type.id() == TypeId::STRUCT) {
    std::vector<Value> fields;
    for (size_t i = 0; i < v.Children().size(); i++) fields.push_back(Relabel(v.Children()[i], type.children()[i].second));
    return Value::STRUCT(type, std::move(fields));
  }
  if (type.id() == TypeId::LIST || type.id() == TypeId::MAP) {
    std::vector<Value> elements;
    for (auto& e : v.Children()) elements.push_back(Relabel(e, type.ListChild()));
    return Value::LIST(type, std::move(elements));
  }
  return v;
}

// Copies rows of a file column whose timestamps are of the other kind than
// the table's (SameUpToTimestampKind), keeping the microseconds.
void CopyRelabeled(const Vector& source, Vector& target, idx_t count) {
  if (count > target.Capacity()) target.Resize(count);
  if (target.GetType().IsTimestamp()) {
    for (idx_t r = 0; r < count; r++) {
      target.SetValid(r, source.IsValid(r));
      target.GetData<timestamp_t>()[r] = source.GetData<timestamp_t>()[r];
    }
    return;
  }
  for (idx_t r = 0; r < count; r++) target.SetValue(r, Relabel(source.GetValue(r), target.GetType()));
}

// `file_type` (a file column whose elements `file` names) with each STRUCT
// field that carries the field id of a field of `expected` named as that
// field is in `stored` (the column's physical type), at every depth: column
// mapping mode id matches fields by id, whatever the file calls them. A
// field whose id the table does not know gets a name no field has.
LogicalType RenameById(const LogicalType& file_type, const ParquetField& file, const ParquetField& expected,
                       const LogicalType& stored) {
  if (file_type.id() != stored.id()) return file_type;
  if (file_type.id() == TypeId::STRUCT) {
    child_list_t fields;
    for (idx_t i = 0; i < file_type.children().size(); i++) {
      const auto& [name, type] = file_type.children()[i];
      const ParquetField* f = i < file.children.size() ? &file.children[i] : nullptr;
      int64_t match = -1;
      for (idx_t j = 0; f && f->field_id && j < expected.children.size() && j < stored.children().size(); j++) {
        if (expected.children[j].field_id == f->field_id) match = static_cast<int64_t>(j);
      }
      if (match < 0) {
        fields.emplace_back("\x01unmapped " + name, type);
        continue;
      }
      fields.emplace_back(stored.children()[match].first,
                          RenameById(type, *f, expected.children[match], stored.children()[match].second));
    }
    return LogicalType::Struct(std::move(fields));
  }
  if (file.children.empty() || expected.children.empty()) return file_type;
  if (file_type.id() == TypeId::LIST) {
    return LogicalType::List(RenameById(file_type.ListChild(), file.children[0], expected.children[0], stored.ListChild()));
  }
  if (file_type.id() == TypeId::MAP && file.children.size() == 2 && expected.children.size() == 2) {
    const auto& a = file_type.ListChild().children();
    const auto& b = stored.ListChild().children();
    return LogicalType::Map(RenameById(a[0].second, file.children[0], expected.children[0], b[0].second),
                            RenameById(a[1].second, file.children[1], expected.children[1], b[1].second));
  }
  return file_type;
}

// TypeEvolvesTo, except that STRUCT fields of the file the table lacks are
// skipped: under column mapping a dropped field stays in older files under
// its physical name (DROP COLUMN rewrites nothing), and ConformValue ignores it.
bool MappedEvolvesTo(const LogicalType& file, const LogicalType& table) {
  if (file.id() == TypeId::STRUCT && table.id() == TypeId::STRUCT) {
    for (auto& [name, type] : file.children()) {
      int64_t at = FindStructField(table.children(), name);
      if (at >= 0 && !MappedEvolvesTo(type, table.children()[at].second)) return false;
    }
    return true;
  }
  if (file.id() == TypeId::LIST && table.id() == TypeId::LIST) return MappedEvolvesTo(file.ListChild(), table.ListChild());
  if (file.id() == TypeId::MAP && table.id() == TypeId::MAP) {
    auto& a = file.ListChild().children();
    auto& b = table.ListChild().children();
    return a[0].second == b[0].second && MappedEvolvesTo(a[1].second, b[1].second);
  }
  return TypeEvolvesTo(file, table);
}

class DeltaScan : public TableScan {
 public:
  DeltaScan(std::shared_ptr<const DeltaSnapshotState> state, std::vector<idx_t> column_ids, std::vector<uint64_t> files)
      : state_(std::move(state)), column_ids_(std::move(column_ids)), file_list_(std::move(files)) {
    if (file_list_.empty()) {
      for (uint64_t i = 0; i < state_->files.size(); i++) file_list_.push_back(i);
    }
  }

  bool Next(DataChunk& out, Vector* row_ids) override {
    while (true) {
      if (!reader_ && !OpenNextFile()) {
        out.Reset();
        return false;
      }
      Status s = reader_->ReadChunk(file_chunk_);
      if (!s.ok()) s.Throw();
      idx_t n = file_chunk_.size();
      if (n == 0) {
        reader_.reset();
        continue;
      }
      out.Reset();
      for (idx_t i = 0; i < column_ids_.size(); i++) {
        Vector& target = out.data[i];
        if (source_[i] >= 0 && rename_[i]) {
          // Physical field names: conform to the stored form, then relabel
          // by position to the logical names (timestamp kinds too).
          const Vector& from = file_chunk_.data[source_[i]];
          const LogicalType& stored = state_->PhysicalType(column_ids_[i]);
          for (idx_t r = 0; r < n; r++) {
            Value v = from.GetValue(r);
            if (by_id_[i]) v = Relabel(v, *by_id_[i]);  // the file's field names -> physical, by position
            target.SetValue(r, Relabel(conform_[i] ? ConformValue(v, stored) : v, target.GetType()));
          }
        } else if (source_[i] >= 0 && conform_[i]) {
          ConformVector(file_chunk_.data[source_[i]], target, n);  // written under an older schema
        } else if (source_[i] >= 0 && relabel_[i]) {
          CopyRelabeled(file_chunk_.data[source_[i]], target, n);
        } else if (source_[i] >= 0) {
          target.Copy(file_chunk_.data[source_[i]], nullptr, n, 0, 0);
        } else {
          for (idx_t r = 0; r < n; r++) target.SetValue(r, constants_[i]);
        }
      }
      out.SetCardinality(n);
      idx_t kept = n;
      const sel_t* sel = nullptr;
      if (filter_rows_) {
        kept = SelectRows(n);
        sel = sel_.data();
        if (kept < n) Compact(out, kept);
      }
      if (row_ids) {
        auto* ids = row_ids->GetData<int64_t>();
        for (idx_t r = 0; r < kept; r++)
          ids[r] = static_cast<int64_t>((file_index_ << 32) | (row_in_file_ + (sel ? sel[r] : r)));
        row_ids->SetAllValid(kept);
      }
      row_in_file_ += n;
      if (kept == 0) continue;
      return true;
    }
  }

 private:
  // The rows of [row_in_file_, row_in_file_ + n) that are not deleted (or,
  // for a change feed's DV update, that are the ones selected) into sel_, as
  // offsets in the chunk; returns how many.
  idx_t SelectRows(idx_t n) {
    sel_.resize(n);
    idx_t kept = 0;
    uint64_t end = row_in_file_ + n;
    while (cursor_ < rows_.size() && rows_[cursor_] < row_in_file_) cursor_++;
    for (uint64_t row = row_in_file_; row < end; row++) {
      bool listed = cursor_ < rows_.size() && rows_[cursor_] == row;
      if (listed) cursor_++;
      if (listed == keep_listed_) sel_[kept++] = static_cast<sel_t>(row - row_in_file_);
    }
    return kept;
  }

  // Keeps only the first `kept` rows named by sel_ in `out`.
  void Compact(DataChunk& out, idx_t kept) {
    for (auto& column : out.data) {
      // The caller's capacity is kept: the next chunk is written into it in place.
      Vector filtered(column.GetType(), std::max<idx_t>(column.Capacity(), kept));
      filtered.Copy(column, sel_.data(), kept, 0, 0);
      column = std::move(filtered);
    }
    out.SetCardinality(kept);
  }

  // The rows of the file to skip (its deletion vector) or, with an entry in
  // state_->selected_rows, the only rows to read.
  void LoadRowFilter(const delta::AddFile& add) {
    filter_rows_ = false;
    keep_listed_ = false;
    cursor_ = 0;
    rows_.clear();
    auto selected = state_->selected_rows.find(file_index_);
    if (selected != state_->selected_rows.end()) {
      rows_ = selected->second;
      filter_rows_ = keep_listed_ = true;
      return;
    }
    if (!add.deletion_vector) return;
    auto dv = delta::ParseDeletionVectorDescriptor(*add.deletion_vector);
    if (!dv.ok()) {
      throw CorruptionError("Table " + state_->snapshot.table_path + " (version " +
                            std::to_string(state_->snapshot.version) + "), data file " +
                            state_->snapshot.FilePath(add.path) + ": " + dv.status().message());
    }
    FileSystem* fs = FileSystem::Default();
    if (dv.value().storage_type != 'i') {
      auto file = delta::DeletionVectorFile(state_->snapshot, dv.value());
      if (file.ok()) {
        FileSystem* confined = CheckBeneathTable(*state_, file.value(), "deletion vector", dv.value().path_or_inline_dv);
        if (confined) fs = confined;
      }
    }
    auto rows = delta::LoadDeletionVector(fs, state_->snapshot, dv.value(), add.path);
    if (!rows.ok()) {
      std::string message = "Table " + state_->snapshot.table_path + " (version " +
                            std::to_string(state_->snapshot.version) + "): " + rows.status().message();
      if (rows.status().IsCorruption()) throw CorruptionError(message);
      throw IOError(message);
    }
    rows_ = rows.take();
    filter_rows_ = !rows_.empty();
  }

  // Opens the next file and maps each projected table column to a file column
  // (by name) or to a constant (partition value, or NULL for a column the
  // file predates).
  bool OpenNextFile() {
    const auto& files = state_->files;
    if (next_file_ >= file_list_.size()) return false;
    file_index_ = file_list_[next_file_++];
    if (file_index_ >= files.size()) return false;  // the "no file can match" marker
    row_in_file_ = 0;
    const delta::AddFile& add = *files[file_index_];
    const auto& snapshot = state_->snapshot;
    std::string path = snapshot.FilePath(add.path);
    FileSystem* confined = CheckBeneathTable(*state_, path, "data file", add.path);
    auto opened = ParquetReader::Open(path, confined);
    if (!opened.ok()) {
      if (confined && !opened.status().IsNotFound()) {
        throw PermissionError("Table " + snapshot.table_path + ": " + opened.status().message());
      }
      if (opened.status().IsNotFound() || opened.status().IsIOError()) ThrowMissingDataFile(snapshot, path);
      opened.status().Throw();
    }
    reader_ = opened.take();
    LoadRowFilter(add);
    const auto& columns = state_->columns;
    const auto& file_names = reader_->ColumnNames();
    std::vector<idx_t> file_columns;
    source_.assign(column_ids_.size(), -1);
    relabel_.assign(column_ids_.size(), false);
    constants_.assign(column_ids_.size(), Value());
    conform_.assign(column_ids_.size(), false);
    rename_.assign(column_ids_.size(), false);
    by_id_.assign(column_ids_.size(), std::nullopt);
    // Column mapping mode id: a file with field ids is matched by them
    // (PROTOCOL "Column Mapping": readers must), one without by physical name.
    std::vector<ParquetField> file_fields;
    bool match_ids = false;
    if (!state_->id_fields.empty()) {
      for (idx_t f = 0; f < file_names.size(); f++) {
        file_fields.push_back(reader_->ColumnFields(f));
        match_ids |= file_fields.back().field_id.has_value();
      }
    }
    for (idx_t i = 0; i < column_ids_.size(); i++) {
      const TableColumn& column = columns[column_ids_[i]];
      const std::string& physical = state_->PhysicalName(column_ids_[i]);
      bool is_partition = false;
      for (auto& p : snapshot.partition_columns()) is_partition |= StringUtil::CIEquals(p, column.name);
      if (is_partition) {
        std::optional<std::string> text;
        for (auto& [k, v] : add.partition_values) {
          if (StringUtil::CIEquals(k, physical)) text = v;
        }
        auto value = delta::ParsePartitionValue(text, column.type);
        if (!value.ok()) value.status().Throw();
        constants_[i] = value.take();
        continue;
      }
      // Under column mapping the file names STRUCT fields by physical name.
      const LogicalType& stored = state_->PhysicalType(column_ids_[i]);
      rename_[i] = stored != column.type;
      const ParquetField* expected = match_ids && column_ids_[i] < state_->id_fields.size()
                                         ? &state_->id_fields[column_ids_[i]]
                                         : nullptr;
      for (idx_t f = 0; f < file_names.size(); f++) {
        if (expected ? !(expected->field_id && file_fields[f].field_id == expected->field_id)
                     : !StringUtil::CIEquals(file_names[f], physical)) {
          continue;
        }
        LogicalType file_type = reader_->ColumnTypes()[f];
        if (expected) {
          LogicalType renamed = RenameById(file_type, file_fields[f], *expected, stored);
          if (renamed != file_type) {
            by_id_[i] = renamed;
            rename_[i] = true;
            file_type = renamed;
          }
        }
        if (!SameUpToTimestampKind(file_type, stored)) {
          // Written under an older schema: fewer STRUCT fields, or a type
          // that Delta type widening has widened since (DATE -> TIMESTAMP_NTZ too).
          conform_[i] = state_->physical_types.empty() ? TypeEvolvesTo(file_type, stored) : MappedEvolvesTo(file_type, stored);
        }
        if (!SameUpToTimestampKind(file_type, stored) && !conform_[i]) {
          throw CorruptionError("Data file " + path + " stores column " + column.name + " as " + file_type.ToString() +
                                " but table " + snapshot.table_path + " declares " + stored.ToString());
        }
        relabel_[i] = file_type != column.type;
        source_[i] = static_cast<int64_t>(file_columns.size());
        file_columns.push_back(f);
        break;
      }
      if (source_[i] < 0) constants_[i] = Value(column.type);  // added after this file was written
    }
    if (file_columns.empty() && !file_names.empty()) file_columns.push_back(0);  // rows still need counting
    Status s = reader_->Scan(file_columns);
    if (!s.ok()) s.Throw();
    file_chunk_.Initialize(reader_->ProjectedTypes());
    return true;
  }

  std::shared_ptr<const DeltaSnapshotState> state_;
  std::vector<idx_t> column_ids_;
  std::vector<uint64_t> file_list_;
  idx_t next_file_ = 0;
  uint64_t file_index_ = 0;
  uint64_t row_in_file_ = 0;
  std::unique_ptr<ParquetReader> reader_;
  DataChunk file_chunk_;
  std::vector<int64_t> source_;
  std::vector<bool> relabel_;  // the file's timestamps are of the other kind (SameUpToTimestampKind)
  std::vector<Value> constants_;
  std::vector<bool> conform_;  // the file stores an older form of the column's type
  std::vector<bool> rename_;   // the file names STRUCT fields by physical name (column mapping)
  // Column mapping mode id: the file column's type with its STRUCT fields
  // named by physical name, matched by field id (RenameById).
  std::vector<std::optional<LogicalType>> by_id_;
  // Row filter of the current file (LoadRowFilter): sorted row indexes that
  // are skipped, or with keep_listed_ the only ones read.
  bool filter_rows_ = false;
  bool keep_listed_ = false;
  std::vector<uint64_t> rows_;
  size_t cursor_ = 0;
  std::vector<sel_t> sel_;
};

}  // namespace

std::unique_ptr<TableScan> MakeDeltaScan(std::shared_ptr<const DeltaSnapshotState> state, std::vector<idx_t> column_ids,
                                         std::vector<uint64_t> files) {
  return std::make_unique<DeltaScan>(std::move(state), std::move(column_ids), std::move(files));
}

std::unique_ptr<TableScan> DeltaTable::Scan(const std::vector<idx_t>& column_ids) {
  return MakeDeltaScan(state_, column_ids);
}

// COUNT(*) is answered from the log, as Spark and DuckDB do: numRecords less
// the deletion vectors' cardinalities, never from statistics that contradict
// themselves. Like theirs, the answer opens no data file, nor checks that
// each still exists (a scan names one deleted outside lakestream): that
// would need every path, which a large checkpoint we wrote spares the count
// (issue 30). Worked out once per snapshot.
static DeltaSnapshotState::CheckedCount CountFromStats(const DeltaSnapshotState& state, const std::string& name) {
  const delta::Snapshot& snapshot = state.snapshot;
  std::lock_guard<std::mutex> lock(state.count_mutex);
  if (!state.checked_count) {
    DeltaSnapshotState::CheckedCount check;
    // A checkpoint we wrote states its files' rows in its footer (checked
    // as below when it was written): with the few commits after it, that is
    // the count, without decoding one of its adds (issue 30).
    check.total = snapshot.files.RecordsFromSummary();
    if (check.total) {
      state.checked_count = std::move(check);
      return *state.checked_count;
    }
    check.total = 0;
    for (const delta::AddFile* add : state.files) {
      // The full path only for the message: building it per file would cost
      // as much as the check.
      auto n = delta::CheckedNumRecords(*add, add->path);
      if (!n.ok()) n = delta::CheckedNumRecords(*add, snapshot.FilePath(add->path));
      if (!n.ok()) {
        check.error = "Table " + name + " (version " + std::to_string(snapshot.version) + "): " + n.status().message() +
                      ". Rewrite the table from a good copy, or time-travel to a version that does not list the file";
        break;
      }
      if (!n.value()) check.total.reset();
      int64_t deleted = 0;
      if (add->deletion_vector) {
        // A descriptor that does not parse: the scan reports it.
        auto dv = delta::ParseDeletionVectorDescriptor(*add->deletion_vector);
        if (dv.ok() && dv.value().cardinality >= 0) deleted = dv.value().cardinality;
        else check.total.reset();
      }
      if (n.value() && deleted > *n.value()) {
        check.error = "Table " + name + " (version " + std::to_string(snapshot.version) + "): the deletion vector of " +
                      snapshot.FilePath(add->path) + " deletes " + std::to_string(deleted) + " rows of its " +
                      std::to_string(*n.value()) +
                      ". Rewrite the table from a good copy, or time-travel to a version that does not list the file";
        break;
      }
      if (check.total) *check.total += *n.value() - deleted;
    }
    state.checked_count = std::move(check);
  }
  return *state.checked_count;
}

std::optional<idx_t> DeltaTable::EstimatedRowCount() {
  auto state = state_;
  DeltaSnapshotState::CheckedCount counted = CountFromStats(*state, name_);
  if (!counted.error.empty() || !counted.total) return std::nullopt;
  return static_cast<idx_t>(*counted.total);
}

idx_t DeltaTable::RowCount() {
  auto state = state_;
  DeltaSnapshotState::CheckedCount counted = CountFromStats(*state, name_);
  if (!counted.error.empty()) throw CorruptionError(counted.error);
  if (counted.total) return static_cast<idx_t>(*counted.total);
  idx_t count = 0;
  auto scan = Scan({0});
  DataChunk chunk;
  chunk.Initialize({state_->columns[0].type});
  while (scan->Next(chunk, nullptr)) count += chunk.size();
  return count;
}

}  // namespace lakestream
