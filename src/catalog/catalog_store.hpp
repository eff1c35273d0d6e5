// CatalogStore: the persistent half of the catalog of a database directory.
// On local disk:
//
//   <db>/_lakestream/catalog.json   the catalog (grammar below)
//   <db>/_lakestream/LOCK           held (flock) by the process whose statement is writing
//
// Each table's schema, properties and data live in its own Delta log; the
// catalog only names the tables and what Delta cannot hold:
//
//   catalog  := { "format": 2, "version": <n>, "tables": [ table* ],
//                 "streams": [ stream* ], "sinks": [ sink* ], "views": [ view* ],
//                 "schemas": [ <str>* ] }
//              ("views" only when there is a plain view, "schemas" only when
//              CREATE SCHEMA made one: `main` is never listed)
//
// An object of schema `main` has its plain name; an object of schema s is
// named "s.name" (its catalog key, catalog.hpp), and so is every reference
// to it ("source", "pending_target", a view's "sources"). A catalog written
// before schemas existed is therefore a catalog whose objects are all in `main`.
//   table    := { "name": <str>, "path": <str>, "managed": <bool>,
//                 "primary_key": [ <str>* ], "defaults": { <column>: <sql literal> },
//                 "kind": "table" | "materialized view" | "streaming table",
//                 "definition": <sql>, "state": <json object> }
//   stream   := { "name": <str>, "id": <str>, "source": <str>, "append_only": <bool>,
//                 "show_initial_rows": <bool>, "offset": <version>, "initial_pending": <bool>,
//                 "created_at": <micros>, "comment": <str>,
//                 "pending_target": <str>, "pending_version": <version> }
//   sink     := { "name": <str>, "source": <str>, "target": "kafka" | "file", "file_path": <str>,
//                 "options": [ [ <key>, <value> ]* ], "state": <json object> }
//   view     := { "name": <str>, "definition": <sql>, "columns": [ <str>* ], "comment": <str> }
//
// Format 1 (before issue 30) read a stream's "offset" as the offset itself;
// from format 2 it is a base that the consuming targets' Delta txns move past
// (catalog/stream_offset.hpp). Format 1 still loads; this version writes 2, so
// an older lakestream refuses the database instead of delivering again.
//
// Missing members take their defaults, so catalogs written before streams,
// views and sinks existed still load. `state` objects belong to the module
// that maintains the object (views: src/ivm, sinks: src/sink).
//
// A table's "state" is TableState, a sink's SinkState (catalog.hpp); the
// *StateFromJson and *StateToJson functions below are their one serializer: the keys are the member names,
// absent members are left out, and members this version does not know (or
// whose value has another type) are kept as read.
//
// `path` is relative to the database directory for managed tables, absolute
// for attached ones (CREATE TABLE ... LOCATION). The file is replaced
// atomically (temp file, fsync, rename, fsync of the directory), so a crash
// leaves the old or the new catalog, never a torn one; `version` counts the
// replacements.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "common/file_system.hpp"
#include "common/status.hpp"

namespace lakestream {

// The catalog format this version writes (it reads 1 and 2).
constexpr int kCatalogFormat = 2;

struct CatalogTableRecord {
  std::string name;
  std::string path;
  bool managed = true;
  std::vector<std::string> primary_key;
  std::vector<std::pair<std::string, std::string>> defaults;  // column -> SQL literal
  TableKind kind = TableKind::TABLE;
  std::string definition;
  TableState state;
};

struct CatalogRecord {
  int64_t version = 0;
  std::vector<CatalogTableRecord> tables;
  std::vector<StreamCatalogEntry> streams;
  std::vector<SinkCatalogEntry> sinks;
  std::vector<ViewCatalogEntry> views;  // plain views (temporary ones are never stored)
  std::vector<std::string> schemas;     // created schemas (not `main`)
};

// `kind` decides what a table's "sources" are (view versions, or a streaming
// table's file schemas).
TableState TableStateFromJson(const nlohmann::json& json, TableKind kind);
nlohmann::json TableStateToJson(const TableState& state);
SinkState SinkStateFromJson(const nlohmann::json& json);
nlohmann::json SinkStateToJson(const SinkState& state);

// Serializes the catalog (the grammar above); `path` names the object in errors.
Result<CatalogRecord> CatalogRecordFromText(const std::string& text, const std::string& path);
std::string CatalogRecordToText(const CatalogRecord& record);
// Whether a sink's options name a secret (the local catalog is then owner-only).
bool CatalogNamesSecrets(const CatalogRecord& record);

// The catalog store of one database. Open picks the implementation by the
// path: a local directory (catalog.json and an flock, below) or an s3://
// prefix (ObjectCatalogStore, object_catalog_store.hpp: versioned catalog
// objects and a write lease).
class CatalogStore {
 public:
  // Creates <db>/_lakestream when missing (unless read_only). Opening takes
  // no lock: readers never need one, and a writer takes the write lock only
  // for the statements that write (Lock/Unlock), so an idle process keeps
  // nobody out.
  static Result<std::unique_ptr<CatalogStore>> Open(FileSystem* fs, const std::string& db_path, bool read_only);
  virtual ~CatalogStore() = default;

  // The stored catalog; an empty one for a new database. Corruption names the file.
  virtual Result<CatalogRecord> Load() = 0;
  // Replaces the stored catalog (record.version is incremented first).
  // Requires the write lock.
  virtual Status Save(CatalogRecord& record) = 0;

  // The write lock: locally an flock on <db>/_lakestream/LOCK, which also
  // holds the holder's pid for error messages. TryLock sets `*acquired` to
  // false when another process holds it (IOError only for a lock that cannot
  // be inspected). BusyError is the message for that case. Unlock is a no-op
  // without the lock.
  virtual Status TryLock(bool* acquired) = 0;
  // Waits up to `timeout` for the write lock, in line: locally the waiter
  // first takes a turnstile (an OFD lock on byte 0 of LOCK) and keeps it
  // while it sleeps in the kernel on the flock, so a holder that lets go
  // and wants the lock again queues behind it instead of taking it back
  // (no starvation), and the waiter wakes the moment the lock is free.
  // `*acquired` false when the time ran out: the waiter keeps its place for
  // the next call until StopWaiting (or Unlock). The default tries TryLock
  // and sleeps (object storage: each try is a request).
  virtual Status WaitLock(std::chrono::milliseconds timeout, bool* acquired);
  virtual void StopWaiting() {}
  virtual void Unlock() = 0;
  bool Locked() const { return locked_; }
  virtual std::string BusyError() const = 0;
  // Whether the stored catalog was replaced since this store last loaded or
  // saved it (another process committed a catalog change).
  virtual bool ChangedOnDisk() const = 0;

  const std::string& DatabasePath() const { return db_path_; }

 protected:
  CatalogStore(FileSystem* fs, std::string db_path) : fs_(fs), db_path_(std::move(db_path)) {}
  FileSystem* fs_;
  std::string db_path_;
  bool locked_ = false;
};

// object_catalog_store.cpp: the store of a database on object storage.
Result<std::unique_ptr<CatalogStore>> OpenObjectCatalogStore(FileSystem* fs, const std::string& db_path, bool read_only);

}  // namespace lakestream
