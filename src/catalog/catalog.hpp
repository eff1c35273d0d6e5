// The database catalog: named tables (and, as later issues land, streams,
// views and sinks). Names are case-insensitive; the spelling given at
// creation is kept for display.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/data_table.hpp"

namespace lakestream {

struct TableCatalogEntry {
  std::string name;
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

  // Index of the column named `name` (case-insensitive), or -1.
  int64_t ColumnIndex(const std::string& column_name) const;
  std::vector<LogicalType> Types() const;
  std::vector<std::string> Names() const;
  // "" when the property is not set. Keys compare case-insensitively.
  std::string GetProperty(const std::string& key) const;
  void SetProperty(const std::string& key, const std::string& value);
  bool UnsetProperty(const std::string& key);
};

class Catalog {
 public:
  // Throws CatalogError when a table of that name exists (unless if_not_exists / replace).
  TableCatalogEntry& CreateTable(std::unique_ptr<TableCatalogEntry> entry, bool if_not_exists, bool or_replace);
  // Throws CatalogError "Table with name x does not exist!" with a "Did you mean" hint.
  TableCatalogEntry& GetTable(const std::string& name);
  TableCatalogEntry* FindTable(const std::string& name);
  // Returns false when absent and if_exists; throws otherwise.
  bool DropTable(const std::string& name, bool if_exists);
  void RenameTable(const std::string& from, const std::string& to);
  std::vector<std::string> TableNames() const;  // sorted

 private:
  std::map<std::string, std::unique_ptr<TableCatalogEntry>> tables_;  // key: lower-case name
};

}  // namespace lakestream
