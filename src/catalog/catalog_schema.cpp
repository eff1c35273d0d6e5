// Schemas of the catalog (catalog.hpp says how an object's key names its schema).
#include <algorithm>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

bool IsDefaultSchemaName(const std::string& name) {
  return StringUtil::CIEquals(name, kDefaultSchema) || StringUtil::CIEquals(name, "default") ||
         StringUtil::CIEquals(name, "public");
}

bool Catalog::CreateSchema(const std::string& name, bool if_not_exists) {
  if (FindSchema(name)) {
    if (if_not_exists) return false;
    throw CatalogError("Schema with name " + name + " already exists! Use CREATE SCHEMA IF NOT EXISTS " + name +
                       ", or list the schemas with SHOW SCHEMAS.");
  }
  if (name.empty() || name.find('.') != std::string::npos) {
    throw CatalogError("Cannot create schema \"" + name + "\": a schema name must be non-empty and hold no '.'; pick another name.");
  }
  std::string prefix = StringUtil::Lower(name) + ".";
  std::vector<std::string> clashing;
  auto check = [&](const std::vector<std::string>& names) {
    for (auto& n : names) {
      if (StringUtil::StartsWith(StringUtil::Lower(n), prefix)) clashing.push_back(n);
    }
  };
  check(TableNames());
  check(ViewNames());
  check(StreamNames());
  check(SinkNames());
  if (!clashing.empty()) {
    throw CatalogError("Cannot create schema " + name + ": objects of schema main are named \"" + StringUtil::Join(clashing, ", ") +
                       "\", which would read as objects of schema " + name + "; rename them first (ALTER TABLE ... RENAME TO), "
                       "or pick another schema name.");
  }
  schemas_[StringUtil::Lower(name)] = name;
  return true;
}

void Catalog::DropSchema(const std::string& name) {
  schemas_.erase(StringUtil::Lower(name));
}

std::optional<std::string> Catalog::FindSchema(const std::string& name) const {
  if (IsDefaultSchemaName(name)) return std::string(kDefaultSchema);
  auto it = schemas_.find(StringUtil::Lower(name));
  if (it == schemas_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Catalog::SchemaNames() const {
  std::vector<std::string> names{kDefaultSchema};
  for (auto& [key, spelling] : schemas_) names.push_back(spelling);
  return names;
}

std::vector<std::string> Catalog::StoredSchemaNames() const {
  std::vector<std::string> names;
  for (auto& [key, spelling] : schemas_) names.push_back(spelling);
  return names;
}

std::string Catalog::ObjectKey(const std::string& schema, const std::string& name) const {
  if (IsDefaultSchemaName(schema)) return name;
  std::optional<std::string> spelling = FindSchema(schema);
  return (spelling ? *spelling : schema) + "." + name;
}

std::string Catalog::SchemaOfKey(const std::string& key) const {
  size_t dot = key.find('.');
  if (dot == std::string::npos) return kDefaultSchema;
  auto it = schemas_.find(StringUtil::Lower(key.substr(0, dot)));
  return it == schemas_.end() ? std::string(kDefaultSchema) : it->second;
}

std::string Catalog::NameOfKey(const std::string& key) const {
  std::string schema = SchemaOfKey(key);
  return schema == kDefaultSchema ? key : key.substr(schema.size() + 1);
}

std::vector<std::string> Catalog::DescribeObjectsIn(const std::string& schema) const {
  std::vector<std::string> objects;
  auto add = [&](const char* kind, const std::vector<std::string>& names) {
    for (auto& n : names) {
      if (StringUtil::CIEquals(SchemaOfKey(n), schema)) objects.push_back(std::string(kind) + " " + n);
    }
  };
  add("sink", SinkNames());
  add("stream", StreamNames());
  add("view", ViewNames());
  for (auto& n : TableNames()) {
    const auto& entry = tables_.at(StringUtil::Lower(n));
    if (StringUtil::CIEquals(SchemaOfKey(n), schema)) objects.push_back(std::string(TableKindToString(entry->kind)) + " " + n);
  }
  return objects;
}

}  // namespace lakestream
