// CatalogStore: the persistent half of the catalog of a database directory.
//
//   <db>/_lakestream/catalog.json   the catalog (grammar below)
//   <db>/_lakestream/LOCK           held (flock) by the process whose statement is writing
//
// Each table's schema, properties and data live in its own Delta log; the
// catalog only names the tables and what Delta cannot hold:
//
//   catalog  := { "format": 1, "version": <n>, "tables": [ table* ],
//                 "streams": [ stream* ], "sinks": [ sink* ], "views": [ view* ] }
//              ("views" only when there is a plain view)
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

#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "common/file_system.hpp"
#include "common/status.hpp"

namespace lakestream {

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
};

// `kind` decides what a table's "sources" are (view versions, or a streaming
// table's file schemas).
TableState TableStateFromJson(const nlohmann::json& json, TableKind kind);
nlohmann::json TableStateToJson(const TableState& state);
SinkState SinkStateFromJson(const nlohmann::json& json);
nlohmann::json SinkStateToJson(const SinkState& state);

class CatalogStore {
 public:
  // Creates <db>/_lakestream when missing (unless read_only). Opening takes
  // no lock: readers never need one, and a writer takes the write lock only
  // for the statements that write (Lock/Unlock), so an idle process keeps
  // nobody out.
  static Result<std::unique_ptr<CatalogStore>> Open(FileSystem* fs, const std::string& db_path, bool read_only);
  ~CatalogStore();

  // The stored catalog; an empty one for a new database. Corruption names the file.
  Result<CatalogRecord> Load();
  // Replaces the stored catalog (record.version is incremented first).
  // Requires the write lock.
  Status Save(CatalogRecord& record);

  // The write lock: an flock on <db>/_lakestream/LOCK, which also holds the
  // holder's pid for error messages. TryLock sets `*acquired` to false when
  // another process holds it (IOError only for a lock file that cannot be
  // opened). BusyError is the message for that case. Unlock is a no-op
  // without the lock.
  Status TryLock(bool* acquired);
  void Unlock();
  bool Locked() const { return locked_; }
  std::string BusyError() const;
  // Whether catalog.json was replaced since this store last loaded or saved
  // it (another process committed a catalog change).
  bool ChangedOnDisk() const;

  const std::string& DatabasePath() const { return db_path_; }

 private:
  CatalogStore(FileSystem* fs, std::string db_path) : fs_(fs), db_path_(std::move(db_path)) {}
  // The identity of catalog.json as last seen (inode, size, mtime): a save
  // renames a new file into place, so any change gives another inode.
  struct FileStamp {
    uint64_t inode = 0, size = 0;
    int64_t mtime_ns = 0;
    bool exists = false;
    bool operator==(const FileStamp&) const = default;
  };
  FileStamp Stamp() const;
  FileSystem* fs_;
  std::string db_path_;
  int lock_fd_ = -1;  // open while the store lives; the flock comes and goes
  bool locked_ = false;
  FileStamp seen_;
};

}  // namespace lakestream
