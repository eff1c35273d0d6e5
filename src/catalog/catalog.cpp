#include "catalog/catalog.hpp"

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

TableCatalogEntry& Catalog::CreateTable(std::unique_ptr<TableCatalogEntry> entry, bool if_not_exists, bool or_replace) {
  std::string key = StringUtil::Lower(entry->name);
  auto it = tables_.find(key);
  if (it != tables_.end()) {
    if (if_not_exists) return *it->second;
    if (!or_replace) {
      throw CatalogError("Table with name " + entry->name +
                         " already exists! Use CREATE OR REPLACE TABLE to replace it, or pick another name.");
    }
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
  tables_.erase(it);
  return true;
}

void Catalog::RenameTable(const std::string& from, const std::string& to) {
  auto it = tables_.find(StringUtil::Lower(from));
  if (it == tables_.end()) GetTable(from);
  if (FindTable(to)) throw CatalogError("Cannot rename " + from + " to " + to + ": a table named " + to + " already exists.");
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

}  // namespace lakestream
