// DeltaTable: a catalog table stored as a Delta Lake table (DataTable over
// storage/delta's log and storage/parquet's files).
//
// Reads see the snapshot loaded at the start of the statement (Refresh()).
// Row ids are (index of the file in that snapshot << 32) | row in the file,
// so UPDATE/DELETE/MERGE can name the rows they change.
//
// Commit() is copy-on-write: every data file holding a changed row is read
// and rewritten without it (remove + add) - or, on a table with deletion
// vectors enabled, re-added with a deletion vector naming the row
// (deletion_vector_update.hpp) - inserted rows go to new files, and
// with the change data feed on, the rows changed by UPDATE/DELETE/MERGE go to
// `_change_data/` files with `_change_type` in the same commit. Commits use
// optimistic concurrency: a lost race re-reads the log and retries unless a
// concurrent commit removed a file this one rewrites (ConflictError).
// A checkpoint is written every delta.checkpointInterval commits.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "common/file_system.hpp"
#include "storage/data_table.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/delta/delta_snapshot.hpp"
#include "storage/parquet/parquet_writer.hpp"
#include "storage/table/table_file_system.hpp"

namespace lakestream {

class DataFilePool;
class DeltaFileWriter;
class ExternalAccessPolicy;

// What CREATE TABLE decides about a new Delta table.
struct DeltaTableDefinition {
  std::vector<TableColumn> columns;
  std::vector<std::string> partition_columns;
  std::map<std::string, std::string> properties;  // metaData.configuration
  std::string description;
};

// DeltaSnapshotState::files: the snapshot's files in path order, as
// pointers into snapshot.files, listed on first use (the list needs the
// snapshot's files decoded, which a statement that reads only the log never
// does: delta/file_map.hpp). Read as a const vector from any thread. A list
// filled with push_back (the change feed's files) is plain: it leaves the
// map behind.
class DeltaFileList {
 public:
  explicit DeltaFileList(const delta::FileMap* map = nullptr) : map_(map) {}
  size_t size() const { return List().size(); }
  bool empty() const { return List().empty(); }
  const delta::AddFile* operator[](size_t i) const { return List()[i]; }
  const delta::AddFile* at(size_t i) const { return List().at(i); }
  std::vector<const delta::AddFile*>::const_iterator begin() const { return List().begin(); }
  std::vector<const delta::AddFile*>::const_iterator end() const { return List().end(); }
  void push_back(const delta::AddFile* add) {
    map_ = nullptr;
    list_.push_back(add);
  }

 private:
  const std::vector<const delta::AddFile*>& List() const;
  const delta::FileMap* map_;
  mutable std::once_flag listed_;
  mutable std::vector<const delta::AddFile*> list_;
};

// One snapshot with its files in a fixed order (the row id's file index).
struct DeltaSnapshotState {
  delta::Snapshot snapshot;
  std::shared_ptr<const DataFileAccess> access;  // the table's (never null for a table's state)
  DeltaFileList files{&snapshot.files};
  std::vector<TableColumn> columns;
  // The name of each column in the data files and partition values: its
  // delta.columnMapping.physicalName under column mapping, else its name.
  std::vector<std::string> physical_names;
  // Each column's type as the data files store it (delta::PhysicalType:
  // STRUCT fields by physical name under column mapping); empty: the types
  // of `columns`.
  std::vector<LogicalType> physical_types;
  // Column mapping mode id only: per column, the field ids its data files
  // carry (delta::MappedParquetField), by which the scan matches file
  // columns and STRUCT fields when a file has ids.
  std::vector<ParquetField> id_fields;
  // For the change feed of a deletion-vector update: file index -> the only
  // rows (sorted row indexes) to read from it, instead of the rows its
  // deletion vector leaves.
  std::map<uint64_t, std::vector<uint64_t>> selected_rows;
  const std::string& PhysicalName(idx_t column) const {
    return column < physical_names.size() ? physical_names[column] : columns[column].name;
  }
  const LogicalType& PhysicalType(idx_t column) const {
    return column < physical_types.size() ? physical_types[column] : columns[column].type;
  }
  // COUNT(*)'s checked statistics (RowCount): the sum of numRecords (nullopt
  // when some file has none) or why the stats cannot be trusted, worked out
  // once per snapshot, since a file's stats never change (parsing them is
  // most of a count's cost).
  struct CheckedCount {
    std::optional<int64_t> total;
    std::string error;
  };
  mutable std::mutex count_mutex;
  mutable std::optional<CheckedCount> checked_count;
  // Per column: EstimatedDistinctCount's span of the files' min/max
  // statistics, worked out once per snapshot and column (under count_mutex).
  mutable std::map<idx_t, std::optional<double>> value_spans;
};

// Whole data files a statement has already read (a view refresh scans the
// view before it commits), so that Commit() rewrites them without reading
// them again: file index in the snapshot of `version` -> every column of
// every row of that file, in file order. The version, not the snapshot
// state, identifies them (a snapshot's files are ordered by path, so one
// version always has the same indexes), so holding them keeps no state alive.
struct DeltaFileRows {
  int64_t version = -1;
  std::map<uint64_t, ChunkCollection> files;
};

class DeltaTable : public DataTable {
 public:
  // Waits for the checkpoint this table handed to the background thread,
  // if any (delta/checkpoint_writer.hpp): a dropped table's folder is then
  // deleted after it, and a closed database leaves its checkpoints written.
  ~DeltaTable() override;
  // Opens the Delta table at `path` (its latest version, or `version`).
  // `policy` (may be null): as SetAccessPolicy, in force from the first
  // read of the log. Throws IOError/CorruptionError/NotImplementedError
  // naming the table.
  static std::unique_ptr<DeltaTable> Open(FileSystem* fs, const std::string& name, const std::string& path,
                                          std::optional<int64_t> version = std::nullopt,
                                          const ExternalAccessPolicy* policy = nullptr);
  // Creates a new Delta table at `path` (version 0: protocol + metaData).
  // Throws CatalogError when a Delta table already exists there.
  static std::unique_ptr<DeltaTable> Create(FileSystem* fs, const std::string& name, const std::string& path,
                                            const DeltaTableDefinition& definition);

  std::unique_ptr<TableScan> Scan(const std::vector<idx_t>& column_ids) override;
  // Skips files whose partition values or min/max statistics prove no row can match.
  std::unique_ptr<TableScan> Scan(const std::vector<idx_t>& column_ids,
                                  const std::vector<TableFilter>& filters) override;
  // One morsel per data file that data skipping keeps (delta_skipping.cpp).
  std::shared_ptr<MorselSource> ParallelScan(const std::vector<idx_t>& column_ids,
                                             const std::vector<TableFilter>& filters) override;
  void Commit(TableCommit& commit) override;
  // Commit() taking the rows of the files it rewrites from `read` where it
  // holds them; ignored unless read at the version the commit starts from.
  void Commit(TableCommit& commit, const DeltaFileRows& read);
  // From the log when every file has numRecords stats (and a deletion vector
  // that parses): a checkpoint footer's record count plus the commits after
  // it, else the adds' numRecords less their deletion vectors' cardinalities
  // (CorruptionError naming the file and version when they contradict
  // themselves); else by reading the files. No data file is opened or
  // stat'ed for the log's answer (a scan names one that is gone).
  idx_t RowCount() override;
  // RowCount's answer from the log (worked out once per snapshot, shared
  // with RowCount); nullopt when a file has no numRecords or its stats lie.
  std::optional<idx_t> EstimatedRowCount() override;
  std::optional<double> EstimatedDistinctCount(idx_t column) override;  // delta_skipping.cpp
  // delta.appendOnly = true at the current snapshot: the one place the SQL
  // layer and the commit path learn whether rows may be removed.
  bool AppendOnly() const { return state_->snapshot.AppendOnly(); }

  // Moves to the latest version on disk (cheap when nothing changed).
  void Refresh();
  // Makes every commit linked into the log so far durable (an fsync of
  // _delta_log/, shared with concurrent ones; nothing on object storage).
  // For consumers that send what they read out of the database (sinks):
  // a commit is visible from its link on, and its writer may still be
  // waiting for that fsync (storage/delta/log_sync.hpp). IOError naming the
  // table on failure.
  void SyncLog();
  // A read-only view of the table as of an older version / time (time travel).
  std::unique_ptr<DeltaTable> AtVersion(int64_t version) const;
  std::unique_ptr<DeltaTable> AtTimestamp(timestamp_t timestamp) const;

  // OPTIMIZE: rewrites each partition's files into one (dataChange = false,
  // so the change data feed sees nothing). Returns {files removed, files added}.
  std::pair<int64_t, int64_t> Optimize();
  // VACUUM: deletes files the current version does not use that were removed
  // (or, for files no commit names, written) longer than `retain_ms` ago, and
  // leftover temp files; with dry_run only lists them. Returns the paths.
  // Only files beneath the table's folder are considered, never below
  // another table's folder inside it (one with a _delta_log), and of those
  // only the files the log names (its commits and the checkpoint's
  // tombstones) or that carry lakestream's own data file or temp file names
  // (IsWrittenDataFileName, FileSystem::IsTempFileName). The caller checks
  // the retention against delta.deletedFileRetentionDuration.
  // `keep_changes_after` (the oldest version a stream or sink still reads after)
  // keeps every file the change feed of the later versions reads, and the
  // files of that version itself (a stream's initial rows).
  std::vector<std::string> Vacuum(std::optional<int64_t> retain_ms, bool dry_run,
                                  std::optional<int64_t> keep_changes_after = std::nullopt);

  // Metadata changes, each one commit.
  void SetProperties(const std::map<std::string, std::string>& properties);
  void UnsetProperties(const std::vector<std::string>& keys);
  // Under column mapping the new columns (and their STRUCT fields) get ids
  // above delta.columnMapping.maxColumnId and fresh physical names.
  void AddColumns(const std::vector<TableColumn>& columns);
  // RENAME COLUMN / DROP COLUMN(S): metadata only, so they need column
  // mapping (NotImplementedError naming delta.columnMapping.mode otherwise).
  // `path`: a column, or {"s", "f"} for the field f of STRUCT column s.
  // CatalogError for a missing column (unless `if_exists`) or a name taken;
  // InvalidInputError for a partition column or the last column.
  void RenameColumn(const std::vector<std::string>& path, const std::string& new_name);
  void DropColumns(const std::vector<std::vector<std::string>>& paths, bool if_exists);
  // Widens `column` (a top-level column; `type` may widen fields inside it)
  // to `type`, data files untouched: InvalidInputError unless Delta type
  // widening allows the change and the table enables it.
  void AlterColumnType(const std::string& column, const LogicalType& type);

  const std::string& Name() const { return name_; }
  const std::string& Path() const { return path_; }
  // Which Delta table this is, whatever object holds it: its path and its
  // table id (a table dropped and created again at the path has a new id).
  std::string Identity() const { return path_ + "\n" + state_->snapshot.metadata.id; }
  const delta::Snapshot& Snapshot() const { return state_->snapshot; }
  std::shared_ptr<const DeltaSnapshotState> State() const { return state_; }
  const std::vector<TableColumn>& Columns() const { return state_->columns; }
  int64_t Version() const { return state_->snapshot.version; }
  delta::DeltaLog& Log() { return *log_; }
  // The table's own file system (TableFileSystem): beneath the table's
  // folder while external access is disabled.
  FileSystem* Fs() const { return fs_.get(); }
  // The same, for what may outlive the table (DeltaFileWriter).
  std::shared_ptr<FileSystem> SharedFs() const { return fs_; }
  // From now on, while `policy` (which outlives the table) has external
  // access disabled, the table and the tables it opens at past versions
  // read and write only beneath its folder (TableFileSystem). The open
  // database sets it on every table it opens; Open's `policy` sets it before
  // the log is read.
  void SetAccessPolicy(const ExternalAccessPolicy* policy) { access_->policy = policy; }
  // Milliseconds since the epoch, overridable by tests.
  static int64_t NowMs();

 private:
  DeltaTable(std::shared_ptr<TableFileSystem> fs, std::string name, std::string path, std::unique_ptr<delta::DeltaLog> log,
             std::shared_ptr<DataFileAccess> access);
  // Open at `version` (latest: nullopt) through `access`, which a past
  // version shares with the table it was opened from.
  static std::unique_ptr<DeltaTable> OpenWith(FileSystem* fs, const std::string& name, const std::string& path,
                                              std::optional<int64_t> version, std::shared_ptr<DataFileAccess> access);
  void SetSnapshot(delta::Snapshot snapshot);
  // Commits `actions` as the next version, retrying lost races while no
  // concurrent commit removed one of `removed_paths` or changed the metadata.
  // `new_files`: what DeltaFileWriter::Finish listed for the files the
  // actions add, made durable before the commit is visible.
  // Refuses (ConstraintError) a commit that removes a file with dataChange =
  // true while the base it commits on has delta.appendOnly = true.
  // `*visible` (when given) becomes true once the commit may be visible: from
  // then on the files it names must not be deleted, even if this throws.
  int64_t CommitActions(const std::vector<delta::Action>& actions, const std::vector<std::string>& removed_paths,
                        const std::string& operation, const DurableSet& new_files = {}, bool* visible = nullptr);
  // The current snapshot, to become the next version: moved out of state_
  // when nothing else holds it (state_ must then be replaced before anyone
  // reads it), copied otherwise. Copying a table of many files on every
  // commit would cost more than the commit.
  delta::Snapshot TakeSnapshotForCommit();
  // The commit time of `base`'s version (its in-commit timestamp when it has
  // one), which the next in-commit timestamp must exceed; none for an empty
  // table or when it cannot be read.
  std::optional<int64_t> PreviousCommitTime(const delta::Snapshot& base);
  // `actions` as one commit attempt over `base` (at version base.version + 1)
  // writes them: stamped with an in-commit timestamp and row ids
  // (storage/delta/row_tracking.hpp) when the table has them after the
  // commit; nullopt when nothing needs stamping. A refused row tracking
  // change (CheckRowTrackingEnablement) or an add without numRecords is the
  // failed Status (delta_commit_stamp.cpp).
  Result<std::optional<std::vector<delta::Action>>> StampAttempt(const std::vector<delta::Action>& actions,
                                                                 const delta::Snapshot& base);
  friend class DeltaMaintenance;
  // Commit() of a TableCommit with `replace` set (delta_replace.cpp).
  void CommitReplace(TableCommit& commit);
  void CommitMetadata(delta::Metadata metadata, const std::string& operation, delta::StringMap parameters);
  // `metadata`: the current one with changed properties. Refuses changing
  // delta.columnMapping.maxColumnId or the mapping mode, except none -> name,
  // which it applies to `metadata` (ids, physical names = current names).
  void CheckColumnMappingChange(delta::Metadata& metadata) const;

  FileSystem* open_fs_;  // what fs_ passes to while access is enabled
  std::shared_ptr<TableFileSystem> fs_;
  std::string name_;
  std::string path_;
  std::unique_ptr<delta::DeltaLog> log_;
  std::shared_ptr<const DeltaSnapshotState> state_;
  std::shared_ptr<DataFileAccess> access_;
  // Data file names made durable ahead of the commits (data_file_pool.hpp),
  // shared with the other table objects of this path; held so that writers
  // find it (DataFilePool::Find) and its unused names go with the last one.
  std::shared_ptr<DataFilePool> pool_;
  bool read_only_ = false;
};

// Deletes the files of `writers` when it goes out of scope before `visible`
// became true (the commit naming them failed or was never attempted).
class AbortUnlessCommitted {
 public:
  AbortUnlessCommitted(std::vector<DeltaFileWriter*> writers, const bool& visible)
      : writers_(std::move(writers)), visible_(visible) {}
  ~AbortUnlessCommitted();
  AbortUnlessCommitted(const AbortUnlessCommitted&) = delete;
  AbortUnlessCommitted& operator=(const AbortUnlessCommitted&) = delete;

 private:
  std::vector<DeltaFileWriter*> writers_;
  const bool& visible_;
};

// A scan of the given files of a snapshot state (all files when `files` is
// empty); row ids use the file's index in state->files.
std::unique_ptr<TableScan> MakeDeltaScan(std::shared_ptr<const DeltaSnapshotState> state, std::vector<idx_t> column_ids,
                                         std::vector<uint64_t> files = {});

// Data skipping: can the file `add` hold a row for which every filter (over
// the projected columns `column_ids`) is true? False only when its partition
// values or statistics prove not.
bool FileMayMatch(const DeltaSnapshotState& state, const delta::AddFile& add, const std::vector<idx_t>& column_ids,
                  const std::vector<TableFilter>& filters);

// commitInfo.engineInfo of every commit lakestream writes.
inline constexpr char kEngineInfo[] = "lakestream/" LAKESTREAM_VERSION;

// A failed Status from the log layer thrown as the SQL layer's typed error
// (CorruptionError, NotImplementedError, InvalidInputError, IOError), naming
// the table.
[[noreturn]] void ThrowFor(const std::string& table, const Status& s);

// Refuses changing `column` of `table` from `from` to `to` unless each leaf
// that changes widens as Delta allows and the table enables type widening
// (PROTOCOL "Type Widening": writers reject widening otherwise).
void CheckTypeChanges(const delta::Snapshot& snapshot, const std::string& table, const std::string& column,
                      const LogicalType& from, const LogicalType& to);

// The remove action that retires `add` (with extended file metadata, as Spark writes it).
delta::RemoveFile RemoveFor(const delta::AddFile& add, int64_t now_ms, bool data_change);

// The metaData action of a new table `name` with `definition` (a new id, now
// as its creation time; delta.enableChangeDataFeed kept only when true).
// With column mapping every field gets an id and a physical name. When
// `replacing` (CREATE OR REPLACE), the replaced table's id is kept, column
// ids continue from its maxColumnId and physical names are
// DerivedPhysicalName's: the same on every call.
delta::Metadata MetadataFor(const std::string& name, const DeltaTableDefinition& definition,
                            const delta::Metadata* replacing = nullptr);

// "col-<uuid-like>" derived from a table id and a column mapping id (which a
// table never reuses): unique within the table, and the same on every call.
std::string DerivedPhysicalName(const std::string& table_id, int64_t id);

// The txn actions (application id -> version) a commit carries: how streams,
// views and pipelines record their progress in the same commit as their rows.
void AppendTxnActions(const std::vector<std::pair<std::string, int64_t>>& txns, int64_t now_ms,
                      std::vector<delta::Action>& actions);

// The Delta schema of `columns`, `snapshot`'s columns evolved (new columns,
// new STRUCT fields, wider types; each keeps its metadata). Under column
// mapping new fields get ids (maxColumnId updated in `configuration`) and
// physical names derived from the table and field ids: the same on every
// call, so data files written before the commit match its schema.
std::vector<delta::DeltaColumn> EvolvedDeltaSchema(const delta::Snapshot& snapshot, const std::vector<TableColumn>& columns,
                                                   const std::string& name, delta::StringMap& configuration);

// Engine columns of a Delta schema (nullable=false -> NOT NULL).
std::vector<TableColumn> ColumnsFromDeltaSchema(const std::vector<delta::DeltaColumn>& schema);
// The physical names of `snapshot`'s columns (DeltaSnapshotState::physical_names).
std::vector<std::string> PhysicalColumnNames(const delta::Snapshot& snapshot);

}  // namespace lakestream
