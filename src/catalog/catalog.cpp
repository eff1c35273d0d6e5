#include "catalog/catalog.hpp"

#include "catalog/stream_offset.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

int64_t TableCatalogEntry::ColumnIndex(const std::string& column_name) const {
  for (size_t i = 0; i < columns.size(); i++) {
    if (StringUtil::CIEquals(columns[i].name, column_name)) return static_cast<int64_t>(i);
  }
  return -1;
}

std::vector<LogicalType> TableCatalogEntry::Types() const {
  std::vector<LogicalType> types;
  for (auto& c : columns) types.push_back(c.type);
  return types;
}

std::vector<std::string> TableCatalogEntry::Names() const {
  std::vector<std::string> names;
  for (auto& c : columns) names.push_back(c.name);
  return names;
}

std::string TableCatalogEntry::GetProperty(const std::string& key) const {
  for (auto& [k, v] : properties) {
    if (StringUtil::CIEquals(k, key)) return v;
  }
  return "";
}

void TableCatalogEntry::SetProperty(const std::string& key, const std::string& value) {
  for (auto& [k, v] : properties) {
    if (StringUtil::CIEquals(k, key)) {
      v = value;
      return;
    }
  }
  properties.emplace_back(key, value);
}

bool TableCatalogEntry::UnsetProperty(const std::string& key) {
  for (auto it = properties.begin(); it != properties.end(); ++it) {
    if (StringUtil::CIEquals(it->first, key)) {
      properties.erase(it);
      return true;
    }
  }
  return false;
}

const char* TableKindToString(TableKind kind) {
  switch (kind) {
    case TableKind::TABLE: return "table";
    case TableKind::MATERIALIZED_VIEW: return "materialized view";
    case TableKind::STREAMING_TABLE: return "streaming table";
  }
  return "table";
}

void Catalog::RequireNameForTable(const std::string& name, TableKind kind) {
  if (streams_.Find(name)) {
    throw CatalogError("Cannot create " + std::string(TableKindToString(kind)) + " " + name +
                       ": a stream with that name exists; drop it with DROP STREAM " + name + ", or pick another name.");
  }
  if (ViewCatalogEntry* view = views_.Find(name)) {
    throw CatalogError("Cannot create " + std::string(TableKindToString(kind)) + " " + name +
                       ": a view with that name exists; drop it with DROP VIEW " + view->name + ", or pick another name.");
  }
}

TableCatalogEntry& Catalog::CreateTable(std::unique_ptr<TableCatalogEntry> entry, bool if_not_exists, bool or_replace) {
  std::string key = StringUtil::Lower(entry->name);
  RequireNameForTable(entry->name, entry->kind);
  auto it = tables_.find(key);
  if (it != tables_.end()) {
    if (if_not_exists) return *it->second;
    if (!or_replace) {
      throw CatalogError("Table with name " + entry->name +
                         " already exists! Use CREATE OR REPLACE TABLE to replace it, or pick another name.");
    }
    FoldStreamOffsets(*this, *it->second);  // the replaced table's consumptions stay counted
  }
  auto& slot = tables_[key];
  slot = std::move(entry);
  return *slot;
}

TableCatalogEntry* Catalog::FindTable(const std::string& name) {
  auto it = tables_.find(StringUtil::Lower(name));
  return it == tables_.end() ? nullptr : it->second.get();
}

TableCatalogEntry& Catalog::GetTable(const std::string& name) {
  if (auto* entry = FindTable(name)) {
    if (!entry->storage) throw IOError("Table " + entry->name + " cannot be used: " + entry->load_error);
    return *entry;
  }
  std::string message = "Table with name " + name + " does not exist!";
  std::string hint = StringUtil::ClosestMatch(name, TableNames());
  if (!hint.empty()) {
    message += " Did you mean \"" + hint + "\"?";
  } else {
    message += " Create it with CREATE TABLE, or run SHOW TABLES to list tables.";
  }
  throw CatalogError(message);
}

bool Catalog::DropTable(const std::string& name, bool if_exists) {
  auto it = tables_.find(StringUtil::Lower(name));
  if (it == tables_.end()) {
    if (if_exists) return false;
    GetTable(name);  // throws with a hint
  }
  FoldStreamOffsets(*this, *it->second);  // its consumptions stay counted (stream_offset.hpp)
  tables_.erase(it);
  return true;
}

void Catalog::RenameTable(const std::string& from, const std::string& to) {
  auto it = tables_.find(StringUtil::Lower(from));
  if (it == tables_.end()) GetTable(from);
  TableCatalogEntry* existing = FindTable(to);
  if (existing && existing != it->second.get()) {
    throw CatalogError("Cannot rename " + from + " to " + to + ": a " + TableKindToString(existing->kind) + " named " +
                       existing->name + " already exists; drop it or pick another name.");
  }
  if (StreamCatalogEntry* stream = FindStream(to)) {
    throw CatalogError("Cannot rename " + from + " to " + to + ": a stream named " + stream->name +
                       " already exists; drop it or pick another name.");
  }
  if (ViewCatalogEntry* view = FindView(to)) {
    throw CatalogError("Cannot rename " + from + " to " + to + ": a view named " + view->name +
                       " already exists; drop it or pick another name.");
  }
  auto entry = std::move(it->second);
  tables_.erase(it);
  entry->name = to;
  tables_[StringUtil::Lower(to)] = std::move(entry);
}

std::vector<std::string> Catalog::TableNames() const {
  std::vector<std::string> names;
  for (auto& [key, entry] : tables_) names.push_back(entry->name);
  return names;
}

std::vector<std::string> Catalog::TableNames(TableKind kind) const {
  std::vector<std::string> names;
  for (auto& [key, entry] : tables_) {
    if (entry->kind == kind) names.push_back(entry->name);
  }
  return names;
}

TableCatalogEntry& Catalog::GetTableForWrite(const std::string& name, const std::string& what) {
  if (StreamCatalogEntry* stream = FindStream(name)) {
    throw CatalogError(what + " cannot write to " + stream->name + ": it is a stream, which is read-only (it shows the changes of " +
                       stream->source + "); write to " + stream->source + " instead");
  }
  TableCatalogEntry& table = GetTable(name);
  if (table.kind == TableKind::MATERIALIZED_VIEW) {
    throw CatalogError(what + " cannot write to " + table.name +
                       ": it is a materialized view, whose rows its query defines; change its source tables, or "
                       "redefine it with CREATE OR REPLACE MATERIALIZED VIEW");
  }
  return table;
}

// ---- streams ----

StreamCatalogEntry& Catalog::CreateStream(std::unique_ptr<StreamCatalogEntry> entry, bool or_replace) {
  if (auto* table = FindTable(entry->name)) {
    throw CatalogError("Cannot create stream " + entry->name + ": a " + TableKindToString(table->kind) +
                       " with that name exists; pick another name for the stream.");
  }
  if (auto* view = FindView(entry->name)) {
    throw CatalogError("Cannot create stream " + entry->name + ": a view named " + view->name +
                       " exists; pick another name for the stream.");
  }
  return streams_.Put(std::move(entry), or_replace,
                      "Use CREATE OR REPLACE STREAM to replace it (its offset starts over), or pick another name.");
}

StreamCatalogEntry* Catalog::FindStream(const std::string& name) { return streams_.Find(name); }
StreamCatalogEntry& Catalog::GetStream(const std::string& name) { return streams_.Get(name); }
bool Catalog::DropStream(const std::string& name, bool if_exists) { return streams_.Drop(name, if_exists); }
std::vector<std::string> Catalog::StreamNames() const { return streams_.Names(); }

// ---- views ----

ViewCatalogEntry& Catalog::CreateView(std::unique_ptr<ViewCatalogEntry> entry, bool or_replace) {
  if (auto* table = FindTable(entry->name)) {
    std::string kind = TableKindToString(table->kind);
    throw CatalogError("Cannot create view " + entry->name + ": a " + kind + " named " + table->name +
                       " exists; pick another name for the view, or drop the " + kind + " first with DROP " +
                       StringUtil::Upper(kind) + " " + table->name);
  }
  if (auto* stream = FindStream(entry->name)) {
    throw CatalogError("Cannot create view " + entry->name + ": a stream named " + stream->name +
                       " exists; pick another name for the view, or drop the stream first with DROP STREAM " + stream->name);
  }
  return views_.Put(std::move(entry), or_replace, "Use CREATE OR REPLACE VIEW to replace it, or pick another name.");
}

ViewCatalogEntry* Catalog::FindView(const std::string& name) { return views_.Find(name); }
bool Catalog::DropView(const std::string& name, bool if_exists) { return views_.Drop(name, if_exists); }
std::vector<std::string> Catalog::ViewNames() const { return views_.Names(); }

// ---- sinks ----

SinkCatalogEntry& Catalog::CreateSink(std::unique_ptr<SinkCatalogEntry> entry, bool or_replace) {
  return sinks_.Put(std::move(entry), or_replace, "Use CREATE OR REPLACE SINK to replace it, or pick another name.");
}

SinkCatalogEntry* Catalog::FindSink(const std::string& name) { return sinks_.Find(name); }
SinkCatalogEntry& Catalog::GetSink(const std::string& name) { return sinks_.Get(name); }
bool Catalog::DropSink(const std::string& name, bool if_exists) { return sinks_.Drop(name, if_exists); }
std::vector<std::string> Catalog::SinkNames() const { return sinks_.Names(); }

}  // namespace lakestream
