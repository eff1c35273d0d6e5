// The shared state of one open database: its catalog and its storage.
//
// Without a path the database lives in memory (InMemoryTable). With a path it
// is a directory: `_lakestream/` holds the catalog (catalog/catalog_store.hpp)
// and every table is a Delta table (storage/table/delta_table.hpp). The
// directory may be an s3:// prefix: then the catalog is versioned objects and
// the write lock a lease (catalog/object_catalog_store.hpp), managed tables
// live under the prefix, and persistent secrets stay in a local store.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/catalog.hpp"
#include "catalog/catalog_store.hpp"
#include "common/external_access.hpp"
#include "lakestream/database.hpp"

namespace lakestream {

class DeltaTable;
class SecretManager;  // common/secret/secret.hpp

// What the sink layer keeps for one open database between statements (its
// open producers and files, the progress listener). Defined in src/sink,
// which this layer must not include; two databases open in one process never
// share one.
class SinkRegistry {
 public:
  virtual ~SinkRegistry() = default;
};

// Work a higher layer runs in the background for one open database
// (ivm/view_maintainer.hpp: the auto views' refresh after DML). Defined
// above this layer; Stop() runs first when the database closes, while
// everything it uses is still there, and finishes what is pending.
class BackgroundWork {
 public:
  virtual ~BackgroundWork() = default;
  virtual void Stop() = 0;
};

// The statement lock: a mutex that another thread may release. A streaming
// result (Connection::SendQuery) holds it from the thread that started the
// SELECT until the thread that fetches its last chunk, or destroys it,
// lets go; std::mutex forbids that. It is a ticket lock: connections get it
// in the order they asked, so one that releases it and asks again at once
// cannot keep the others out.
class StatementMutex {
 public:
  void lock() {
    std::unique_lock<std::mutex> guard(mutex_);
    uint64_t ticket = next_++;
    turn_.wait(guard, [&] { return serving_ == ticket; });
  }
  void unlock() {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      serving_++;
    }
    turn_.notify_all();
  }
  bool try_lock() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (next_ != serving_) return false;
    next_++;
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable turn_;
  uint64_t next_ = 0;     // the next ticket handed out
  uint64_t serving_ = 0;  // the ticket that holds the lock
};

class DatabaseInstance {
 public:
  // Opens (creating if needed) the database; CorruptionError for a damaged
  // catalog. Opening takes no lock (see AcquireWriteLock).
  DatabaseInstance(std::string path, DatabaseOptions options);
  ~DatabaseInstance();
  DatabaseInstance(const DatabaseInstance&) = delete;
  DatabaseInstance& operator=(const DatabaseInstance&) = delete;
  const std::string& Path() const { return path_; }
  bool InMemory() const { return path_.empty(); }
  const DatabaseOptions& Options() const { return options_; }
  Catalog& GetCatalog() { return catalog_; }
  FileSystem* Fs() const { return fs_; }
  // Statements run one at a time per database (single writer).
  StatementMutex& StatementLock() { return statement_lock_; }

  // Gives a new catalog entry its storage: an InMemoryTable, a new Delta table
  // at <db>/<name> (or `location`), or the existing Delta table at `location`
  // (then `entry.columns` may be empty and are read from its log).
  // `unregistered`: the entry goes into the catalog only after its rows are
  // committed (CREATE TABLE AS): a new managed folder gets the unregistered
  // mark (below) before anything else is written to it.
  void CreateTableStorage(TableCatalogEntry& entry, const std::optional<std::string>& location, const std::string& comment,
                          bool unregistered = false);
  // Deletes a managed table's files (attached tables keep theirs).
  void DropTableStorage(TableCatalogEntry& entry);
  // The unregistered mark: a file in a managed table's folder while no
  // catalog entry names the folder yet (CREATE TABLE AS before the catalog
  // save that registers it) or any more (DROP between that save and deleting
  // the files). A marked folder no entry names is a leftover that the next
  // CREATE of that folder removes (IsCreationLeftover); a marked folder an
  // entry names is a live table (the mark is then ignored). MarkUnregistered
  // makes it durable (IOError otherwise); ClearUnregistered is best effort.
  // Both do nothing for attached (LOCATION) tables and in memory.
  void MarkUnregistered(const TableCatalogEntry& entry);
  void ClearUnregistered(const TableCatalogEntry& entry);
  // After a CREATE TABLE AS failed before its table reached the catalog (its
  // first commit hit a full disk): removes the folder now if it is a creation
  // leftover (IsCreationLeftover: this database's own, named by no table),
  // instead of at the next CREATE of that name. Best effort, never throws.
  void RemoveCreationLeftover(const TableCatalogEntry& entry);
  // Persists the catalog (names, locations, keys, defaults). No-op in memory.
  void SaveCatalog();
  // Moves every Delta table to its latest version (before each statement, so
  // other writers' commits are seen) and re-reads columns and properties.
  void RefreshTables();
  // Re-reads an entry's columns and properties from its Delta snapshot.
  static void SyncFromDelta(TableCatalogEntry& entry);
  static DeltaTable* AsDelta(TableCatalogEntry& entry);
  void RequireWritable(const std::string& what) const;
  // What statements may reach outside the database (SET enable_external_access,
  // allowed_directories, allowed_paths): one policy per open database, as
  // DuckDB keeps these settings global.
  ExternalAccessPolicy& AccessPolicy() { return access_policy_; }

  // The write lock across processes (CatalogStore::WaitLock), held only by a
  // statement that writes, so an idle process keeps no reader or writer out.
  // AcquireWriteLock waits in line up to options.lock_wait_ms (woken when
  // the holder lets go; `check_interrupt` every 50 ms), then throws IOError
  // naming the holder.
  // Once held, the catalog is re-read if another process changed it and
  // streams left pending by a crashed writer are settled. No-op in memory or
  // read-only (RequireWritable reports those). ReleaseWriteLock is a no-op
  // without the lock; the statement runner calls it after every statement.
  void AcquireWriteLock(const std::function<void()>& check_interrupt);
  // The same without waiting: false when another process holds it.
  bool TryAcquireWriteLock();
  void ReleaseWriteLock();
  // Keeps the write lock across statements (Connection::HoldWrites) until
  // the matching UnholdWriteLock: ReleaseWriteLock does nothing meanwhile.
  // Callers hold the statement lock.
  void HoldWriteLock(const std::function<void()>& check_interrupt);
  void UnholdWriteLock();
  bool HoldsWriteLock() const { return store_ && store_->Locked(); }
  // Re-reads the catalog when another process replaced it since this one
  // last read or wrote it (every statement starts with this).
  void ReloadCatalogIfChanged();
  // This database's sink registry, made with `make` on first use.
  SinkRegistry& GetSinkRegistry(const std::function<std::unique_ptr<SinkRegistry>()>& make);
  // This database's background work, made with `make` on first use.
  BackgroundWork& GetBackgroundWork(const std::function<std::unique_ptr<BackgroundWork>()>& make);
  // CREATE SECRET's secrets: temporary ones for this instance's life, persistent ones in its folder.
  SecretManager& Secrets();

 private:
  void LoadTables();
  void AfterWriteLockTaken();
  bool IsCreationLeftover(const std::string& location);
  // Throws CatalogError naming the conflict when the LOCATION of `entry`
  // (entry.location, absolute) would share files with another table or the
  // database (database_instance.cpp); `as_written` is the user's spelling.
  void CheckLocationIsFree(const TableCatalogEntry& entry, const std::string& as_written);

  std::string path_;
  DatabaseOptions options_;
  ExternalAccessPolicy access_policy_;
  FileSystem* fs_;
  std::unique_ptr<CatalogStore> store_;
  CatalogRecord record_;
  Catalog catalog_;
  StatementMutex statement_lock_;
  int write_holds_ = 0;  // HoldWriteLock calls not yet undone
  std::mutex sink_registry_lock_;
  // Last: its producers are closed before the catalog goes.
  std::unique_ptr<SinkRegistry> sink_registry_;
  std::mutex background_lock_;
  std::unique_ptr<BackgroundWork> background_;
  std::mutex secrets_lock_;
  std::shared_ptr<SecretManager> secrets_;
  // s3:// paths find their credentials in this database's S3 secrets
  // (common/s3/s3_config.hpp): the registration, undone when this goes.
  // Last: unregistered before the secrets go.
  std::shared_ptr<void> s3_config_;
};

}  // namespace lakestream
