#include "main/database_instance.hpp"

#include <filesystem>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "storage/table/delta_table.hpp"
#include "stream/stream_offsets.hpp"

namespace lakestream {

DatabaseInstance::DatabaseInstance(std::string path, DatabaseOptions options)
    : path_(std::move(path)), options_(options), fs_(FileSystem::Default()) {
  if (InMemory()) return;
  while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
  auto store = CatalogStore::Open(fs_, path_, options_.read_only);
  if (!store.ok()) store.status().Throw();
  store_ = store.take();
  auto record = store_->Load();
  if (!record.ok()) record.status().Throw();
  record_ = record.take();
  LoadTables();
  if (!options_.read_only) ReconcileStreamOffsets(*this);
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
  if (!path.empty() && path[0] == '/') return path;
  return db + "/" + path;
}

void DatabaseInstance::LoadTables() {
  for (auto& record : record_.tables) {
    auto entry = std::make_unique<TableCatalogEntry>();
    entry->name = record.name;
    entry->location = Absolute(path_, record.path);
    entry->managed = record.managed;
    entry->primary_key = record.primary_key;
    entry->kind = record.kind;
    entry->definition = record.definition;
    entry->state = record.state;
    try {
      entry->storage = DeltaTable::Open(fs_, record.name, entry->location);
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
}

void DatabaseInstance::SaveCatalog() {
  if (InMemory()) return;
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
      if (!c.default_value.IsNull()) t.defaults.emplace_back(c.name, c.default_value.ToSQLString());
    }
    t.kind = entry->kind;
    t.definition = entry->definition;
    t.state = entry->state;
    record.tables.push_back(std::move(t));
  }
  for (auto& name : catalog_.StreamNames()) record.streams.push_back(*catalog_.FindStream(name));
  for (auto& name : catalog_.SinkNames()) record.sinks.push_back(*catalog_.FindSink(name));
  Status s = store_->Save(record);
  if (!s.ok()) throw IOError("Cannot save the catalog of database " + path_ + ": " + s.message());
  record_ = std::move(record);
}

// A crash between creating a managed table's Delta log and saving the
// catalog (CREATE TABLE, a materialized view, a streaming table) leaves a
// table that holds only its first commit (protocol and metadata, no rows) and
// that no catalog entry names: nothing is lost by creating it again.
bool DatabaseInstance::IsCreationLeftover(const std::string& location) {
  for (auto& name : catalog_.TableNames()) {
    if (catalog_.GetTable(name).location == location) return false;
  }
  auto log = delta::DeltaLog::Open(fs_, location);
  if (!log.ok()) return false;
  auto latest = log.value()->LatestVersion();
  return latest.ok() && latest.value() == 0;
}

void DatabaseInstance::CreateTableStorage(TableCatalogEntry& entry, const std::optional<std::string>& location,
                                          const std::string& comment) {
  if (InMemory()) {
    if (location) {
      throw NotImplementedError("CREATE TABLE ... LOCATION in an in-memory database; open a database directory "
                                "(lakestream DB_DIR) to attach Delta tables");
    }
    entry.storage = std::make_unique<InMemoryTable>(entry.Types());
    return;
  }
  RequireWritable("CREATE TABLE");
  entry.managed = !location.has_value();
  // A LOCATION is a path as the user sees it: relative to the working directory (as in Spark and DuckDB).
  entry.location = location ? std::filesystem::absolute(*location).lexically_normal().string() : path_ + "/" + entry.name;
  while (entry.location.size() > 1 && entry.location.back() == '/') entry.location.pop_back();
  auto log = delta::DeltaLog::Open(fs_, entry.location);
  bool exists = log.ok() && log.value()->Exists();
  if (exists && entry.managed && IsCreationLeftover(entry.location)) {
    std::error_code ec;
    std::filesystem::remove_all(entry.location, ec);
    exists = false;
  }
  if (exists) {
    if (entry.managed) {
      throw CatalogError("A Delta table already exists at " + entry.location + " (left over from an earlier table " +
                         entry.name + "?); attach it with CREATE TABLE " + entry.name + " LOCATION '" + entry.location +
                         "', or remove that directory");
    }
    if (!entry.columns.empty()) {
      throw CatalogError("CREATE TABLE " + entry.name + " LOCATION '" + *location +
                         "': a Delta table already exists there; omit the column list to attach it with its own schema");
    }
    entry.storage = DeltaTable::Open(fs_, entry.name, entry.location);
    SyncFromDelta(entry);
    return;
  }
  if (entry.columns.empty()) {
    throw CatalogError("CREATE TABLE " + entry.name + " LOCATION '" + *location +
                       "': there is no Delta table there to attach; give the columns to create a new one");
  }
  DeltaTableDefinition definition;
  definition.columns = entry.columns;
  definition.partition_columns = entry.partition_columns;
  for (auto& [k, v] : entry.properties) definition.properties[k] = v;
  definition.description = comment;
  entry.storage = DeltaTable::Create(fs_, entry.name, entry.location, definition);
  SyncFromDelta(entry);
}

void DatabaseInstance::DropTableStorage(TableCatalogEntry& entry) {
  if (InMemory() || !entry.managed || entry.location.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(entry.location, ec);
  if (ec) throw IOError("Table " + entry.name + " was dropped but its files at " + entry.location + " could not be deleted: " + ec.message());
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

}  // namespace lakestream
