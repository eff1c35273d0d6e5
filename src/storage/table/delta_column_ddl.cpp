// Column DDL of Delta tables that depends on column mapping (PROTOCOL
// "Column Mapping"): RENAME COLUMN and DROP COLUMN change only the schema,
// since data files name columns by their physical names, and the one mode
// change Delta allows on an existing table (none -> name); and the schema a
// write that evolves it commits, with ids and physical names for new fields;
// SET / UNSET TBLPROPERTIES, which guard the column mapping properties.
#include <nlohmann/json.hpp>

#include <cstdio>

#include "common/delta_table_properties.hpp"
#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/json_writer.hpp"
#include "common/string_util.hpp"
#include "storage/delta/column_mapping.hpp"
#include "storage/delta/row_tracking.hpp"  // AssignMaterializedColumnNames
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

using ojson = nlohmann::ordered_json;

namespace {

[[noreturn]] void RequireMapping(const std::string& table, const std::string& statement) {
  throw NotImplementedError(statement + " on Delta table " + table +
                            " needs column mapping, so that data files keep their column names: run ALTER TABLE " + table +
                            " SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name') first (readers then need Delta "
                            "reader version 2: Delta Lake 1.2, Databricks Runtime 10.2 or later)");
}

// The "fields" array of the struct that holds `path`'s last step, or null
// (a step is not a struct field); `*at` the field's position in it, -1 when
// it has no such field. Names match case-insensitively, as columns do.
ojson* ParentFields(ojson& root, const std::vector<std::string>& path, int64_t* at) {
  ojson* fields = &root["fields"];
  for (size_t step = 0; step < path.size(); step++) {
    int64_t found = -1;
    for (size_t i = 0; i < fields->size(); i++) {
      if (StringUtil::CIEquals((*fields)[i].value("name", ""), path[step])) found = static_cast<int64_t>(i);
    }
    if (step + 1 == path.size()) {
      *at = found;
      return fields;
    }
    if (found < 0) {
      *at = -1;
      return fields;
    }
    ojson& type = (*fields)[found]["type"];
    if (!type.is_object() || type.value("type", "") != "struct") return nullptr;
    fields = &type["fields"];
  }
  return nullptr;
}

}  // namespace

std::string DerivedPhysicalName(const std::string& table_id, int64_t id) {
  uint64_t h1 = 14695981039346656037ULL, h2 = 1099511628211ULL;
  for (char ch : table_id + "/" + std::to_string(id)) {
    h1 = (h1 ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
    h2 = (h2 ^ static_cast<unsigned char>(ch)) * 14695981039346656037ULL + 0x9e3779b97f4a7c15ULL;
  }
  auto mix = [](uint64_t z) {  // splitmix64's finalizer: nearby inputs, unrelated names
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  h1 = mix(h1);
  h2 = mix(h2 ^ h1);
  char buf[48];
  snprintf(buf, sizeof(buf), "col-%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(h1 >> 32),
           static_cast<unsigned>((h1 >> 16) & 0xffff), static_cast<unsigned>(h1 & 0xffff), static_cast<unsigned>(h2 >> 48),
           static_cast<unsigned long long>(h2 & 0xffffffffffffULL));
  return buf;
}

std::vector<delta::DeltaColumn> EvolvedDeltaSchema(const delta::Snapshot& snapshot, const std::vector<TableColumn>& columns,
                                                   const std::string& name, delta::StringMap& configuration) {
  std::vector<delta::DeltaColumn> schema;
  for (auto& c : columns) {
    delta::DeltaColumn column;
    for (auto& old : snapshot.schema) {
      if (StringUtil::CIEquals(old.name, c.name)) column = old;
    }
    column.name = c.name;
    column.type = c.type;
    schema.push_back(std::move(column));
  }
  if (delta::ColumnMappingModeOf(configuration) == "none") return schema;
  // Derived from the table's id and the field's id (never reused), so the
  // writers, which name the files' columns first, and the commit agree.
  const std::string& table_id = snapshot.metadata.id;
  Status s = delta::AssignColumnMapping(
      schema, configuration, [&](const std::string&, int64_t id) { return DerivedPhysicalName(table_id, id); });
  if (!s.ok()) throw InvalidInputError("Delta table " + name + ": " + s.message());
  return schema;
}

void DeltaTable::RenameColumn(const std::vector<std::string>& path, const std::string& new_name) {
  const delta::Snapshot& snapshot = state_->snapshot;
  std::string dotted = StringUtil::Join(path, ".");
  if (delta::ColumnMappingMode(snapshot.metadata) == "none") RequireMapping(name_, "RENAME COLUMN " + dotted);
  if (new_name.empty()) throw InvalidInputError("RENAME COLUMN " + dotted + " of table " + name_ + ": the new name is empty");
  ojson root = ParseOrderedJson(snapshot.metadata.schema_string);
  if (root.is_discarded() || !root.is_object() || !root.contains("fields")) {
    throw CorruptionError("Delta table " + name_ + ": its schemaString is not a struct schema");
  }
  int64_t at = -1;
  ojson* fields = ParentFields(root, path, &at);
  if (!fields || at < 0) throw CatalogError("Table " + name_ + " has no column " + dotted);
  for (size_t i = 0; i < fields->size(); i++) {
    if (static_cast<int64_t>(i) != at && StringUtil::CIEquals((*fields)[i].value("name", ""), new_name)) {
      throw CatalogError("Cannot rename column " + dotted + " of table " + name_ + " to " + new_name +
                         ": a column of that name already exists; rename or drop that one first");
    }
  }
  std::string old_name = (*fields)[at].value("name", "");
  (*fields)[at]["name"] = new_name;
  delta::Metadata metadata = snapshot.metadata;
  metadata.schema_string = root.dump();
  // partitionColumns name columns logically.
  if (path.size() == 1) {
    for (auto& p : metadata.partition_columns) {
      if (StringUtil::CIEquals(p, old_name)) p = new_name;
    }
  }
  std::vector<std::string> new_path = path;
  new_path.back() = new_name;
  delta::StringMap parameters;
  parameters["oldColumnPath"] = dotted;
  parameters["newColumnPath"] = StringUtil::Join(new_path, ".");
  CommitMetadata(std::move(metadata), "RENAME COLUMN", parameters);
}

void DeltaTable::DropColumns(const std::vector<std::vector<std::string>>& paths, bool if_exists) {
  std::vector<std::string> columns;
  columns.reserve(paths.size());
  for (auto& path : paths) columns.push_back(StringUtil::Join(path, "."));
  const delta::Snapshot& snapshot = state_->snapshot;
  if (delta::ColumnMappingMode(snapshot.metadata) == "none") {
    RequireMapping(name_, "DROP COLUMN " + StringUtil::Join(columns, ", "));
  }
  ojson root = ParseOrderedJson(snapshot.metadata.schema_string);
  if (root.is_discarded() || !root.is_object() || !root.contains("fields")) {
    throw CorruptionError("Delta table " + name_ + ": its schemaString is not a struct schema");
  }
  std::vector<std::string> dropped;
  for (size_t c = 0; c < paths.size(); c++) {
    const std::vector<std::string>& path = paths[c];
    const std::string& column = columns[c];
    int64_t at = -1;
    ojson* fields = ParentFields(root, path, &at);
    if (!fields || at < 0) {
      if (if_exists) continue;
      throw CatalogError("Table " + name_ + " has no column " + column + "; use DROP COLUMN IF EXISTS to ignore it");
    }
    if (path.size() == 1) {
      for (auto& p : snapshot.partition_columns()) {
        if (StringUtil::CIEquals(p, path[0])) {
          throw InvalidInputError("Cannot drop column " + column + " of table " + name_ +
                                  ": it is a partition column (Delta does not allow dropping one); rewrite the table "
                                  "without it: CREATE OR REPLACE TABLE ... PARTITIONED BY (...) AS SELECT ...");
        }
      }
    }
    if (fields->size() == 1) {
      throw InvalidInputError("Cannot drop column " + column + " of table " + name_ + ": it is the only " +
                              (path.size() == 1 ? "column of the table" : "field of its struct") +
                              "; drop the table (or the enclosing column) instead");
    }
    fields->erase(static_cast<size_t>(at));
    dropped.push_back(column);
  }
  if (dropped.empty()) return;
  delta::Metadata metadata = snapshot.metadata;
  metadata.schema_string = root.dump();
  delta::StringMap parameters;
  parameters["columns"] = "[" + StringUtil::Join(dropped, ",") + "]";
  CommitMetadata(std::move(metadata), "DROP COLUMNS", parameters);
}

void DeltaTable::CheckColumnMappingChange(delta::Metadata& metadata) const {
  const delta::Metadata& current = state_->snapshot.metadata;
  std::string before = delta::ColumnMappingMode(current);
  std::string after = delta::ColumnMappingModeOf(metadata.configuration);
  auto max_id = [](const delta::StringMap& configuration) {
    return DeltaTableProperty(configuration, delta::kColumnMappingMaxId).value_or("");
  };
  if (max_id(metadata.configuration) != max_id(current.configuration)) {
    throw InvalidInputError("Table " + name_ + ": delta.columnMapping.maxColumnId is kept by the table itself and cannot be "
                            "set; leave it out of SET TBLPROPERTIES");
  }
  if (before == after) return;
  if (before != "none" || after != "name") {
    throw NotImplementedError("Cannot change delta.columnMapping.mode of table " + name_ + " from '" + before + "' to '" +
                              after + "': on an existing table Delta allows only 'none' to 'name' (the files keep their "
                              "column names). For any other mode create a new table: CREATE TABLE ... TBLPROPERTIES "
                              "('delta.columnMapping.mode' = '" + after + "') AS SELECT * FROM " + name_);
  }
  // Upgrade: the data files already name each column by its current name,
  // which becomes its physical name; every field gets an id.
  std::vector<delta::DeltaColumn> schema = state_->snapshot.schema;
  Status s = delta::AssignColumnMapping(schema, metadata.configuration, [](const std::string& name, int64_t) { return name; });
  if (!s.ok()) throw InvalidInputError("Delta table " + name_ + ": " + s.message());
  auto text = delta::SchemaToString(schema);
  if (!text.ok()) throw InvalidInputError("Delta table " + name_ + ": " + text.status().message());
  metadata.schema_string = text.take();
}

void DeltaTable::SetProperties(const std::map<std::string, std::string>& properties) {
  delta::Metadata metadata = state_->snapshot.metadata;
  delta::StringMap parameters;
  for (auto& [k, v] : properties) metadata.configuration[k] = v;
  CheckColumnMappingChange(metadata);
  delta::AssignMaterializedColumnNames(metadata.configuration, nullptr, NewUuid);
  parameters["properties"] = JsonObjectOfStrings(properties);
  CommitMetadata(std::move(metadata), "SET TBLPROPERTIES", parameters);
}

void DeltaTable::UnsetProperties(const std::vector<std::string>& keys) {
  delta::Metadata metadata = state_->snapshot.metadata;
  std::string mode = delta::ColumnMappingMode(metadata);
  for (auto& key : keys) {
    if (mode != "none" && (StringUtil::CIEquals(key, delta::kColumnMappingMode) ||
                           StringUtil::CIEquals(key, delta::kColumnMappingMaxId))) {
      throw NotImplementedError("Cannot unset " + key + " of table " + name_ + ": the table uses column mapping (mode " +
                                mode + ") and its data files name columns by physical name; Delta cannot turn it off "
                                "without rewriting them. Copy the rows into a new table instead");
    }
  }
  for (auto& key : keys) {
    for (auto it = metadata.configuration.begin(); it != metadata.configuration.end(); ++it) {
      if (StringUtil::CIEquals(it->first, key)) {
        metadata.configuration.erase(it);
        break;
      }
    }
  }
  delta::StringMap parameters;
  parameters["propertyKeys"] = "[" + StringUtil::Join(keys, ",") + "]";
  CommitMetadata(std::move(metadata), "UNSET TBLPROPERTIES", parameters);
}

}  // namespace lakestream
