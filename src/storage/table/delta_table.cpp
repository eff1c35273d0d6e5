#include "storage/table/delta_table.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

#include "common/confined_file_system.hpp"
#include "common/exception.hpp"
#include "common/external_access.hpp"
#include "common/json_parse.hpp"
#include "common/json_writer.hpp"
#include "common/string_util.hpp"
#include "storage/delta/column_mapping.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/in_commit_timestamp.hpp"
#include "storage/delta/log_sync.hpp"
#include "storage/delta/row_tracking.hpp"  // AssignMaterializedColumnNames
#include "storage/table/data_file_pool.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {

AbortUnlessCommitted::~AbortUnlessCommitted() {
  if (visible_) return;
  for (auto* writer : writers_) writer->Abort();
}

int64_t DeltaTable::NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

delta::RemoveFile RemoveFor(const delta::AddFile& add, int64_t now_ms, bool data_change) {
  delta::RemoveFile remove;
  remove.path = add.path;
  remove.deletion_timestamp = now_ms;
  remove.data_change = data_change;
  remove.extended_file_metadata = true;
  remove.partition_values = add.partition_values;
  remove.size = add.size;
  // A file's identity is its path and deletion vector (PROTOCOL.md
  // "Reconciliation"): the remove names the one being removed.
  remove.deletion_vector = add.deletion_vector;
  // Row tracking: removes repeat the removed add's values (PROTOCOL "Row Tracking").
  remove.base_row_id = add.base_row_id;
  remove.default_row_commit_version = add.default_row_commit_version;
  return remove;
}

void AppendTxnActions(const std::vector<std::pair<std::string, int64_t>>& txns, int64_t now_ms,
                      std::vector<delta::Action>& actions) {
  for (const auto& [app_id, version] : txns) {
    delta::Txn txn;
    txn.app_id = app_id;
    txn.version = version;
    txn.last_updated = now_ms;
    actions.emplace_back(std::move(txn));
  }
}

std::vector<TableColumn> ColumnsFromDeltaSchema(const std::vector<delta::DeltaColumn>& schema) {
  std::vector<TableColumn> columns;
  columns.reserve(schema.size());
  for (auto& c : schema) columns.push_back({c.name, c.type, !c.nullable, Value(c.type)});
  return columns;
}

std::vector<std::string> PhysicalColumnNames(const delta::Snapshot& snapshot) {
  std::vector<std::string> names;
  names.reserve(snapshot.schema.size());
  bool mapped = delta::ColumnMappingMode(snapshot.metadata) != "none";
  for (auto& c : snapshot.schema) {
    std::string name = c.name;
    if (mapped) {
      auto md = ParseJson(c.metadata_json);
      auto it = md.is_object() ? md.find("delta.columnMapping.physicalName") : md.end();
      if (md.is_object() && it != md.end() && it->is_string()) name = it->get<std::string>();
    }
    names.push_back(std::move(name));
  }
  return names;
}

void ThrowFor(const std::string& table, const Status& s) {
  std::string message = "Delta table " + table + ": " + s.message();
  if (s.IsCorruption()) throw CorruptionError(message);
  if (s.code() == Status::Code::kNotSupported) throw NotImplementedError(message);
  if (s.code() == Status::Code::kInvalidArgument) throw InvalidInputError(message);
  throw IOError(message);
}

DeltaTable::DeltaTable(std::shared_ptr<TableFileSystem> fs, std::string name, std::string path,
                       std::unique_ptr<delta::DeltaLog> log, std::shared_ptr<DataFileAccess> access)
    : fs_(std::move(fs)),
      name_(std::move(name)),
      path_(std::move(path)),
      log_(std::move(log)),
      access_(std::move(access)),
      pool_(DataFilePool::ForTable(path_)) {}

DeltaTable::~DeltaTable() {
  if (!read_only_) delta::WaitForCheckpoints(path_);
}

const std::vector<const delta::AddFile*>& DeltaFileList::List() const {
  if (map_) {
    // A decode that throws leaves the flag unset: the next use tries again.
    std::call_once(listed_, [&] {
      const delta::FileMap::Map& files = map_->Get();
      std::vector<const delta::AddFile*> list;
      list.reserve(files.size());
      for (const auto& [path, add] : files) list.push_back(&add);
      list_ = std::move(list);
    });
  }
  return list_;
}

void DeltaTable::SetSnapshot(delta::Snapshot snapshot) {
  auto state = std::make_shared<DeltaSnapshotState>();
  state->access = access_;
  state->snapshot = std::move(snapshot);
  state->columns = ColumnsFromDeltaSchema(state->snapshot.schema);
  state->physical_names = PhysicalColumnNames(state->snapshot);
  if (delta::ColumnMappingMode(state->snapshot.metadata) != "none") {
    for (auto& c : state->snapshot.schema) state->physical_types.push_back(delta::PhysicalType(c));
  }
  if (delta::ColumnMappingMode(state->snapshot.metadata) == "id") {
    for (auto& c : state->snapshot.schema) state->id_fields.push_back(delta::MappedParquetField(c, "id"));
  }
  state_ = std::move(state);
}

std::unique_ptr<DeltaTable> DeltaTable::Open(FileSystem* fs, const std::string& name, const std::string& path,
                                             std::optional<int64_t> version, const ExternalAccessPolicy* policy) {
  return OpenWith(fs, name, path, version, DataFileAccess::For(path, policy));
}

std::unique_ptr<DeltaTable> DeltaTable::OpenWith(FileSystem* open_fs, const std::string& name, const std::string& path,
                                                 std::optional<int64_t> version, std::shared_ptr<DataFileAccess> access) {
  auto table_fs = std::make_shared<TableFileSystem>(open_fs, access);
  FileSystem* fs = table_fs.get();
  auto log = delta::DeltaLog::Open(fs, path);
  if (!log.ok()) ThrowFor(name, log.status());
  if (!log.value()->Exists()) {
    // "Cannot look there" (refused credentials, an unreachable store) is
    // not "no table there".
    auto latest = log.value()->LatestVersion();
    if (!latest.ok()) ThrowFor(name, latest.status());
    throw CatalogError("No Delta table at " + path + " (for table " + name +
                       "): the directory has no _delta_log. Check the path, or create the table with CREATE TABLE");
  }
  // A checkpoint this process is still writing for the table is worth
  // waiting for: it saves replaying the commits it covers.
  if (!version) delta::WaitForCheckpoints(path);
  auto snapshot = log.value()->LoadSnapshot(version);
  if (!snapshot.ok()) ThrowFor(name, snapshot.status());
  if (snapshot.value().schema.empty()) {
    throw NotImplementedError("Delta table " + name + " at " + path + " has no schema in its log (version " +
                              std::to_string(snapshot.value().version) + "); tables without a schemaString cannot be read");
  }
  std::unique_ptr<DeltaTable> table(new DeltaTable(std::move(table_fs), name, path, log.take(), std::move(access)));
  table->open_fs_ = open_fs;
  table->SetSnapshot(snapshot.take());
  table->read_only_ = version.has_value();
  return table;
}

delta::Metadata MetadataFor(const std::string& name, const DeltaTableDefinition& definition,
                            const delta::Metadata* replacing) {
  std::vector<delta::DeltaColumn> schema;
  for (auto& c : definition.columns) {
    delta::DeltaColumn column;
    column.name = c.name;
    column.type = c.type;
    column.nullable = !c.not_null;
    schema.push_back(std::move(column));
  }
  delta::StringMap configuration(definition.properties.begin(), definition.properties.end());
  std::string table_id = replacing ? replacing->id : NewUuid();
  if (delta::ColumnMappingModeOf(configuration) != "none") {
    Status s;
    if (replacing) {
      // Ids go on from the replaced table's (a change feed across the
      // replace never reads an old file's column as a new one), and names
      // are derived, so that the rows written before the commit agree with it.
      configuration.erase(delta::kColumnMappingMaxId);
      for (auto& [k, v] : replacing->configuration) {
        if (StringUtil::CIEquals(k, delta::kColumnMappingMaxId)) configuration[delta::kColumnMappingMaxId] = v;
      }
      s = delta::AssignColumnMapping(
          schema, configuration, [&](const std::string&, int64_t id) { return DerivedPhysicalName(table_id, id); });
    } else {
      // A new mapped table: every field gets an id and a fresh physical name, as Spark names them.
      s = delta::AssignColumnMapping(schema, configuration, [](const std::string&, int64_t) { return "col-" + NewUuid(); });
    }
    if (!s.ok()) ThrowFor(name, s);
  }
  delta::AssignMaterializedColumnNames(configuration, replacing, NewUuid);
  auto schema_string = delta::SchemaToString(schema);
  if (!schema_string.ok()) ThrowFor(name, schema_string.status());
  delta::Metadata metadata;
  metadata.id = table_id;
  metadata.name = name;
  if (!definition.description.empty()) metadata.description = definition.description;
  metadata.schema_string = schema_string.take();
  metadata.partition_columns = definition.partition_columns;
  for (auto& [k, v] : configuration) metadata.configuration[k] = v;
  metadata.created_time = DeltaTable::NowMs();
  if (StringUtil::Lower(metadata.configuration["delta.enableChangeDataFeed"]) != "true") {
    metadata.configuration.erase("delta.enableChangeDataFeed");
  }
  return metadata;
}

std::unique_ptr<DeltaTable> DeltaTable::Create(FileSystem* fs, const std::string& name, const std::string& path,
                                               const DeltaTableDefinition& definition) {
  auto log = delta::DeltaLog::Open(fs, path);
  if (!log.ok()) ThrowFor(name, log.status());
  if (log.value()->Exists()) {
    throw CatalogError("A Delta table already exists at " + path + "; attach it with CREATE TABLE " + name +
                       " LOCATION '" + path + "', or choose another location");
  }
  delta::Metadata metadata = MetadataFor(name, definition);
  delta::Protocol protocol;
  protocol.min_reader_version = 1;
  // Writer version 4 makes other writers produce change data files too.
  protocol.min_writer_version = metadata.configuration.count("delta.enableChangeDataFeed") ? 4 : 2;
  auto columns = delta::ParseSchemaString(metadata.schema_string);
  if (!columns.ok()) ThrowFor(name, columns.status());
  delta::AddRequiredFeatures(columns.value(), metadata.configuration, protocol);
  delta::StringMap parameters;
  parameters["isManaged"] = "true";
  parameters["partitionBy"] = "[" + StringUtil::Join(definition.partition_columns, ",") + "]";
  auto info = delta::CommitInfo::Make(NowMs(), "CREATE TABLE", parameters, true);
  info.engine_info = kEngineInfo;
  std::vector<delta::Action> actions =
      delta::StampInCommitTimestamp({info, protocol, metadata}, metadata, 0, NowMs(), std::nullopt);
  // The table root too: it holds the name of the new _delta_log directory.
  DurableSet first;
  first.directories.insert(log.value()->table_path());
  Status s = log.value()->Commit(0, actions, first);
  if (s.IsAlreadyExists()) {
    throw ConflictError("Another writer created a Delta table at " + path + " while CREATE TABLE " + name +
                        " ran; attach it with LOCATION, or choose another location");
  }
  if (!s.ok()) ThrowFor(name, s);
  return Open(fs, name, path);
}

void DeltaTable::Refresh() {
  if (read_only_) return;
  // Nothing newer: skip UpdateSnapshot's copy of the snapshot (every query
  // refreshes, and a large table's snapshot holds thousands of files).
  if (state_->snapshot.version >= 0 && !log_->CommitExists(state_->snapshot.version + 1)) return;
  auto updated = log_->UpdateSnapshot(state_->snapshot);
  if (!updated.ok()) ThrowFor(name_, updated.status());
  if (updated.value().version != state_->snapshot.version) SetSnapshot(updated.take());
}

void DeltaTable::SyncLog() {
  if (!log_->CanDeferSync()) return;
  Status s = delta::SyncLogDirectory(Fs(), log_->log_path());
  if (!s.ok()) ThrowFor(name_, s);
}

std::unique_ptr<DeltaTable> DeltaTable::AtVersion(int64_t version) const {
  if (version < 0) throw InvalidInputError("VERSION AS OF " + std::to_string(version) + " on table " + name_ + ": versions start at 0");
  if (version > state_->snapshot.version) {
    throw InvalidInputError("Table " + name_ + " has no version " + std::to_string(version) + "; the latest version is " +
                            std::to_string(state_->snapshot.version) + " (see DESCRIBE HISTORY " + name_ + ")");
  }
  return OpenWith(open_fs_, name_, path_, version, access_);
}

std::unique_ptr<DeltaTable> DeltaTable::AtTimestamp(timestamp_t timestamp) const {
  auto version = log_->VersionAtOrBefore(timestamp / 1000);
  if (!version.ok()) ThrowFor(name_, version.status());
  return OpenWith(open_fs_, name_, path_, version.value(), access_);
}

// PROTOCOL.md "Append-only Tables": new log entries must not change or remove
// data; a remove with dataChange = false (OPTIMIZE) only rearranges it. This is
// the check no writer can go around, whatever the statement above it checked.
static void CheckAppendOnly(const std::string& table, const delta::Snapshot& base, const std::vector<delta::Action>& actions,
                            const std::string& operation) {
  if (!base.AppendOnly()) return;
  for (auto& a : actions) {
    auto* remove = std::get_if<delta::RemoveFile>(&a);
    if (!remove || !remove->data_change) continue;
    throw ConstraintError(operation + " on table " + table + " is not allowed: it has delta.appendOnly = true, which allows "
                          "only inserts, and this commit would remove rows (data file " + remove->path +
                          "). To allow it run ALTER TABLE " + table + " SET TBLPROPERTIES ('delta.appendOnly' = 'false')");
  }
}

int64_t DeltaTable::CommitActions(const std::vector<delta::Action>& actions, const std::vector<std::string>& removed_paths,
                                  const std::string& operation, const DurableSet& new_files, bool* visible) {
  if (read_only_) throw InvalidInputError("Table " + name_ + " is opened at an older version (time travel) and cannot be written");
  Status writable = delta::CheckWritable(name_, state_->snapshot);
  if (!writable.ok()) ThrowFor(name_, writable);
  CheckAppendOnly(name_, state_->snapshot, actions, operation);
  // The snapshot the commit moves forward: the current one, or a newer one
  // after losing a race to another writer.
  std::optional<delta::Snapshot> newer_base;
  for (int attempt = 0; attempt < 1000; attempt++) {
    const delta::Snapshot& base = newer_base ? *newer_base : state_->snapshot;
    int64_t version = base.version + 1;
    // In-commit timestamps and row ids depend on the version the commit
    // lands at, so they are stamped per attempt.
    auto stamped = StampAttempt(actions, base);
    if (!stamped.ok()) ThrowFor(name_, stamped.status());
    const std::vector<delta::Action>& committed = stamped.value() ? *stamped.value() : actions;
    // Under a DeferredLogSync (a statement that waits for durability after
    // letting go of its locks) the last fsync is left to the scope, which
    // first makes durable what this commit may depend on: the commits to
    // other tables it holds (a view's source before the view). Those fsyncs
    // run alongside this commit's first flush round, before its link.
    delta::DeferredLogSync* deferred = log_->CanDeferSync() ? delta::DeferredLogSync::Current() : nullptr;
    std::function<Status()> depended_on;
    if (deferred && deferred->PendingExcept(log_->log_path())) {
      depended_on = [deferred, this] { return deferred->FlushExcept(log_->log_path()); };
    }
    // The log entry goes to an empty temp file made ahead (data_file_pool.hpp):
    // no inode is created on the commit's way.
    std::optional<std::string> spare = pool_ ? pool_->Take(fs_, log_->log_path(), "log") : std::nullopt;
    Status s = log_->Commit(version, committed, new_files,
                            deferred ? delta::DeltaLog::Sync::kDeferred : delta::DeltaLog::Sync::kNow, depended_on,
                            spare ? JoinPath(log_->log_path(), *spare) : std::string());
    if (deferred && s.ok()) deferred->Defer(fs_, log_->log_path());
    // A failure after the link (the final directory fsync) leaves the commit
    // visible; when the file is there, it may be ours.
    if (visible && (s.ok() || (!s.IsAlreadyExists() && log_->CommitExists(version)))) *visible = true;
    if (s.ok()) {
      // The new version is `base` plus these actions: applied here rather
      // than re-listed and re-read from the log (a commit by another writer
      // after ours is picked up by the next Refresh()). Whether we can read
      // the result is checked first, on the protocol and metadata alone, so
      // that nothing below fails once `base` is taken.
      std::optional<int64_t> timestamp;
      delta::Protocol protocol = base.protocol;
      const delta::Metadata* new_metadata = nullptr;
      for (auto& a : committed) {
        if (auto* info = std::get_if<delta::CommitInfo>(&a)) timestamp = info->CommitTimeMs();
        if (auto* p = std::get_if<delta::Protocol>(&a)) protocol = *p;
        if (auto* m = std::get_if<delta::Metadata>(&a)) new_metadata = m;
      }
      Status readable = delta::CheckReadable(path_, protocol, new_metadata ? *new_metadata : base.metadata);
      if (readable.ok() && new_metadata) readable = delta::ParseSchemaString(new_metadata->schema_string).status();
      if (!readable.ok()) ThrowFor(name_, readable);
      delta::Snapshot next = newer_base ? std::move(*newer_base) : TakeSnapshotForCommit();
      next.warnings.clear();
      next.Apply(version, committed, timestamp);
      if (new_metadata) (void)next.ParseSchema();  // cannot fail: its schema string parsed above
      int64_t interval = next.CheckpointInterval();
      bool checkpoint_due = interval > 0 && version > 0 && version % interval == 0;
      // A checkpoint lists every tombstone: those of the checkpoint this
      // snapshot was loaded from are read now and kept from here on, so no
      // later checkpoint depends on reading an older one.
      // A failed checkpoint costs only speed; the commit itself stands.
      if (checkpoint_due) checkpoint_due = delta::LoadCheckpointTombstones(Fs(), next).ok();
      SetSnapshot(std::move(next));
      // Written by the background thread (checkpoint_writer.hpp): the commit
      // does not wait for it. Holding the state makes the next commit copy
      // the snapshot while the checkpoint is being written.
      if (checkpoint_due) delta::SubmitCheckpoint(fs_, path_, std::shared_ptr<const delta::Snapshot>(state_, &state_->snapshot));
      return version;
    }
    if (!s.IsAlreadyExists()) ThrowFor(name_, s);
    // Another writer committed `version` first: is our change still valid on top of it?
    auto newer = log_->UpdateSnapshot(base);
    if (!newer.ok()) ThrowFor(name_, newer.status());
    for (int64_t v = base.version + 1; v <= newer.value().version; v++) {
      std::string winner = "a concurrent commit";
      auto history = log_->ReadCommit(v);
      if (history.ok()) {
        for (auto& a : history.value()) {
          if (auto* info = std::get_if<delta::CommitInfo>(&a)) winner = info->operation.value_or(winner) + " (version " + std::to_string(v) + ")";
        }
      }
      CheckAppendOnly(name_, newer.value(), actions, operation);
      if (!(newer.value().metadata == base.metadata)) {
        throw ConflictError(operation + " on table " + name_ + " conflicts with " + winner +
                            ", which changed the table's schema or properties; run the statement again");
      }
      for (auto& path : removed_paths) {
        // A file whose deletion vector changed has changed too (PROTOCOL.md:
        // a file's identity is its path and deletion vector).
        auto now_file = newer.value().files.find(path);
        auto then_file = base.files.find(path);
        if (now_file == newer.value().files.end() ||
            (then_file != base.files.end() &&
             delta::DeletionVectorId(now_file->second.deletion_vector) != delta::DeletionVectorId(then_file->second.deletion_vector))) {
          throw ConflictError(operation + " on table " + name_ + " conflicts with " + winner +
                              ", which rewrote or removed data files this statement changes; run the statement again");
        }
      }
    }
    newer_base = newer.take();
  }
  throw ConflictError(operation + " on table " + name_ + " lost the race to commit 1000 times in a row; try again later");
}

delta::Snapshot DeltaTable::TakeSnapshotForCommit() {
  // Statements run one at a time per database, so nothing can copy state_
  // between this check and the move. A state held elsewhere (a scan still
  // open, a time-travel read) is copied instead; ours is replaced right after.
  if (state_.use_count() == 1) {
    // The state was made non-const (SetSnapshot), so moving out of it is sound.
    auto& owned = const_cast<DeltaSnapshotState&>(*state_);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
    return std::move(owned.snapshot);
  }
  return state_->snapshot;
}

void CheckTypeChanges(const delta::Snapshot& snapshot, const std::string& table, const std::string& column,
                             const LogicalType& from, const LogicalType& to) {
  std::vector<TypeChange> changes;
  LeafTypeChanges(from, to, column, changes);
  for (auto& change : changes) {
    std::string what = change.path + " of table " + table + " from " + change.from.ToString() + " to " + change.to.ToString();
    if (!DeltaAllowsWidening(change.from, change.to)) {
      throw InvalidInputError(
          "Cannot change column " + what + ": Delta type widening allows only INTEGER to BIGINT, DOUBLE or "
          "DECIMAL(10+k, s); BIGINT to DECIMAL(20+k, s); DECIMAL(p, s) to DECIMAL(p+k1, s+k2) with k1 >= k2; and DATE to "
          "TIMESTAMP_NTZ. For any other change rewrite the table: CREATE OR REPLACE TABLE " + table +
          " AS SELECT ... CAST(" + column + " AS <type>) AS " + column + " ... FROM " + table);
    }
    if (!StringUtil::CIEquals(snapshot.Property("delta.enableTypeWidening"), "true")) {
      throw InvalidInputError("Cannot widen column " + what + ": the table does not enable Delta type widening. Run "
                              "ALTER TABLE " + table + " SET TBLPROPERTIES ('delta.enableTypeWidening' = 'true') first "
                              "(readers then need type widening support: Delta Lake 3.2 or later, Databricks Runtime 15.4 or later)");
    }
  }
}

void DeltaTable::CommitMetadata(delta::Metadata metadata, const std::string& operation, delta::StringMap parameters) {
  std::vector<delta::Action> actions;
  auto info = delta::CommitInfo::Make(NowMs(), operation, std::move(parameters), false, state_->snapshot.version);
  info.engine_info = kEngineInfo;
  actions.emplace_back(info);
  bool cdf = StringUtil::Lower(metadata.configuration.count("delta.enableChangeDataFeed") ? metadata.configuration["delta.enableChangeDataFeed"] : "") == "true";
  delta::Protocol protocol = state_->snapshot.protocol;
  bool changed = false;
  if (cdf && protocol.min_writer_version < 4) {
    protocol.min_writer_version = 4;
    changed = true;
  }
  auto columns = delta::ParseSchemaString(metadata.schema_string);
  if (!columns.ok()) ThrowFor(name_, columns.status());
  if (delta::AddRequiredFeatures(columns.value(), metadata.configuration, protocol)) changed = true;
  if (changed) actions.emplace_back(protocol);
  actions.emplace_back(std::move(metadata));
  CommitActions(actions, {}, operation);
}

void DeltaTable::AlterColumnType(const std::string& column, const LogicalType& type) {
  std::vector<delta::DeltaColumn> schema = state_->snapshot.schema;
  delta::DeltaColumn* target = nullptr;
  for (auto& c : schema) {
    if (StringUtil::CIEquals(c.name, column)) target = &c;
  }
  if (!target) throw CatalogError("Table " + name_ + " has no column " + column);
  if (target->type == type) return;
  CheckTypeChanges(state_->snapshot, name_, target->name, target->type, type);
  target->type = type;
  auto schema_string = delta::SchemaToString(schema);
  if (!schema_string.ok()) ThrowFor(name_, schema_string.status());
  delta::Metadata metadata = state_->snapshot.metadata;
  metadata.schema_string = schema_string.take();
  delta::StringMap parameters;
  parameters["column"] = target->name;
  parameters["newType"] = type.ToString();
  CommitMetadata(std::move(metadata), "CHANGE COLUMN", parameters);
}

void DeltaTable::AddColumns(const std::vector<TableColumn>& new_columns) {
  std::vector<delta::DeltaColumn> schema = state_->snapshot.schema;
  for (auto& c : new_columns) {
    delta::DeltaColumn column;
    column.name = c.name;
    column.type = c.type;
    column.nullable = !c.not_null;
    schema.push_back(std::move(column));
  }
  delta::Metadata metadata = state_->snapshot.metadata;
  if (delta::ColumnMappingMode(metadata) != "none") {
    Status s = delta::AssignColumnMapping(schema, metadata.configuration, [](const std::string&, int64_t) { return "col-" + NewUuid(); });
    if (!s.ok()) ThrowFor(name_, s);
  }
  auto schema_string = delta::SchemaToString(schema);
  if (!schema_string.ok()) ThrowFor(name_, schema_string.status());
  metadata.schema_string = schema_string.take();
  std::vector<std::string> names;
  names.reserve(new_columns.size());
  for (auto& c : new_columns) names.push_back(c.name);
  delta::StringMap parameters;
  parameters["columns"] = "[" + StringUtil::Join(names, ",") + "]";
  CommitMetadata(std::move(metadata), "ADD COLUMNS", parameters);
}

}  // namespace lakestream
