#include "catalog/catalog_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/string_util.hpp"
#include "common/timed_wait.hpp"
#include "common/json_parse.hpp"

namespace lakestream {

static std::string MetaDir(const std::string& db) { return db + "/_lakestream"; }

namespace {

// Does `v` hold a value of a member's type? (The pointer picks the overload.)
bool IsType(const nlohmann::json& v, const std::string*) { return v.is_string(); }
bool IsType(const nlohmann::json& v, const int64_t*) { return v.is_number_integer(); }
bool IsType(const nlohmann::json& v, const bool*) { return v.is_boolean(); }
bool IsType(const nlohmann::json& v, const std::vector<int64_t>*) {
  if (!v.is_array()) return false;
  for (auto& e : v) {
    if (!e.is_number_integer()) return false;
  }
  return true;
}

bool IsType(const nlohmann::json& v, const std::vector<std::string>*) {
  if (!v.is_array()) return false;
  for (auto& e : v) {
    if (!e.is_string()) return false;
  }
  return true;
}

bool IsType(const nlohmann::json& v, const std::map<std::string, int64_t>*) {
  if (!v.is_object()) return false;
  for (auto& e : v) {
    if (!e.is_number_integer()) return false;
  }
  return true;
}
bool IsType(const nlohmann::json& v, const nlohmann::json*) { return v.is_object(); }
bool IsType(const nlohmann::json& v, const ViewRefreshRecord*) {
  static const std::map<std::string, bool> kMembers = {{"path", true},      {"fallback", true}, {"view_version", false},
                                                       {"inserted", false}, {"updated", false}, {"deleted", false}};
  if (!v.is_object() || v.size() != kMembers.size()) return false;
  for (auto& [key, is_text] : kMembers) {
    auto it = v.find(key);
    if (it == v.end() || (is_text ? !it->is_string() : !it->is_number_integer())) return false;
  }
  return true;
}

template <class T>
T FromJson(const nlohmann::json& v, const T*) {
  return v.get<T>();
}
ViewRefreshRecord FromJson(const nlohmann::json& v, const ViewRefreshRecord*) {
  ViewRefreshRecord r;
  r.path = v.at("path").get<std::string>();
  r.fallback = v.at("fallback").get<std::string>();
  r.view_version = v.at("view_version").get<int64_t>();
  r.inserted = v.at("inserted").get<int64_t>();
  r.updated = v.at("updated").get<int64_t>();
  r.deleted = v.at("deleted").get<int64_t>();
  return r;
}

template <class T>
nlohmann::json ToJson(const T& value) {
  return value;
}
nlohmann::json ToJson(const ViewRefreshRecord& r) {
  return {{"path", r.path},         {"fallback", r.fallback}, {"view_version", r.view_version},
          {"inserted", r.inserted}, {"updated", r.updated},   {"deleted", r.deleted}};
}

// Moves `key` out of `rest` into `out` when its value has the member's type;
// otherwise it stays in `rest`.
template <class T>
void Take(nlohmann::json& rest, const char* key, std::optional<T>& out) {
  auto it = rest.find(key);
  if (it == rest.end() || !IsType(*it, static_cast<const T*>(nullptr))) return;
  out = FromJson(*it, static_cast<const T*>(nullptr));
  rest.erase(it);
}

template <class T>
void Put(nlohmann::json& json, const char* key, const std::optional<T>& value) {
  if (value) json[key] = ToJson(*value);
}

}  // namespace

TableState TableStateFromJson(const nlohmann::json& json, TableKind kind) {
  TableState state;
  if (!json.is_object()) return state;
  nlohmann::json rest = json;
  Take(rest, "refresh", state.refresh);
  Take(rest, "maintenance", state.maintenance);
  Take(rest, "shape", state.shape);
  Take(rest, "reason", state.reason);
  if (kind == TableKind::STREAMING_TABLE) {
    Take(rest, "sources", state.file_sources);
  } else {
    Take(rest, "sources", state.sources);
  }
  Take(rest, "last_refresh", state.last_refresh);
  Take(rest, "status", state.status);
  Take(rest, "error", state.error);
  Take(rest, "failed_at", state.failed_at);
  Take(rest, "moved_from", state.moved_from);
  Take(rest, "txns", state.txns);
  Take(rest, "declared_properties", state.declared_properties);
  state.unknown = std::move(rest);
  return state;
}

nlohmann::json TableStateToJson(const TableState& state) {
  nlohmann::json json = state.unknown.is_object() ? state.unknown : nlohmann::json::object();
  Put(json, "refresh", state.refresh);
  Put(json, "maintenance", state.maintenance);
  Put(json, "shape", state.shape);
  Put(json, "reason", state.reason);
  Put(json, "sources", state.sources);
  Put(json, "sources", state.file_sources);
  Put(json, "last_refresh", state.last_refresh);
  Put(json, "status", state.status);
  Put(json, "error", state.error);
  Put(json, "failed_at", state.failed_at);
  Put(json, "moved_from", state.moved_from);
  Put(json, "txns", state.txns);
  Put(json, "declared_properties", state.declared_properties);
  return json;
}

SinkState SinkStateFromJson(const nlohmann::json& json) {
  SinkState state;
  if (!json.is_object()) return state;
  nlohmann::json rest = json;
  Take(rest, "id", state.id);
  Take(rest, "created_at", state.created_at);
  Take(rest, "start_version", state.start_version);
  Take(rest, "source_id", state.source_id);
  Take(rest, "snapshot_pending", state.snapshot_pending);
  Take(rest, "delivered_version", state.delivered_version);
  Take(rest, "partition_offsets", state.partition_offsets);
  Take(rest, "file_path", state.file_path);
  Take(rest, "file_size", state.file_size);
  Take(rest, "file_tail_hash", state.file_tail_hash);
  Take(rest, "stream_batch", state.stream_batch);
  Take(rest, "messages", state.messages);
  Take(rest, "skipped_changes", state.skipped_changes);
  Take(rest, "last_error", state.last_error);
  Take(rest, "last_error_at", state.last_error_at);
  Take(rest, "updated_at", state.updated_at);
  state.unknown = std::move(rest);
  return state;
}

nlohmann::json SinkStateToJson(const SinkState& state) {
  nlohmann::json json = state.unknown.is_object() ? state.unknown : nlohmann::json::object();
  Put(json, "id", state.id);
  Put(json, "created_at", state.created_at);
  Put(json, "start_version", state.start_version);
  Put(json, "source_id", state.source_id);
  Put(json, "snapshot_pending", state.snapshot_pending);
  Put(json, "delivered_version", state.delivered_version);
  Put(json, "partition_offsets", state.partition_offsets);
  Put(json, "file_path", state.file_path);
  Put(json, "file_size", state.file_size);
  Put(json, "file_tail_hash", state.file_tail_hash);
  Put(json, "stream_batch", state.stream_batch);
  Put(json, "messages", state.messages);
  Put(json, "skipped_changes", state.skipped_changes);
  Put(json, "last_error", state.last_error);
  Put(json, "last_error_at", state.last_error_at);
  Put(json, "updated_at", state.updated_at);
  return json;
}

Result<CatalogRecord> CatalogRecordFromText(const std::string& text, const std::string& path) {
  CatalogRecord record;
  try {
    JsonError error;
    auto json = ParseJson(text, &error);
    if (json.is_discarded()) throw std::invalid_argument(error.message);
    // Format 2: a stream's "offset" is a base that the targets' Delta txns
    // move past (catalog/stream_offset.hpp). A format-1 reader would take the
    // base for the offset and deliver again, so it must refuse format 2.
    int format = json.value("format", 0);
    if (format != 1 && format != kCatalogFormat) {
      return Status::Corruption(path + ": unknown catalog format " + json.value("format", nlohmann::json(0)).dump() +
                                "; it was written by a newer lakestream");
    }
    record.version = json.at("version").get<int64_t>();
    for (auto& t : json.at("tables")) {
      CatalogTableRecord table;
      table.name = t.at("name").get<std::string>();
      table.path = t.at("path").get<std::string>();
      table.managed = t.value("managed", true);
      // Named locals: items() of a temporary would dangle.
      nlohmann::json keys = t.value("primary_key", nlohmann::json::array());
      for (auto& k : keys) table.primary_key.push_back(k.get<std::string>());
      nlohmann::json defaults = t.value("defaults", nlohmann::json::object());
      for (auto& [col, literal] : defaults.items()) {
        table.defaults.emplace_back(col, literal.get<std::string>());
      }
      std::string kind = t.value("kind", std::string("table"));
      table.kind = kind == "materialized view" ? TableKind::MATERIALIZED_VIEW
                   : kind == "streaming table" ? TableKind::STREAMING_TABLE
                                               : TableKind::TABLE;
      table.definition = t.value("definition", std::string());
      table.state = TableStateFromJson(t.value("state", nlohmann::json::object()), table.kind);
      record.tables.push_back(std::move(table));
    }
    nlohmann::json streams = json.value("streams", nlohmann::json::array());
    for (auto& st : streams) {
      StreamCatalogEntry stream;
      stream.name = st.at("name").get<std::string>();
      stream.id = st.at("id").get<std::string>();
      stream.source = st.at("source").get<std::string>();
      stream.append_only = st.value("append_only", false);
      stream.show_initial_rows = st.value("show_initial_rows", false);
      stream.offset = st.at("offset").get<int64_t>();
      stream.initial_pending = st.value("initial_pending", false);
      stream.created_at = st.value("created_at", int64_t(0));
      stream.comment = st.value("comment", std::string());
      stream.pending_target = st.value("pending_target", std::string());
      stream.pending_version = st.value("pending_version", int64_t(-1));
      stream.source_id = st.value("source_id", std::string());
      record.streams.push_back(std::move(stream));
    }
    nlohmann::json sinks = json.value("sinks", nlohmann::json::array());
    for (auto& sk : sinks) {
      SinkCatalogEntry sink;
      sink.name = sk.at("name").get<std::string>();
      sink.source = sk.at("source").get<std::string>();
      sink.target = sk.at("target").get<std::string>();
      sink.file_path = sk.value("file_path", std::string());
      nlohmann::json options = sk.value("options", nlohmann::json::array());
      for (auto& kv : options) sink.options.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
      sink.state = SinkStateFromJson(sk.value("state", nlohmann::json::object()));
      record.sinks.push_back(std::move(sink));
    }
    nlohmann::json views = json.value("views", nlohmann::json::array());
    for (auto& v : views) {
      ViewCatalogEntry view;
      view.name = v.at("name").get<std::string>();
      view.definition = v.at("definition").get<std::string>();
      nlohmann::json columns = v.value("columns", nlohmann::json::array());
      for (auto& c : columns) view.column_aliases.push_back(c.get<std::string>());
      view.comment = v.value("comment", std::string());
      record.views.push_back(std::move(view));
    }
    nlohmann::json schemas = json.value("schemas", nlohmann::json::array());
    for (auto& name : schemas) record.schemas.push_back(name.get<std::string>());
  } catch (const std::exception& e) {
    return Status::Corruption(path + ": the catalog is not valid (" + std::string(e.what()) +
                              "); restore it from a backup, or move it away to re-attach the tables with CREATE TABLE ... LOCATION");
  }
  return record;
}

std::string CatalogRecordToText(const CatalogRecord& record) {
  nlohmann::json json;
  json["format"] = kCatalogFormat;
  json["version"] = record.version;
  json["tables"] = nlohmann::json::array();
  for (auto& t : record.tables) {
    nlohmann::json defaults = nlohmann::json::object();
    for (auto& [col, literal] : t.defaults) defaults[col] = literal;
    json["tables"].push_back({{"name", t.name},
                              {"path", t.path},
                              {"managed", t.managed},
                              {"primary_key", t.primary_key},
                              {"defaults", defaults},
                              {"kind", TableKindToString(t.kind)},
                              {"definition", t.definition},
                              {"state", TableStateToJson(t.state)}});
  }
  json["streams"] = nlohmann::json::array();
  for (auto& st : record.streams) {
    json["streams"].push_back({{"name", st.name},
                               {"id", st.id},
                               {"source", st.source},
                               {"append_only", st.append_only},
                               {"show_initial_rows", st.show_initial_rows},
                               {"offset", st.offset},
                               {"initial_pending", st.initial_pending},
                               {"created_at", st.created_at},
                               {"comment", st.comment},
                               {"pending_target", st.pending_target},
                               {"pending_version", st.pending_version}});
    // Absent for streams of older catalogs, which are written back as read.
    if (!st.source_id.empty()) json["streams"].back()["source_id"] = st.source_id;
  }
  json["sinks"] = nlohmann::json::array();
  for (auto& sk : record.sinks) {
    nlohmann::json options = nlohmann::json::array();
    for (auto& [k, v] : sk.options) options.push_back({k, v});
    json["sinks"].push_back({{"name", sk.name},
                             {"source", sk.source},
                             {"target", sk.target},
                             {"file_path", sk.file_path},
                             {"options", options},
                             {"state", SinkStateToJson(sk.state)}});
  }
  // Left out when there are none, so a catalog from before plain views is
  // written back with the keys it was read with.
  if (!record.views.empty()) json["views"] = nlohmann::json::array();
  for (auto& v : record.views) {
    json["views"].push_back({{"name", v.name}, {"definition", v.definition}, {"columns", v.column_aliases}, {"comment", v.comment}});
  }
  // Left out when there are none: a database without schemas keeps the keys of older catalogs.
  if (!record.schemas.empty()) json["schemas"] = record.schemas;
  return json.dump(2) + "\n";
}

bool CatalogNamesSecrets(const CatalogRecord& record) {
  bool names_secrets = false;
  for (auto& sk : record.sinks) {
    for (auto& [k, v] : sk.options) names_secrets |= StringUtil::CIEquals(k, "secret");
  }
  return names_secrets;
}

Status CatalogStore::WaitLock(std::chrono::milliseconds timeout, bool* acquired) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    LS_RETURN_NOT_OK(TryLock(acquired));
    if (*acquired || std::chrono::steady_clock::now() >= deadline) return Status::OK();
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(100), std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())));
  }
}

namespace {

// The store of a database directory on local disk: catalog.json replaced
// with rename(2), the write lock an flock.
class LocalCatalogStore final : public CatalogStore {
 public:
  LocalCatalogStore(FileSystem* fs, std::string db_path) : CatalogStore(fs, std::move(db_path)) {}
  ~LocalCatalogStore() override {
    if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
  }
  Status OpenLockFile();
  Result<CatalogRecord> Load() override;
  Status Save(CatalogRecord& record) override;
  Status TryLock(bool* acquired) override;
  Status WaitLock(std::chrono::milliseconds timeout, bool* acquired) override;
  void StopWaiting() override;
  void Unlock() override;
  std::string BusyError() const override;
  bool ChangedOnDisk() const override { return !(Stamp() == seen_); }

 private:
  // The identity of catalog.json as last seen (inode, size, mtime): a save
  // renames a new file into place, so any change gives another inode.
  struct FileStamp {
    uint64_t inode = 0, size = 0;
    int64_t mtime_ns = 0;
    bool exists = false;
    bool operator==(const FileStamp&) const = default;
  };
  FileStamp Stamp() const;
  // The turnstile (WaitLock): an OFD lock on byte 0 of LOCK, apart from the
  // flock (Linux keeps the two kinds separate), so a process that only knows
  // the flock still excludes and is excluded.
  int Turnstile(int cmd, short type) const;
  Status TookLock(bool* acquired);
  int lock_fd_ = -1;  // open while the store lives; the flock comes and goes
  std::string pid_;   // "<our pid>\n", what LOCK holds while we hold the flock
  bool queued_ = false;  // holds the turnstile
  FileStamp seen_;
};

}  // namespace

Result<std::unique_ptr<CatalogStore>> CatalogStore::Open(FileSystem* fs, const std::string& db_path, bool read_only) {
  if (IsRemotePath(db_path)) return OpenObjectCatalogStore(fs, db_path, read_only);
  auto store = std::make_unique<LocalCatalogStore>(fs, db_path);
  if (read_only) {
    if (!fs->FileExists(MetaDir(db_path))) {
      return Status::NotFound("No lakestream database at " + db_path + " (no _lakestream directory); open it read-write once to create it");
    }
    return std::unique_ptr<CatalogStore>(std::move(store));
  }
  LS_RETURN_NOT_OK(fs->CreateDirectories(MetaDir(db_path)));
  LS_RETURN_NOT_OK(store->OpenLockFile());
  return std::unique_ptr<CatalogStore>(std::move(store));
}

Status LocalCatalogStore::OpenLockFile() {
  std::string lock_path = MetaDir(db_path_) + "/LOCK";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return Status::IOError("Cannot open the lock file " + lock_path + ": " + std::strerror(errno));
  lock_fd_ = fd;
  pid_ = std::to_string(::getpid()) + "\n";
  return Status::OK();
}

int LocalCatalogStore::Turnstile(int cmd, short type) const {
  struct flock range {};
  range.l_type = type;
  range.l_whence = SEEK_SET;
  range.l_start = 0;
  range.l_len = 1;
  return ::fcntl(lock_fd_, cmd, &range);
}

Status LocalCatalogStore::TookLock(bool* acquired) {
  StopWaiting();
  // The pid is only informational (BusyError); the flock is what excludes
  // other writers. It is rewritten only when another process wrote its own
  // since: one pread per statement instead of getpid + ftruncate + pwrite.
  char held[32];
  ssize_t n = ::pread(lock_fd_, held, sizeof(held), 0);
  if (n != static_cast<ssize_t>(pid_.size()) || pid_.compare(0, pid_.size(), held, pid_.size()) != 0) {
    if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid_.data(), pid_.size(), 0) < 0) {
      // Best effort, as above.
    }
  }
  locked_ = true;
  *acquired = true;
  return Status::OK();
}

Status LocalCatalogStore::TryLock(bool* acquired) {
  *acquired = locked_;
  if (locked_) return Status::OK();
  if (lock_fd_ < 0) return Status::IOError("Database " + db_path_ + " is open read-only; it cannot take the write lock");
  // A waiter in line (holding the turnstile) goes first.
  bool in_line = queued_;
  if (!in_line && Turnstile(F_OFD_SETLK, F_WRLCK) != 0) {
    if (errno == EAGAIN || errno == EACCES || errno == EINTR) return Status::OK();
    return Status::IOError("Cannot lock " + MetaDir(db_path_) + "/LOCK: " + std::strerror(errno));
  }
  queued_ = true;
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    if (!in_line) StopWaiting();
    if (err == EWOULDBLOCK || err == EINTR) return Status::OK();
    return Status::IOError("Cannot lock " + MetaDir(db_path_) + "/LOCK: " + std::strerror(err));
  }
  return TookLock(acquired);
}

Status LocalCatalogStore::WaitLock(std::chrono::milliseconds timeout, bool* acquired) {
  *acquired = locked_;
  if (locked_) return Status::OK();
  if (lock_fd_ < 0) return Status::IOError("Database " + db_path_ + " is open read-only; it cannot take the write lock");
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  };
  auto failed = [&] { return Status::IOError("Cannot lock " + MetaDir(db_path_) + "/LOCK: " + std::strerror(errno)); };
  if (!queued_) {
    TimedWait wait = CallWithTimeout(
        left(), [&] { return Turnstile(F_OFD_SETLKW, F_WRLCK); }, [&] { return Turnstile(F_OFD_SETLK, F_WRLCK); });
    if (wait == TimedWait::kFailed) return failed();
    if (wait == TimedWait::kTimedOut) return Status::OK();
    queued_ = true;
  }
  TimedWait wait = CallWithTimeout(
      left(), [&] { return ::flock(lock_fd_, LOCK_EX); }, [&] { return ::flock(lock_fd_, LOCK_EX | LOCK_NB); });
  if (wait == TimedWait::kFailed) return failed();
  if (wait == TimedWait::kTimedOut) return Status::OK();  // keeps its place in line
  return TookLock(acquired);
}

void LocalCatalogStore::StopWaiting() {
  if (!queued_) return;
  Turnstile(F_OFD_SETLK, F_UNLCK);
  queued_ = false;
}

void LocalCatalogStore::Unlock() {
  StopWaiting();
  if (!locked_) return;
  ::flock(lock_fd_, LOCK_UN);
  locked_ = false;
}

std::string LocalCatalogStore::BusyError() const {
  char buf[32] = {0};
  ssize_t n = lock_fd_ >= 0 ? ::pread(lock_fd_, buf, sizeof(buf) - 1, 0) : 0;
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  std::string holder = pid.empty() ? "another process" : "process " + pid;
  return "Database " + db_path_ + " is already open for writing by " + holder +
         " (a statement there is writing); run this statement again when it is done, or open the database read-only to read";
}

LocalCatalogStore::FileStamp LocalCatalogStore::Stamp() const {
  struct stat st;
  FileStamp stamp;
  if (::stat((MetaDir(db_path_) + "/catalog.json").c_str(), &st) != 0) return stamp;
  stamp.exists = true;
  stamp.inode = static_cast<uint64_t>(st.st_ino);
  stamp.size = static_cast<uint64_t>(st.st_size);
  stamp.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return stamp;
}

Result<CatalogRecord> LocalCatalogStore::Load() {
  std::string path = MetaDir(db_path_) + "/catalog.json";
  // Taken before reading: a replacement racing with the read shows as a
  // change next time, never as a missed one.
  seen_ = Stamp();
  auto contents = fs_->ReadFile(path);
  if (!contents.ok()) {
    if (contents.status().IsNotFound()) return CatalogRecord{};
    return contents.status();
  }
  auto record = CatalogRecordFromText(contents.value(), path);
  if (!record.ok()) return record.status();
  return record.take();
}

Status LocalCatalogStore::Save(CatalogRecord& record) {
  if (lock_fd_ < 0) return Status::IOError("Database " + db_path_ + " is open read-only; the catalog cannot change");
  if (!locked_) return Status::IOError("Database " + db_path_ + ": the catalog was about to be saved without the write lock (a bug; please report it)");
  record.version++;
  // A catalog that names secrets (a sink's 'secret' option) is owner-only
  // like the secrets store; otherwise the umask decides (docs/secrets.md).
  bool names_secrets = CatalogNamesSecrets(record);
  std::string path = MetaDir(db_path_) + "/catalog.json";
  std::string text = CatalogRecordToText(record);
  LS_RETURN_NOT_OK(names_secrets ? fs_->WriteFileAtomicWithMode(path, text, 0600) : fs_->WriteFileAtomic(path, text));
  seen_ = Stamp();
  return Status::OK();
}

}  // namespace lakestream
