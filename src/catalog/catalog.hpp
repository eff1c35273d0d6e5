// The database catalog: tables (including materialized views and streaming
// tables, which are tables whose contents a query defines), table streams and
// sinks. Names are case-insensitive; the spelling given at creation is kept
// for display. Tables and streams share one namespace (both are read with
// FROM name); sinks have their own.
//
// Schemas (CREATE SCHEMA): every object belongs to one. An object of the
// default schema `main` is keyed by its name (as before schemas existed); an
// object of schema s by its key "s.name" (ObjectKey), which is also its
// `name` in the entry and in catalog.json. Schema names hold no '.', so a
// key splits at its first '.' when that prefix names a schema (SchemaOfKey).
// CREATE SCHEMA s refuses while a `main` object's name starts with "s.".
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

enum class TableKind : uint8_t { TABLE, MATERIALIZED_VIEW, STREAMING_TABLE };
// "table", "materialized view", "streaming table" (for messages).
const char* TableKindToString(TableKind kind);

// What the last REFRESH of a materialized view did (SHOW MATERIALIZED VIEWS).
struct ViewRefreshRecord {
  std::string path;      // "incremental", "recompute", "up to date", ...
  std::string fallback;  // why an incremental view was recomputed, or ""
  int64_t view_version = -1;
  int64_t inserted = 0;
  int64_t updated = 0;
  int64_t deleted = 0;
  bool operator==(const ViewRefreshRecord& other) const = default;
};

// State owned by the module that maintains a table, persisted in
// catalog.json as the table's "state" object (catalog_store.cpp is its only
// reader and writer). As for SinkState, an absent member is left out of the
// file and members this version does not know are kept as read.
struct TableState {
  // Materialized views (src/ivm).
  std::optional<std::string> refresh;      // "auto" | "manual"
  std::optional<std::string> maintenance;  // how it is maintained (MaintenanceKindToString)
  std::optional<std::string> shape;        // "aggregate" | "rows" | "query"
  std::optional<std::string> reason;       // why it is not incremental, or ""
  // Lower-case source name -> the source version the view's rows reflect.
  std::optional<std::map<std::string, int64_t>> sources;
  std::optional<ViewRefreshRecord> last_refresh;
  std::optional<std::string> status;  // "failed" after a failed refresh
  std::optional<std::string> error;   // the failed refresh's error
  // Each source's version when the refresh failed (-1: missing).
  std::optional<std::map<std::string, int64_t>> failed_at;
  // Tables: the folder (relative to the database) of a rename not finished yet.
  std::optional<std::string> moved_from;
  // Streaming tables: the schema read_files() found per source path
  // ({ <path>: { "schema": ... } }, function/table/ingestion_scope.hpp), stored
  // under "sources", and, in memory, the txn versions ingested per app id.
  std::optional<nlohmann::json> file_sources;
  std::optional<std::map<std::string, int64_t>> txns;
  // Pipeline tables: the TBLPROPERTIES keys their declaration set, so that a
  // key dropped from the declaration is dropped from the table at the next
  // run (main/statement/declared_properties.hpp).
  std::optional<std::vector<std::string>> declared_properties;
  nlohmann::json unknown = nlohmann::json::object();

  // Drops status, error and failed_at; true when there was any.
  bool ClearFailure() {
    bool had = status || error || failed_at;
    status.reset();
    error.reset();
    failed_at.reset();
    return had;
  }
};

struct TableCatalogEntry {
  std::string name;
  TableKind kind = TableKind::TABLE;
  // MATERIALIZED_VIEW and STREAMING_TABLE: the defining query (the SQL after
  // AS), and state owned by the module that maintains the table (src/ivm,
  // src/pipeline; a renamed table's unfinished move), persisted in the catalog.
  std::string definition;
  TableState state;
  std::vector<TableColumn> columns;
  std::vector<std::string> primary_key;
  std::vector<std::pair<std::string, std::string>> properties;  // in the order set
  std::unique_ptr<DataTable> storage;
  // Persistent databases: where the Delta table lives, and whether DROP
  // deletes it (managed) or leaves it (attached with LOCATION).
  std::string location;
  bool managed = true;
  std::vector<std::string> partition_columns;
  // Set when the table's storage could not be opened; using the table reports it.
  std::string load_error;
  // Never persisted: what the maintaining module keeps in memory between
  // statements (src/ivm: a view's aggregate state). Dies with the entry, so a
  // dropped or replaced view never sees its predecessor's.
  std::shared_ptr<void> runtime;

  // Index of the column named `name` (case-insensitive), or -1.
  int64_t ColumnIndex(const std::string& column_name) const;
  std::vector<LogicalType> Types() const;
  std::vector<std::string> Names() const;
  // "" when the property is not set. Keys compare case-insensitively.
  std::string GetProperty(const std::string& key) const;
  void SetProperty(const std::string& key, const std::string& value);
  bool UnsetProperty(const std::string& key);
};

// A table stream: a cursor over the change feed of a table or materialized
// view (src/stream/). `offset` is only the base of its offset; the consuming
// DML's Delta txns raise it (catalog/stream_offset.hpp, StreamPositionOf).
struct StreamCatalogEntry {
  std::string name;
  std::string id;      // unique per creation; names the stream's Delta txn appId
  std::string source;  // the table or materialized view it reads
  bool append_only = false;
  bool show_initial_rows = false;
  // The base of the offset (stream_offset.hpp): every change up to and
  // including this version has been consumed. With show_initial_rows and
  // nothing consumed yet, `initial_pending` is true and the first read
  // returns the rows of the source as of `offset` as inserts.
  int64_t offset = -1;
  bool initial_pending = false;
  timestamp_t created_at = 0;
  std::string comment;
  // Written only by older versions (a consumption under way, settled once on
  // open: ReconcileStreamOffsets, transaction/statement_commit.hpp).
  std::string pending_target;
  int64_t pending_version = -1;
  // The Delta table id (metaData.id) of the source at CREATE STREAM: a source
  // dropped and created again under the same name has another one, and the
  // stream reports itself stale rather than read the new table's versions
  // as if they followed its offset. Empty for streams of older catalogs.
  std::string source_id;
};

// A plain view (CREATE VIEW): a named query, expanded where it is read
// (planner/bind_view.cpp); it holds no rows. Temporary views live in the
// connection (ClientContext::TempViews) and are never persisted.
struct ViewCatalogEntry {
  std::string name;
  std::string definition;                   // the SQL after AS
  std::vector<std::string> column_aliases;  // CREATE VIEW v (a, b) AS ...; may name fewer columns than the query has
  std::string comment;
  bool temporary = false;
};

struct SinkOptions;  // connector/sink_options.hpp

// A sink's position and health, persisted in catalog.json as the sink's
// "state" object (catalog_store.cpp is its only reader and writer; src/sink
// gives the members their meaning, docs/sinks.md "Delivery"). A member is
// absent (nullopt) when the file did not have it: a state is written back
// with exactly the keys it was read with, plus what changed.
struct SinkState {
  std::optional<std::string> id;  // unique per CREATE SINK; tags our Kafka messages (absent: the sink's name)
  std::optional<timestamp_t> created_at;
  std::optional<int64_t> start_version;     // the source version at CREATE SINK
  std::optional<std::string> source_id;     // the source table's Delta id (metaData.id) the position belongs to
  std::optional<bool> snapshot_pending;     // 'start' = 'earliest' and the rows as of start_version not delivered yet
  std::optional<int64_t> delivered_version; // every change up to here is durable in the target
  std::optional<std::vector<int64_t>> partition_offsets;  // Kafka: where the next resume scan starts
  std::optional<std::string> file_path;     // FILE: the file, absolute
  std::optional<int64_t> file_size;         // FILE: the file's durable size
  std::optional<std::string> file_tail_hash;  // FILE: FNV-1a of the (up to) 4096 bytes before file_size
  std::optional<int64_t> stream_batch;      // a stream source: the end version of the batch under way
  std::optional<int64_t> messages;
  std::optional<int64_t> skipped_changes;
  std::optional<std::string> last_error;
  std::optional<timestamp_t> last_error_at;
  std::optional<timestamp_t> updated_at;
  // Members this version does not know (or whose value had another type),
  // kept as read so that a save does not lose them.
  nlohmann::json unknown = nlohmann::json::object();

  // The message id, the sink's name when the state has none.
  std::string IdOr(const std::string& sink_name) const { return id.value_or(sink_name); }
  void ClearError() {
    last_error.reset();
    last_error_at.reset();
  }
};

// A sink: delivers the changes of a table, view or stream to Kafka or a file
// (src/sink/).
struct SinkCatalogEntry {
  std::string name;
  std::string source;
  std::string target;     // "kafka" | "file"
  std::string file_path;  // INTO FILE 'path'
  std::vector<std::pair<std::string, std::string>> options;  // WITH (...), in the order given
  SinkState state;
  // Never persisted: `options` parsed (ParsedSinkOptions in
  // connector/sink_options.hpp), set when the sink is defined or first used
  // after the catalog loads. Whoever changes `options` resets it.
  mutable std::shared_ptr<const SinkOptions> parsed_options;

  std::string Id() const { return state.IdOr(name); }
};

// Catalog entries of one kind (streams, sinks) keyed by lower-case name.
template <class Entry>
class CatalogSet {
 public:
  // `kind`: "Stream"; `list_hint`: what to run to list them, for "does not exist" errors.
  CatalogSet(const char* kind, const char* list_hint) : kind_(kind), list_hint_(list_hint) {}

  Entry* Find(const std::string& name) {
    auto it = entries_.find(StringUtil::Lower(name));
    return it == entries_.end() ? nullptr : it->second.get();
  }
  // Throws CatalogError "<Kind> with name x does not exist!" with a "Did you mean" hint.
  Entry& Get(const std::string& name) {
    if (Entry* entry = Find(name)) return *entry;
    std::string message = std::string(kind_) + " with name " + name + " does not exist!";
    std::string hint = StringUtil::ClosestMatch(name, Names());
    message += hint.empty() ? " " + std::string(list_hint_) : " Did you mean \"" + hint + "\"?";
    throw CatalogError(message);
  }
  // Throws CatalogError "... already exists! <replace_hint>" unless or_replace.
  Entry& Put(std::unique_ptr<Entry> entry, bool or_replace, const std::string& replace_hint) {
    std::string key = StringUtil::Lower(entry->name);
    if (entries_.count(key) && !or_replace) {
      throw CatalogError(std::string(kind_) + " with name " + entry->name + " already exists! " + replace_hint);
    }
    auto& slot = entries_[key];
    slot = std::move(entry);
    return *slot;
  }
  // False when absent and if_exists; throws (with a hint) when absent otherwise.
  bool Drop(const std::string& name, bool if_exists) {
    auto it = entries_.find(StringUtil::Lower(name));
    if (it == entries_.end()) {
      if (if_exists) return false;
      Get(name);
    }
    entries_.erase(it);
    return true;
  }
  std::vector<std::string> Names() const {  // sorted
    std::vector<std::string> names;
    for (auto& [key, entry] : entries_) names.push_back(entry->name);
    return names;
  }

 private:
  const char* kind_;
  const char* list_hint_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
};

// The default schema (DuckDB's name). `default` (Databricks) and `public`
// (Snowflake, PostgreSQL) name it too.
inline constexpr const char* kDefaultSchema = "main";
bool IsDefaultSchemaName(const std::string& name);

class Catalog {
 public:
  // Schemas. `main` always exists and is never stored. CreateSchema throws
  // CatalogError when it exists (unless if_not_exists), when the name holds a
  // '.', or when a `main` object's name starts with "<name>.". Returns false
  // when it existed.
  bool CreateSchema(const std::string& name, bool if_not_exists);
  // Forgets an empty schema (the caller drops its objects first).
  void DropSchema(const std::string& name);
  // The schema's spelling as created (`main` for its aliases), or nullopt.
  std::optional<std::string> FindSchema(const std::string& name) const;
  // `main` first, then the others sorted.
  std::vector<std::string> SchemaNames() const;
  // Created schemas only (what catalog.json stores).
  std::vector<std::string> StoredSchemaNames() const;
  // The key of `name` in `schema`: the name itself in `main`, "schema.name" otherwise.
  std::string ObjectKey(const std::string& schema, const std::string& name) const;
  // The schema a key belongs to (its spelling as created), and its name in that schema.
  std::string SchemaOfKey(const std::string& key) const;
  std::string NameOfKey(const std::string& key) const;
  // "table s.t", "stream s.c", ... for every object of the schema, sorted by kind then name.
  std::vector<std::string> DescribeObjectsIn(const std::string& schema) const;

  // Throws CatalogError when a table of that name exists (unless if_not_exists / replace; replacing folds as DropTable).
  TableCatalogEntry& CreateTable(std::unique_ptr<TableCatalogEntry> entry, bool if_not_exists, bool or_replace);
  // Throws CatalogError when a stream or a plain view has the name a new
  // table of `kind` would take (CreateTable checks it too; callers call it
  // before creating the table's storage, so a refused name leaves no folder).
  void RequireNameForTable(const std::string& name, TableKind kind);
  // Throws CatalogError "Table with name x does not exist!" with a "Did you mean" hint.
  TableCatalogEntry& GetTable(const std::string& name);
  TableCatalogEntry* FindTable(const std::string& name);
  // False when absent and if_exists; throws otherwise. Folds its stream txns into the streams' bases first (stream_offset.hpp).
  bool DropTable(const std::string& name, bool if_exists);
  void RenameTable(const std::string& from, const std::string& to);
  std::vector<std::string> TableNames() const;  // sorted
  // Names of the tables of one kind, sorted.
  std::vector<std::string> TableNames(TableKind kind) const;
  // GetTable for a statement that writes rows (`what`, e.g. "UPDATE"): a
  // CatalogError when `name` is a stream or a materialized view.
  TableCatalogEntry& GetTableForWrite(const std::string& name, const std::string& what);

  // Streams. CreateStream throws when a table or stream has the name (unless or_replace for a stream).
  StreamCatalogEntry& CreateStream(std::unique_ptr<StreamCatalogEntry> entry, bool or_replace);
  StreamCatalogEntry* FindStream(const std::string& name);
  // Throws CatalogError "Stream with name x does not exist!" with a hint.
  StreamCatalogEntry& GetStream(const std::string& name);
  bool DropStream(const std::string& name, bool if_exists);
  std::vector<std::string> StreamNames() const;  // sorted

  // Plain views. They share the name space of tables and streams: CreateView
  // throws when a table or stream has the name, or a view does (unless or_replace).
  ViewCatalogEntry& CreateView(std::unique_ptr<ViewCatalogEntry> entry, bool or_replace);
  ViewCatalogEntry* FindView(const std::string& name);
  bool DropView(const std::string& name, bool if_exists);
  std::vector<std::string> ViewNames() const;  // sorted

  // Sinks.
  SinkCatalogEntry& CreateSink(std::unique_ptr<SinkCatalogEntry> entry, bool or_replace);
  SinkCatalogEntry* FindSink(const std::string& name);
  SinkCatalogEntry& GetSink(const std::string& name);
  bool DropSink(const std::string& name, bool if_exists);
  std::vector<std::string> SinkNames() const;  // sorted

 private:
  std::map<std::string, std::string> schemas_;  // lower-case name -> spelling; `main` is implicit
  std::map<std::string, std::unique_ptr<TableCatalogEntry>> tables_;  // key: lower-case name
  CatalogSet<StreamCatalogEntry> streams_{"Stream", "Run SHOW STREAMS to list streams."};
  CatalogSet<ViewCatalogEntry> views_{"View", "Run SHOW VIEWS to list views."};
  CatalogSet<SinkCatalogEntry> sinks_{"Sink", "Run SHOW SINKS to list sinks."};
};

}  // namespace lakestream
