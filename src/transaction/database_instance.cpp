#include "transaction/database_instance.hpp"

#include "catalog/sink_credentials.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <algorithm>

#include "catalog/object_folder.hpp"
#include "common/date.hpp"
#include "common/s3/s3_file_system.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/log_sync.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

static bool TryLock(CatalogStore& store) {
  bool acquired = false;
  Status s = store.TryLock(&acquired);
  if (!s.ok()) s.Throw();
  return acquired;
}

// The S3 secret whose SCOPE best matches `path`, env() values read now.
static std::optional<Result<S3Config>> S3SecretConfig(SecretManager& secrets, const std::string& path) {
  try {
    auto secret = secrets.Which(path, "s3");
    if (!secret) return std::nullopt;
    std::vector<std::pair<std::string, std::string>> values;
    for (auto& [k, v] : secret->values) values.emplace_back(k, ResolveEnvValue(v, "S3 secret " + secret->name));
    return S3ConfigFromValues(values, "secret " + secret->name);
  } catch (const std::exception& e) {
    return Result<S3Config>(Status::InvalidArgument(e.what()));
  }
}

DatabaseInstance::DatabaseInstance(std::string path, DatabaseOptions options)
    : path_(std::move(path)),
      options_(std::move(options)),
      access_policy_(path_, options_.enable_external_access, options_.allowed_directories, options_.allowed_paths),
      fs_(FileSystem::Default()) {
  uint64_t token = RegisterS3ConfigSource([this](const std::string& path) { return S3SecretConfig(Secrets(), path); });
  s3_config_ = std::shared_ptr<void>(nullptr, [token](void*) { UnregisterS3ConfigSource(token); });
  if (InMemory()) return;
  if (IsRemotePath(path_)) {
    // The catalog and the write lease are objects (object_catalog_store.hpp).
    auto parsed = ParseS3Path(path_);
    if (!parsed.ok() || parsed.value().bucket.empty()) {
      throw InvalidInputError("Cannot open the database " + path_ + ": " +
                              (parsed.ok() ? "the URL names no bucket" : parsed.status().message()) +
                              "; give it as s3://bucket/prefix");
    }
    while (path_.back() == '/') path_.pop_back();  // the bucket keeps the URL from ending in '/'
  } else {
    while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
  }
  auto store = CatalogStore::Open(fs_, path_, options_.read_only);
  if (!store.ok()) store.status().Throw();
  store_ = store.take();
  auto record = store_->Load();
  if (!record.ok()) record.status().Throw();
  record_ = record.take();
  // With the lock free, a crashed writer's leftovers (a half-done rename,
  // a pending stream offset) are settled now; otherwise its holder does it.
  // On object storage taking the lock is a lease written to the bucket: a
  // process that only reads must not write, so there the next writing
  // statement settles them (AfterWriteLockTaken).
  bool locked = !options_.read_only && !IsRemotePath(path_) && TryLock(*store_);
  LoadTables();
  if (locked) ReconcileStreamOffsets(*this);
  ReleaseWriteLock();
}

void DatabaseInstance::AcquireWriteLock(const std::function<void()>& check_interrupt) {
  if (InMemory() || options_.read_only || HoldsWriteLock()) return;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.lock_wait_ms);
  // The wait sleeps in the kernel (CatalogStore::WaitLock) and wakes when the
  // holder lets go; it returns every slice only to look for an interrupt.
  constexpr auto kSlice = std::chrono::milliseconds(50);
  try {
    while (true) {
      bool acquired = false;
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      Status s = store_->WaitLock(std::max(std::chrono::milliseconds(0), std::min(left, kSlice)), &acquired);
      if (!s.ok()) s.Throw();
      if (acquired) break;
      if (check_interrupt) check_interrupt();
      if (std::chrono::steady_clock::now() >= deadline) {
        throw IOError(store_->BusyError() + " (waited " + std::to_string(options_.lock_wait_ms / 1000.0).substr(0, 3) + " s)");
      }
    }
  } catch (...) {
    store_->StopWaiting();  // gives up its place in line
    throw;
  }
  AfterWriteLockTaken();
}

bool DatabaseInstance::TryAcquireWriteLock() {
  if (InMemory() || options_.read_only) return false;
  if (HoldsWriteLock()) return true;
  if (!TryLock(*store_)) return false;
  AfterWriteLockTaken();
  return true;
}

void DatabaseInstance::AfterWriteLockTaken() {
  try {
    ReloadCatalogIfChanged();
    ReconcileStreamOffsets(*this);
  } catch (...) {
    ReleaseWriteLock();
    throw;
  }
}

void DatabaseInstance::ReleaseWriteLock() {
  if (store_ && write_holds_ == 0) store_->Unlock();
}

void DatabaseInstance::HoldWriteLock(const std::function<void()>& check_interrupt) {
  AcquireWriteLock(check_interrupt);
  write_holds_++;
}

void DatabaseInstance::UnholdWriteLock() {
  if (write_holds_ == 0) return;
  if (--write_holds_ == 0) ReleaseWriteLock();
}

// Whether `fresh` is `old` after exactly one save that changed nothing but
// sinks (a sink's pass recording its progress, many times a second while a
// follower keeps up with a writer). One save, because two could have
// dropped a table and created another at its place, which leaves the
// records as they were but the table a different one.
static bool OnlySinksChanged(const CatalogRecord& old, const CatalogRecord& fresh) {
  if (fresh.version != old.version + 1) return false;
  CatalogRecord a = old, b = fresh;
  a.sinks.clear();
  b.sinks.clear();
  b.version = a.version;
  return CatalogRecordToText(a) == CatalogRecordToText(b);
}

void DatabaseInstance::ReloadCatalogIfChanged() {
  if (InMemory() || !store_->ChangedOnDisk()) return;
  auto record = store_->Load();
  if (!record.ok()) record.status().Throw();
  CatalogRecord fresh = record.take();
  if (OnlySinksChanged(record_, fresh)) {
    // The tables stay open: re-opening each (its checkpoint and the commits
    // after it) cost a writer more than its own commit when a sink's
    // follower saved after every pass (bench/latency, sustained).
    for (auto& name : catalog_.SinkNames()) catalog_.DropSink(name, true);
    for (auto& sink : fresh.sinks) catalog_.CreateSink(std::make_unique<SinkCatalogEntry>(sink), true);
    record_ = std::move(fresh);
    return;
  }
  record_ = std::move(fresh);
  catalog_ = Catalog();
  LoadTables();
}

DeltaTable* DatabaseInstance::AsDelta(TableCatalogEntry& entry) { return dynamic_cast<DeltaTable*>(entry.storage.get()); }

void DatabaseInstance::RequireWritable(const std::string& what) const {
  if (options_.read_only) throw InvalidInputError("Database " + path_ + " is open read-only; " + what + " needs a writable database");
}

void DatabaseInstance::SyncFromDelta(TableCatalogEntry& entry) {
  DeltaTable* delta = AsDelta(entry);
  if (!delta) return;
  // Keep lakestream-only column facts (defaults) across schema re-reads.
  std::vector<TableColumn> columns = delta->Columns();
  for (auto& c : columns) {
    int64_t old = entry.ColumnIndex(c.name);
    if (old >= 0) c.default_value = entry.columns[old].default_value;
    if (c.default_value.type() != c.type) c.default_value = Value(c.type);
  }
  entry.columns = std::move(columns);
  entry.properties.clear();
  for (auto& [k, v] : delta->Snapshot().metadata.configuration) entry.properties.emplace_back(k, v);
  entry.partition_columns = delta->Snapshot().partition_columns();
  for (auto& k : entry.primary_key) {
    int64_t idx = entry.ColumnIndex(k);
    if (idx >= 0) entry.columns[idx].not_null = true;
  }
}

static std::string Absolute(const std::string& db, const std::string& path) {
  if ((!path.empty() && path[0] == '/') || IsRemotePath(path)) return path;
  return db + "/" + path;
}

// ALTER TABLE ... RENAME of a managed table (RenameTable in
// ddl_executor.cpp) saves the catalog with the new location and the old one
// in the entry's state as "moved_from" (relative to the database directory),
// then moves the folder with rename(2). A crash between the two leaves the
// folder under its old name: finish the move now. "moved_from" is dropped
// once the folder is in place (the next catalog save forgets it).
static void FinishMove(const std::string& db, bool read_only, TableCatalogEntry& entry) {
  if (entry.kind != TableKind::TABLE || !entry.managed || !entry.state.moved_from) return;
  if (IsRemotePath(db)) return;  // folders on object storage are never moved (RenameTable)
  std::string from = db + "/" + *entry.state.moved_from;
  struct stat st;
  if (::lstat(entry.location.c_str(), &st) != 0) {
    std::string folder = BaseName(entry.location);
    bool own_place = ParentDirectory(entry.location) == db && folder != "." && folder != "..";
    if (read_only || !own_place || !CheckOwnedFolder(db, from).ok() ||
        ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, entry.location.c_str(), RENAME_NOREPLACE) != 0) {
      return;  // keep "moved_from" for the next writable open
    }
  }
  entry.state.moved_from.reset();
}

void DatabaseInstance::LoadTables() {
  for (auto& schema : record_.schemas) catalog_.CreateSchema(schema, true);  // first: keys name them
  for (auto& record : record_.tables) {
    auto entry = std::make_unique<TableCatalogEntry>();
    entry->name = record.name;
    entry->location = Absolute(path_, record.path);
    entry->managed = record.managed;
    entry->primary_key = record.primary_key;
    entry->kind = record.kind;
    entry->definition = record.definition;
    entry->state = record.state;
    FinishMove(path_, !HoldsWriteLock(), *entry);
    try {
      auto opened_table = DeltaTable::Open(fs_, record.name, entry->location, std::nullopt, &access_policy_);
      entry->storage = std::move(opened_table);
      SyncFromDelta(*entry);
      for (auto& [column, literal] : record.defaults) {
        int64_t idx = entry->ColumnIndex(column);
        if (idx < 0) continue;
        auto expr = Parser::ParseExpression(literal);
        if (expr->type == ExpressionType::CONSTANT) entry->columns[idx].default_value = expr->value.CastAs(entry->columns[idx].type);
      }
    } catch (const Exception& e) {
      // One damaged table must not make the whole database unusable.
      entry->storage.reset();
      entry->load_error = e.what();
    }
    catalog_.CreateTable(std::move(entry), false, true);
  }
  for (auto& stream : record_.streams) catalog_.CreateStream(std::make_unique<StreamCatalogEntry>(stream), true);
  for (auto& sink : record_.sinks) catalog_.CreateSink(std::make_unique<SinkCatalogEntry>(sink), true);
  for (auto& view : record_.views) catalog_.CreateView(std::make_unique<ViewCatalogEntry>(view), true);
}

void DatabaseInstance::SaveCatalog() {
  if (InMemory()) return;
  // What the catalog is about to record (a stream's offset, a table created
  // with its rows, a view's progress) may rest on commits whose last fsync a
  // statement deferred (delta::DeferredLogSync): they are made durable first.
  if (auto* deferred = delta::DeferredLogSync::Current()) {
    Status synced = deferred->Flush();
    if (!synced.ok()) throw IOError("Database " + path_ + ": cannot make a commit durable before saving the catalog: " + synced.message());
  }
  CatalogRecord record;
  record.version = record_.version;
  for (auto& name : catalog_.TableNames()) {
    TableCatalogEntry* entry = catalog_.FindTable(name);
    CatalogTableRecord t;
    t.name = entry->name;
    t.managed = entry->managed;
    std::string prefix = path_ + "/";
    t.path = entry->managed && StringUtil::StartsWith(entry->location, prefix) ? entry->location.substr(prefix.size()) : entry->location;
    t.primary_key = entry->primary_key;
    for (auto& c : entry->columns) {
      if (c.default_value.IsNull()) continue;
      // An instant is written with its offset: the text must not depend on
      // the session time zone of whoever saves or loads the catalog.
      std::string literal = c.default_value.type().id() == TypeId::TIMESTAMP
                                ? "'" + Timestamp::ToString(c.default_value.GetTimestamp()) + "+00:00'"
                                : c.default_value.ToSQLString();
      t.defaults.emplace_back(c.name, std::move(literal));
    }
    t.kind = entry->kind;
    t.definition = entry->definition;
    t.state = entry->state;
    record.tables.push_back(std::move(t));
  }
  for (auto& name : catalog_.StreamNames()) record.streams.push_back(*catalog_.FindStream(name));
  for (auto& name : catalog_.SinkNames()) {
    SinkCatalogEntry& sink = *catalog_.FindSink(name);
    MoveStoredInlineCredentials(Secrets(), sink);  // a catalog from before secrets
    record.sinks.push_back(sink);
  }
  for (auto& name : catalog_.ViewNames()) record.views.push_back(*catalog_.FindView(name));
  record.schemas = catalog_.StoredSchemaNames();
  // Statements that write took the lock before reading the catalog; a save
  // from any other path takes it now, and must not overwrite a catalog that
  // another process changed since this one read it.
  if (!HoldsWriteLock()) {
    if (!TryLock(*store_)) throw IOError(store_->BusyError());
    if (store_->ChangedOnDisk()) {
      ReleaseWriteLock();
      throw IOError("Database " + path_ + ": another process changed the catalog while this statement ran; nothing was saved, run it again");
    }
  }
  Status s = store_->Save(record);
  if (!s.ok()) throw IOError("Cannot save the catalog of database " + path_ + ": " + s.message());
  record_ = std::move(record);
}

// A crash between creating a managed table's Delta log and saving the
// catalog (CREATE TABLE, a materialized view, a streaming table) leaves a
// folder that holds only a log with only the first commit (protocol and
// metadata, no rows) and that no catalog entry names: nothing is lost by
// creating it again. Anything else in the folder, a folder that is not
// directly inside the database directory, or a symlink, is not a leftover.
//
// A folder with the unregistered mark (MarkUnregistered) is a leftover too:
// a CREATE TABLE AS that died before the catalog save that registers it
// (its rows were never visible), or a DROP that died after the save that
// forgot it.
static const char kUnregisteredMark[] = "_lakestream_unregistered";

bool DatabaseInstance::IsCreationLeftover(const std::string& location) {
  for (auto& name : catalog_.TableNames()) {
    if (catalog_.FindTable(name)->location == location) return false;
  }
  if (!CheckOwnedFolder(path_, location).ok()) return false;
  if (fs_->FileExists(JoinPath(location, kUnregisteredMark))) return true;
  if (IsRemotePath(location)) {
    // One object: the first commit.
    auto objects = S3FileSystem::Instance()->ListRecursive(location);
    if (!objects.ok() || objects.value().size() != 1 ||
        BaseName(objects.value()[0].key) != "00000000000000000000.json" ||
        BaseName(ParentDirectory(objects.value()[0].key)) != "_delta_log") {
      return false;
    }
    auto log = delta::DeltaLog::Open(fs_, location);
    if (!log.ok()) return false;
    auto latest = log.value()->LatestVersion();
    return latest.ok() && latest.value() == 0;
  }
  auto entries = fs_->ListDirectory(location);
  if (!entries.ok() || entries.value() != std::vector<std::string>{"_delta_log"}) return false;
  std::string log_dir = location + "/_delta_log";
  struct stat st;
  if (::lstat(log_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  auto log_files = fs_->ListDirectory(log_dir);
  if (!log_files.ok()) return false;
  for (auto& file : log_files.value()) {
    if (file != "00000000000000000000.json" && !FileSystem::IsTempFileName(file)) return false;
  }
  auto log = delta::DeltaLog::Open(fs_, location);
  if (!log.ok()) return false;
  auto latest = log.value()->LatestVersion();
  return latest.ok() && latest.value() == 0;
}

// What a new managed table may find in its folder: nothing, or an empty
// _delta_log (a creation that crashed before its first commit).
static bool IsEmptyFolder(FileSystem* fs, const std::string& folder) {
  if (IsRemotePath(folder)) return !fs->FileExists(folder);  // a prefix with no object under it
  auto listed = fs->ListDirectory(folder);
  if (!listed.ok()) return false;
  // Temp files of an interrupted write (the unregistered mark's) count as nothing.
  std::vector<std::string> entries;
  for (auto& name : listed.value()) {
    if (!FileSystem::IsTempFileName(name)) entries.push_back(name);
  }
  if (entries.empty()) return true;
  if (entries != std::vector<std::string>{"_delta_log"}) return false;
  struct stat st;
  std::string log_dir = folder + "/_delta_log";
  if (::lstat(log_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  auto log_files = fs->ListDirectory(log_dir);
  if (!log_files.ok()) return false;
  for (auto& file : log_files.value()) {
    if (!FileSystem::IsTempFileName(file)) return false;
  }
  return true;
}

// True when `inner` lies strictly inside the folder `outer` (lexically; both
// absolute and normalized, or URLs of one bucket).
static bool PathInside(const std::string& inner, const std::string& outer) {
  if (outer == "/") return inner.size() > 1 && inner[0] == '/';
  return inner.size() > outer.size() + 1 && StringUtil::StartsWith(inner, outer) && inner[outer.size()] == '/';
}

// `path` absolute and normalized without a trailing '/' (a URL only loses
// the slash), so that folders compare as strings.
static std::string ComparablePath(const std::string& path) {
  std::string out = IsRemotePath(path) ? path : std::filesystem::absolute(path).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// Refuses a LOCATION whose files another table's would share (VACUUM and
// DROP of one would then delete the other's): the database folder or a
// folder around it, the folder of another table of the catalog, a folder
// inside one or around one, and a folder inside a Delta table that is not
// attached (a parent with a _delta_log directory).
void DatabaseInstance::CheckLocationIsFree(const TableCatalogEntry& entry, const std::string& as_written) {
  std::string head = "CREATE TABLE " + entry.name + " LOCATION '" + as_written + "': ";
  const std::string location = ComparablePath(entry.location);
  const std::string database = ComparablePath(path_);
  if (location == database || PathInside(database, location)) {
    throw CatalogError(head + (location == database ? "that is the database folder " + location
                                                    : "the folder " + location + " holds the database folder " + database) +
                       ", whose folders hold the data of this database's tables; pick a folder of the table's own");
  }
  for (auto& name : catalog_.TableNames()) {
    const TableCatalogEntry* other = catalog_.FindTable(name);
    if (!other || other == &entry || other->location.empty()) continue;
    std::string folder = ComparablePath(other->location);
    std::string what = location == folder                ? "is the folder of"
                       : PathInside(location, folder) ? "is inside the folder " + folder + " of"
                       : PathInside(folder, location) ? "holds the folder " + folder + " of"
                                                      : "";
    if (what.empty()) continue;
    throw CatalogError(head + "the folder " + location + " " + what + " " + TableKindToString(other->kind) + " " +
                       other->name + "; two tables never share files (VACUUM of one would delete the other's): pick a "
                       "folder of its own");
  }
  if (IsRemotePath(location)) return;
  struct stat st;
  for (std::string parent = ParentDirectory(location); parent.size() > 1 && parent != "."; parent = ParentDirectory(parent)) {
    std::string log_dir = parent + "/_delta_log";
    if (::stat(log_dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      throw CatalogError(head + "the folder " + location + " is inside the Delta table at " + parent +
                         "; a table's folder holds only its own files: pick a folder outside it (or attach " + parent +
                         " itself)");
    }
  }
}

void DatabaseInstance::CreateTableStorage(TableCatalogEntry& entry, const std::optional<std::string>& location,
                                          const std::string& comment, bool unregistered) {
  const char* kind = TableKindToString(entry.kind);
  std::string folder_name = ObjectFolderName(entry.name, kind);  // refuses what cannot be a name
  // The catalog would refuse the entry after its folder was made: refuse
  // first, so a failed CREATE leaves no folder behind.
  TableCatalogEntry* existing = catalog_.FindTable(entry.name);
  if (existing && existing != &entry) {
    throw CatalogError("Table with name " + entry.name +
                       " already exists! Use CREATE OR REPLACE TABLE to replace it, or pick another name.");
  }
  if (StreamCatalogEntry* stream = catalog_.FindStream(entry.name)) {
    throw CatalogError("Cannot create " + std::string(kind) + " " + entry.name +
                       ": a stream with that name exists; drop it with DROP STREAM " + stream->name + ", or pick another name.");
  }
  if (InMemory()) {
    if (location) {
      throw NotImplementedError("CREATE TABLE ... LOCATION in an in-memory database; open a database directory "
                                "(lakestream DB_DIR) to attach Delta tables");
    }
    entry.storage = std::make_unique<InMemoryTable>(entry.Types());
    return;
  }
  RequireWritable("CREATE TABLE");
  // An attached table is read and written where it lies: both ways outside
  // the database directory, so both must be allowed.
  if (location) access_policy_.CheckPath(*location, AccessMode::WRITE, "CREATE TABLE " + entry.name + " LOCATION");
  entry.managed = !location.has_value();
  // A LOCATION is a path as the user sees it: relative to the working directory (as in Spark and DuckDB).
  if (location && IsRemotePath(*location)) {
    auto parsed = ParseS3Path(*location);
    if (!parsed.ok()) throw InvalidInputError("CREATE TABLE " + entry.name + " LOCATION: " + parsed.status().message());
  }
  entry.location = !location ? path_ + "/" + folder_name
                   : IsRemotePath(*location) ? *location
                                             : std::filesystem::absolute(*location).lexically_normal().string();
  while (entry.location.size() > 1 && entry.location.back() == '/') entry.location.pop_back();
  if (!entry.managed) CheckLocationIsFree(entry, *location);
  if (!entry.managed) {
    std::string meta = path_ + "/_lakestream";
    if (entry.location == meta || StringUtil::StartsWith(entry.location, meta + "/")) {
      throw CatalogError("CREATE TABLE " + entry.name + " LOCATION '" + *location + "': that is inside " + meta +
                         ", which holds the database's catalog; pick a location outside it");
    }
  }
  if (entry.managed) {
    // A table renamed on object storage keeps its folder (RenameTable), so
    // the folder of a new name may still be another table's: the new table
    // then gets the first free folder of name-2, name-3, ...
    auto holder = [&](const std::string& location) -> TableCatalogEntry* {
      for (auto& name : catalog_.TableNames()) {
        TableCatalogEntry* other = catalog_.FindTable(name);
        if (other && other != &entry && other->location == location) return other;
      }
      return nullptr;
    };
    for (int n = 2; TableCatalogEntry* other = holder(entry.location); n++) {
      if (!other->managed) {
        throw CatalogError("Cannot create " + std::string(kind) + " " + entry.name + ": its folder " + entry.location +
                           " holds the data of " + TableKindToString(other->kind) + " " + other->name +
                           " (attached there with LOCATION); pick another name, or give a LOCATION");
      }
      entry.location = path_ + "/" + folder_name + "-" + std::to_string(n);
    }
    // The folder is the table's own: a real directory directly inside the
    // database directory, which holds nothing it did not write.
    Status owned = CheckOwnedFolder(path_, entry.location);
    if (!owned.ok() && !owned.IsNotFound()) {
      throw CatalogError("Cannot create " + std::string(kind) + " " + entry.name + ": its folder " + entry.location +
                         " is not a plain folder of this database (" + owned.message() +
                         "); remove or rename that entry, or pick another name");
    }
    if (owned.ok() && IsCreationLeftover(entry.location)) {
      Status removed = RemoveOwnedFolder(path_, entry.location);
      if (!removed.ok()) throw IOError("Cannot remove the abandoned table folder " + entry.location + ": " + removed.message());
    } else if (owned.ok() && !IsEmptyFolder(fs_, entry.location)) {
      auto log = delta::DeltaLog::Open(fs_, entry.location);
      if (log.ok() && log.value()->Exists()) {
        throw CatalogError("A Delta table already exists at " + entry.location + " (left over from an earlier table " +
                           entry.name + "?); attach it with CREATE TABLE " + entry.name + " LOCATION '" + entry.location +
                           "', or remove that directory");
      }
      throw CatalogError("Cannot create " + std::string(kind) + " " + entry.name + ": its folder " + entry.location +
                         " already exists and holds files that belong to no table; move them away, or pick another name");
    }
  }
  auto log = delta::DeltaLog::Open(fs_, entry.location);
  bool exists = !entry.managed && log.ok() && log.value()->Exists();
  std::string absent_because;
  if (!exists && !entry.managed && log.ok()) {
    // "No table there" and "cannot look there" (a missing bucket, refused
    // credentials, an unreadable folder) differ: the second must not read as
    // the first, nor lead to creating a table.
    auto latest = log.value()->LatestVersion();
    if (!latest.ok())
      throw IOError("CREATE TABLE " + entry.name + " LOCATION '" + *location + "': " + latest.status().message());
    auto s3 = ParseS3Path(entry.location);
    if (s3.ok())
      absent_because = " (bucket '" + s3.value().bucket + "' has no object under the key prefix '" +
                       JoinPath(s3.value().key, "_delta_log/") + "')";
  }
  if (exists) {
    if (!entry.columns.empty()) {
      throw CatalogError("CREATE TABLE " + entry.name + " LOCATION '" + *location +
                         "': a Delta table already exists there; omit the column list to attach it with its own schema");
    }
    auto opened_table = DeltaTable::Open(fs_, entry.name, entry.location, std::nullopt, &access_policy_);
    entry.storage = std::move(opened_table);
    SyncFromDelta(entry);
    return;
  }
  if (entry.columns.empty()) {
    throw CatalogError("CREATE TABLE " + entry.name + " LOCATION '" + *location +
                       "': there is no Delta table there to attach" + absent_because +
                       "; give the columns to create a new one, or correct the path");
  }
  // As Delta: a new table goes only into a folder that is empty or new.
  if (!entry.managed && (IsRemotePath(entry.location) || fs_->FileExists(entry.location)) &&
      !IsEmptyFolder(fs_, entry.location)) {
    throw CatalogError("CREATE TABLE " + entry.name + " LOCATION '" + *location + "': the folder " + entry.location +
                       " is not empty and is not a Delta table (it has no _delta_log with a commit); give an empty or "
                       "new folder to create the table in, or move the files away");
  }
  DeltaTableDefinition definition;
  definition.columns = entry.columns;
  definition.partition_columns = entry.partition_columns;
  for (auto& [k, v] : entry.properties) definition.properties[k] = v;
  definition.description = comment;
  if (unregistered) MarkUnregistered(entry);
  auto opened_table = DeltaTable::Create(fs_, entry.name, entry.location, definition);
  opened_table->SetAccessPolicy(&access_policy_);
  entry.storage = std::move(opened_table);
  SyncFromDelta(entry);
}

void DatabaseInstance::MarkUnregistered(const TableCatalogEntry& entry) {
  if (InMemory() || !entry.managed || entry.location.empty()) return;
  Status owned = CheckOwnedFolder(path_, entry.location);
  if (owned.IsNotFound() && !IsRemotePath(entry.location)) {
    Status made = fs_->CreateDirectories(entry.location);
    owned = made.ok() ? CheckOwnedFolder(path_, entry.location) : made;
  }
  // Not a plain folder of this database (a symlink put in its place): it
  // holds nothing of ours to mark, and nothing is written through it (DROP
  // then leaves it and says why; CREATE refused it already).
  if (!owned.ok() && !owned.IsNotFound()) return;
  Status s = fs_->WriteFileAtomic(JoinPath(entry.location, kUnregisteredMark), "");
  if (!s.ok()) {
    throw IOError("Cannot write " + JoinPath(entry.location, kUnregisteredMark) + " (the mark that makes the folder of " +
                  std::string(TableKindToString(entry.kind)) + " " + entry.name + " removable if this statement dies): " +
                  s.message() + "; nothing was changed");
  }
}

void DatabaseInstance::ClearUnregistered(const TableCatalogEntry& entry) {
  if (InMemory() || !entry.managed || entry.location.empty()) return;
  (void)fs_->RemoveFile(JoinPath(entry.location, kUnregisteredMark));
}

void DatabaseInstance::RemoveCreationLeftover(const TableCatalogEntry& entry) {
  if (InMemory() || !entry.managed || entry.location.empty()) return;
  try {
    if (IsCreationLeftover(entry.location)) (void)RemoveOwnedFolder(path_, entry.location);
  } catch (...) {
    // The statement's own error says more; the next CREATE removes the leftover.
  }
}

void DatabaseInstance::DropTableStorage(TableCatalogEntry& entry) {
  if (InMemory() || !entry.managed || entry.location.empty()) return;
  std::string kind = TableKindToString(entry.kind);
  for (auto& name : catalog_.TableNames()) {
    TableCatalogEntry* other = catalog_.FindTable(name);
    if (other && other != &entry && StringUtil::StartsWith(other->location, entry.location + "/")) {
      throw IOError("The " + kind + " " + entry.name + " was dropped, but its folder " + entry.location +
                    " was kept: table " + other->name + " is attached inside it (" + other->location +
                    "); drop " + other->name + " first, then delete the folder yourself");
    }
  }
  // A checkpoint still being written in the background must not land in
  // the folder after it is gone (or in a new table made there next).
  delta::WaitForCheckpoints(entry.location);
  Status s = RemoveOwnedFolder(path_, entry.location);
  if (!s.ok()) {
    throw IOError("The " + kind + " " + entry.name + " was dropped, but its files at " + entry.location +
                  " were left in place: " + s.message() + "; delete them yourself if they are no longer needed");
  }
}

void DatabaseInstance::RefreshTables() {
  if (InMemory()) return;
  for (auto& name : catalog_.TableNames()) {
    TableCatalogEntry* entry = catalog_.FindTable(name);
    DeltaTable* delta = entry ? AsDelta(*entry) : nullptr;
    if (!delta) continue;
    int64_t before = delta->Version();
    delta->Refresh();
    if (delta->Version() != before) SyncFromDelta(*entry);
  }
}

DatabaseInstance::~DatabaseInstance() {
  // No statement runs any more (every connection is gone); what the
  // background work still does needs the whole instance.
  if (background_) background_->Stop();
}

BackgroundWork& DatabaseInstance::GetBackgroundWork(const std::function<std::unique_ptr<BackgroundWork>()>& make) {
  std::lock_guard<std::mutex> guard(background_lock_);
  if (!background_) background_ = make();
  return *background_;
}

SinkRegistry& DatabaseInstance::GetSinkRegistry(const std::function<std::unique_ptr<SinkRegistry>()>& make) {
  std::lock_guard<std::mutex> guard(sink_registry_lock_);
  if (!sink_registry_) sink_registry_ = make();
  return *sink_registry_;
}

// Persistent secrets never go to the bucket: an S3 database keeps them in a
// local owner-only store, one folder per database URL (docs/object-storage.md).
static std::string LocalStateDirectory(const std::string& url) {
  std::string home;
  if (const char* v = std::getenv("LAKESTREAM_HOME"); v && *v) {
    home = v;
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    home = std::string(h) + "/.lakestream";
  } else {
    home = ".lakestream";
  }
  return home + "/databases/" + ObjectFolderName(url, "database");
}

SecretManager& DatabaseInstance::Secrets() {
  std::lock_guard<std::mutex> guard(secrets_lock_);
  if (!secrets_) secrets_ = std::make_shared<SecretManager>(fs_, IsRemotePath(path_) ? LocalStateDirectory(path_) : path_);
  return *secrets_;
}

}  // namespace lakestream
