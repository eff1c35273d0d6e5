#include "storage/delta/column_mapping.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

#include "common/delta_table_properties.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"

namespace lakestream::delta {

using ojson = nlohmann::ordered_json;

namespace {

constexpr const char* kId = "delta.columnMapping.id";
constexpr const char* kPhysicalName = "delta.columnMapping.physicalName";

ParquetField FieldOf(const std::string& name, const nlohmann::json& metadata, const nlohmann::json& type, bool ids);

// The children of a type's Parquet element: STRUCT fields, the LIST element,
// the MAP key and value (those keep their standard names).
void ChildrenOf(const nlohmann::json& type, bool ids, ParquetField& out) {
  if (!type.is_object() || !type.contains("type") || !type["type"].is_string()) return;
  std::string kind = type["type"].get<std::string>();
  if (kind == "struct" && type.contains("fields") && type["fields"].is_array()) {
    for (const auto& f : type["fields"]) {
      if (!f.is_object()) continue;
      out.children.push_back(FieldOf(f.value("name", ""), f.value("metadata", nlohmann::json::object()),
                                     f.value("type", nlohmann::json()), ids));
    }
  } else if (kind == "array" && type.contains("elementType")) {
    ParquetField element;
    ChildrenOf(type["elementType"], ids, element);
    out.children.push_back(std::move(element));
  } else if (kind == "map" && type.contains("keyType") && type.contains("valueType")) {
    ParquetField key, value;
    ChildrenOf(type["keyType"], ids, key);
    ChildrenOf(type["valueType"], ids, value);
    out.children.push_back(std::move(key));
    out.children.push_back(std::move(value));
  }
}

ParquetField FieldOf(const std::string& name, const nlohmann::json& metadata, const nlohmann::json& type, bool ids) {
  ParquetField field;
  field.name = name;
  if (metadata.is_object()) {
    auto physical = metadata.find(kPhysicalName);
    if (physical != metadata.end() && physical->is_string()) field.name = physical->get<std::string>();
    auto id = metadata.find(kId);
    if (ids && id != metadata.end() && id->is_number_integer()) {
      int64_t v = id->get<int64_t>();
      if (v >= 0 && v <= std::numeric_limits<int32_t>::max()) field.field_id = static_cast<int32_t>(v);
    }
  }
  ChildrenOf(type, ids, field);
  return field;
}

// Visits every field object of a Delta type, depth first.
template <typename Fn>
void ForEachField(ojson& type, Fn&& fn) {
  if (!type.is_object() || !type.contains("type") || !type["type"].is_string()) return;
  std::string kind = type["type"].get<std::string>();
  if (kind == "struct" && type.contains("fields") && type["fields"].is_array()) {
    for (auto& f : type["fields"]) {
      if (!f.is_object()) continue;
      fn(f);
      if (f.contains("type")) ForEachField(f["type"], fn);
    }
  } else if (kind == "array" && type.contains("elementType")) {
    ForEachField(type["elementType"], fn);
  } else if (kind == "map" && type.contains("keyType") && type.contains("valueType")) {
    ForEachField(type["keyType"], fn);
    ForEachField(type["valueType"], fn);
  }
}

}  // namespace

std::string ColumnMappingModeOf(const StringMap& configuration) {
  auto mode = DeltaTableProperty(configuration, kColumnMappingMode);
  return mode ? StringUtil::Lower(*mode) : "none";
}

ParquetField MappedParquetField(const DeltaColumn& column, const std::string& mode) {
  auto metadata = ParseJson(column.metadata_json);
  auto type = column.delta_type.empty() ? nlohmann::json() : ParseJson(column.delta_type);
  if (type.is_discarded()) type = nlohmann::json();
  return FieldOf(column.name, metadata.is_discarded() ? nlohmann::json() : metadata, type, mode == "id");
}

std::string PhysicalNameOf(const DeltaColumn& column) {
  auto metadata = ParseJson(column.metadata_json);
  if (metadata.is_object()) {
    auto it = metadata.find(kPhysicalName);
    if (it != metadata.end() && it->is_string()) return it->get<std::string>();
  }
  return column.name;
}

Status AssignColumnMapping(std::vector<DeltaColumn>& schema, StringMap& configuration,
                           const std::function<std::string(const std::string&, int64_t)>& new_name) {
  auto text = SchemaToString(schema);
  if (!text.ok()) return text.status();
  ojson root = ParseOrderedJson(text.value());
  int64_t max_id = 0;
  std::string configured_key = kColumnMappingMaxId;
  for (const auto& [key, value] : configuration) {
    if (!StringUtil::CIEquals(key, kColumnMappingMaxId)) continue;
    configured_key = key;
    char* end = nullptr;
    long long v = std::strtoll(value.c_str(), &end, 10);
    if (!value.empty() && *end == '\0' && v > 0) max_id = v;
  }
  // Ids in use count too: a table whose maxColumnId lags its schema must not
  // hand out an id twice.
  ForEachField(root, [&](ojson& f) {
    if (f.contains("metadata") && f["metadata"].is_object() && f["metadata"].contains(kId) &&
        f["metadata"][kId].is_number_integer())
      max_id = std::max<int64_t>(max_id, f["metadata"][kId].get<int64_t>());
  });
  ForEachField(root, [&](ojson& f) {
    if (!f.contains("metadata") || !f["metadata"].is_object()) f["metadata"] = ojson::object();
    ojson& md = f["metadata"];
    if (!md.contains(kId) || !md[kId].is_number_integer()) md[kId] = ++max_id;
    if (!md.contains(kPhysicalName) || !md[kPhysicalName].is_string()) {
      md[kPhysicalName] = new_name(f.value("name", ""), md[kId].get<int64_t>());
    }
  });
  auto parsed = ParseSchemaString(root.dump());
  if (!parsed.ok()) return parsed.status();
  schema = parsed.take();
  configuration[configured_key] = std::to_string(max_id);
  return Status::OK();
}

bool AddColumnMappingFeature(Protocol& protocol) {
  Protocol before = protocol;
  if (protocol.min_reader_version >= 3) protocol.AddReaderFeature("columnMapping");
  else protocol.min_reader_version = std::max(protocol.min_reader_version, 2);
  if (protocol.min_writer_version >= 7) protocol.AddWriterFeature("columnMapping");
  else protocol.min_writer_version = std::max(protocol.min_writer_version, 5);
  return !(protocol == before);
}

}  // namespace lakestream::delta
