#include "storage/delta/delta_schema.hpp"

#include "storage/delta/column_mapping.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "common/date.hpp"
#include "common/delta_table_properties.hpp"
#include "common/decimal.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"

namespace lakestream::delta {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

Result<LogicalType> TypeFromJson(const json& t, const std::string& column);

Result<LogicalType> PrimitiveType(const std::string& name, const std::string& column) {
  if (name == "integer" || name == "short" || name == "byte") return LogicalType(TypeId::INTEGER);
  if (name == "long") return LogicalType(TypeId::BIGINT);
  if (name == "float" || name == "double") return LogicalType(TypeId::DOUBLE);
  if (name == "string" || name == "binary") return LogicalType(TypeId::VARCHAR);
  if (name == "boolean") return LogicalType(TypeId::BOOLEAN);
  if (name == "date") return LogicalType(TypeId::DATE);
  if (name == "timestamp") return LogicalType(TypeId::TIMESTAMP);
  if (name == "timestamp_ntz") return LogicalType(TypeId::TIMESTAMP_NTZ);
  if (name.rfind("decimal", 0) == 0) {
    int p = 10, s = 0;  // Spark's bare "decimal" is decimal(10,0)
    if (name != "decimal" && std::sscanf(name.c_str(), "decimal(%d,%d)", &p, &s) != 2 &&
        std::sscanf(name.c_str(), "decimal(%d, %d)", &p, &s) != 2)
      return Status::InvalidArgument("column " + column + ": malformed type '" + name + "'");
    if (p < 1 || p > 38 || s < 0 || s > p)
      return Status::NotSupported("column " + column + ": " + name + " is out of range (precision 1..38)");
    return LogicalType::Decimal(static_cast<uint8_t>(p), static_cast<uint8_t>(s));
  }
  return Status::NotSupported("column " + column + " has Delta type '" + name + "', which lakestream cannot read");
}

Result<LogicalType> StructFromJson(const json& t, const std::string& column) {
  const json* fields = t.contains("fields") ? &t["fields"] : nullptr;
  if (!fields || !fields->is_array()) return Status::InvalidArgument("column " + column + ": struct without fields");
  child_list_t children;
  for (const auto& f : *fields) {
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("type"))
      return Status::InvalidArgument("column " + column + ": malformed struct field");
    std::string name = f["name"].get<std::string>();
    auto child = TypeFromJson(f["type"], column + "." + name);
    if (!child.ok()) return child.status();
    children.emplace_back(name, child.take());
  }
  return LogicalType::Struct(std::move(children));
}

Result<LogicalType> TypeFromJson(const json& t, const std::string& column) {
  if (t.is_string()) return PrimitiveType(t.get<std::string>(), column);
  if (!t.is_object() || !t.contains("type") || !t["type"].is_string())
    return Status::InvalidArgument("column " + column + ": malformed type " + t.dump());
  std::string kind = t["type"].get<std::string>();
  if (kind == "struct") return StructFromJson(t, column);
  if (kind == "array") {
    if (!t.contains("elementType")) return Status::InvalidArgument("column " + column + ": array without elementType");
    auto e = TypeFromJson(t["elementType"], column + ".element");
    if (!e.ok()) return e.status();
    return LogicalType::List(e.value());
  }
  if (kind == "map") {
    if (!t.contains("keyType") || !t.contains("valueType"))
      return Status::InvalidArgument("column " + column + ": map without keyType/valueType");
    auto k = TypeFromJson(t["keyType"], column + ".key");
    if (!k.ok()) return k.status();
    auto v = TypeFromJson(t["valueType"], column + ".value");
    if (!v.ok()) return v.status();
    return LogicalType::Map(k.value(), v.value());
  }
  return Status::NotSupported("column " + column + " has Delta type '" + kind + "', which lakestream cannot read");
}

Result<ojson> TypeToJson(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN: return ojson("boolean");
    case TypeId::INTEGER: return ojson("integer");
    case TypeId::BIGINT: return ojson("long");
    case TypeId::DOUBLE: return ojson("double");
    case TypeId::VARCHAR: return ojson("string");
    case TypeId::DATE: return ojson("date");
    case TypeId::TIMESTAMP: return ojson("timestamp");
    case TypeId::TIMESTAMP_NTZ: return ojson("timestamp_ntz");
    case TypeId::DECIMAL:
      return ojson("decimal(" + std::to_string(type.width()) + "," + std::to_string(type.scale()) + ")");
    case TypeId::STRUCT: {
      ojson fields = ojson::array();
      for (const auto& [name, child] : type.children()) {
        auto c = TypeToJson(child);
        if (!c.ok()) return c.status();
        fields.push_back(ojson{{"name", name}, {"type", c.take()}, {"nullable", true}, {"metadata", ojson::object()}});
      }
      return ojson{{"type", "struct"}, {"fields", fields}};
    }
    case TypeId::LIST: {
      auto e = TypeToJson(type.ListChild());
      if (!e.ok()) return e.status();
      return ojson{{"type", "array"}, {"elementType", e.take()}, {"containsNull", true}};
    }
    case TypeId::MAP: {
      const auto& kv = type.ListChild().children();
      auto k = TypeToJson(kv[0].second);
      if (!k.ok()) return k.status();
      auto v = TypeToJson(kv[1].second);
      if (!v.ok()) return v.status();
      return ojson{{"type", "map"}, {"keyType", k.take()}, {"valueType", v.take()}, {"valueContainsNull", true}};
    }
    case TypeId::INTERVAL:
      // Spark refuses INTERVAL columns in Delta and Parquet tables too.
      return Status::NotSupported("type INTERVAL cannot be stored in a Delta table (Spark cannot store it either); "
                                  "store the parts instead, e.g. CAST(i AS VARCHAR) or a BIGINT of seconds");
    default: return Status::InvalidArgument("type " + type.ToString() + " has no Delta Lake equivalent");
  }
}

// The Delta name of a leaf type for delta.typeChanges: the file's own name
// ("short", "float") when `original` is one, else the engine's.
ojson LeafTypeName(const ojson& original, const LogicalType& type) {
  if (original.is_string()) return original;
  auto t = TypeToJson(type);
  return t.ok() ? t.take() : ojson(type.ToString());
}

// `type` as Delta type JSON, keeping what `original` (the stored JSON of
// `stored`) says where the type is unchanged: nested field metadata, Spark's
// "short"/"float" names. A leaf whose type changed (type widening) is
// recorded in `metadata` (that of the nearest enclosing struct field) under
// delta.typeChanges, with `path` ("element", "key", "value.element", ...) as
// its fieldPath when it lies inside an array or a map.
Result<ojson> EvolveTypeJson(const ojson& original, const LogicalType& stored, const LogicalType& type,
                             ojson& metadata, const std::string& path) {
  if (stored == type) return original;
  auto joined = [&](const char* step) { return path.empty() ? std::string(step) : path + "." + step; };
  if (stored.id() == TypeId::STRUCT && type.id() == TypeId::STRUCT && original.is_object() && original.contains("fields")) {
    ojson fields = ojson::array();
    for (const auto& [name, child] : type.children()) {
      const ojson* old_field = nullptr;
      int64_t at = -1;
      for (const auto& f : original["fields"]) {
        if (f.is_object() && f.value("name", "") == name) old_field = &f;
      }
      for (idx_t i = 0; i < stored.children().size(); i++) {
        if (stored.children()[i].first == name) at = static_cast<int64_t>(i);
      }
      if (!old_field || at < 0) {
        auto c = TypeToJson(child);
        if (!c.ok()) return c.status();
        fields.push_back(ojson{{"name", name}, {"type", c.take()}, {"nullable", true}, {"metadata", ojson::object()}});
        continue;
      }
      ojson field = *old_field;
      if (!field.contains("metadata") || !field["metadata"].is_object()) field["metadata"] = ojson::object();
      auto c = EvolveTypeJson(field["type"], stored.children()[at].second, child, field["metadata"], "");
      if (!c.ok()) return c.status();
      field["type"] = c.take();
      fields.push_back(std::move(field));
    }
    ojson out = original;
    out["fields"] = std::move(fields);
    return out;
  }
  if (stored.id() == TypeId::LIST && type.id() == TypeId::LIST && original.is_object() && original.contains("elementType")) {
    auto e = EvolveTypeJson(original["elementType"], stored.ListChild(), type.ListChild(), metadata, joined("element"));
    if (!e.ok()) return e.status();
    ojson out = original;
    out["elementType"] = e.take();
    return out;
  }
  if (stored.id() == TypeId::MAP && type.id() == TypeId::MAP && original.is_object() && original.contains("keyType") &&
      original.contains("valueType")) {
    const auto& a = stored.ListChild().children();
    const auto& b = type.ListChild().children();
    auto k = EvolveTypeJson(original["keyType"], a[0].second, b[0].second, metadata, joined("key"));
    if (!k.ok()) return k.status();
    auto v = EvolveTypeJson(original["valueType"], a[1].second, b[1].second, metadata, joined("value"));
    if (!v.ok()) return v.status();
    ojson out = original;
    out["keyType"] = k.take();
    out["valueType"] = v.take();
    return out;
  }
  auto t = TypeToJson(type);
  if (!t.ok()) return t.status();
  if (!stored.IsNested() && !type.IsNested()) {
    ojson change = {{"fromType", LeafTypeName(original, stored)}, {"toType", t.value()}};
    if (!path.empty()) change["fieldPath"] = path;
    if (!metadata.contains("delta.typeChanges") || !metadata["delta.typeChanges"].is_array()) {
      metadata["delta.typeChanges"] = ojson::array();
    }
    metadata["delta.typeChanges"].push_back(std::move(change));
  }
  return t;
}

bool ParseInt64(std::string_view s, int64_t& out) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

}  // namespace

// `type` (parsed from `json_type`) with each struct field named as the data
// files name it: its delta.columnMapping.physicalName when it has one.
static LogicalType PhysicalTypeOf(const json& json_type, const LogicalType& type) {
  if (!json_type.is_object()) return type;
  if (type.id() == TypeId::STRUCT && json_type.contains("fields") && json_type["fields"].is_array() &&
      json_type["fields"].size() == type.children().size()) {
    child_list_t fields;
    for (idx_t i = 0; i < type.children().size(); i++) {
      const json& f = json_type["fields"][i];
      std::string name = type.children()[i].first;
      if (f.is_object() && f.contains("metadata") && f["metadata"].is_object()) {
        auto it = f["metadata"].find("delta.columnMapping.physicalName");
        if (it != f["metadata"].end() && it->is_string()) name = it->get<std::string>();
      }
      fields.emplace_back(name, PhysicalTypeOf(f.contains("type") ? f["type"] : json(), type.children()[i].second));
    }
    return LogicalType::Struct(std::move(fields));
  }
  if (type.id() == TypeId::LIST && json_type.contains("elementType")) {
    return LogicalType::List(PhysicalTypeOf(json_type["elementType"], type.ListChild()));
  }
  if (type.id() == TypeId::MAP && json_type.contains("keyType") && json_type.contains("valueType")) {
    const auto& kv = type.ListChild().children();
    return LogicalType::Map(PhysicalTypeOf(json_type["keyType"], kv[0].second),
                            PhysicalTypeOf(json_type["valueType"], kv[1].second));
  }
  return type;
}

LogicalType PhysicalType(const DeltaColumn& column) {
  if (!column.type.IsNested() || column.delta_type.empty()) return column.type;
  json parsed = ParseJson(column.delta_type);
  return parsed.is_discarded() ? column.type : PhysicalTypeOf(parsed, column.type);
}

Result<std::vector<DeltaColumn>> ParseSchemaString(const std::string& schema_string) {
  std::vector<DeltaColumn> columns;
  if (schema_string.empty()) return columns;
  json j = ParseJson(schema_string);
  if (j.is_discarded()) return Status::InvalidArgument("schemaString is not valid JSON");
  if (!j.is_object() || j.value("type", "") != "struct" || !j.contains("fields") || !j["fields"].is_array())
    return Status::InvalidArgument("schemaString is not a struct schema");
  for (const auto& f : j["fields"]) {
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("type"))
      return Status::InvalidArgument("schemaString has a malformed field: " + f.dump());
    DeltaColumn c;
    c.name = f["name"].get<std::string>();
    auto t = TypeFromJson(f["type"], c.name);
    if (!t.ok()) return t.status();
    c.type = t.take();
    c.nullable = f.contains("nullable") && f["nullable"].is_boolean() ? f["nullable"].get<bool>() : true;
    c.metadata_json = f.contains("metadata") && f["metadata"].is_object() ? f["metadata"].dump() : "{}";
    c.delta_type = f["type"].dump();
    columns.push_back(std::move(c));
  }
  return columns;
}

Result<std::string> SchemaToString(const std::vector<DeltaColumn>& columns) {
  ojson fields = ojson::array();
  for (const auto& c : columns) {
    ojson metadata = ParseOrderedJson(c.metadata_json.empty() ? "{}" : c.metadata_json);
    if (metadata.is_discarded() || !metadata.is_object()) metadata = ojson::object();
    ojson type;
    bool kept = false;
    if (!c.delta_type.empty()) {
      // Keep the original type JSON, evolved where the engine type changed.
      ojson original = ParseOrderedJson(c.delta_type);
      if (!original.is_discarded()) {
        auto stored = TypeFromJson(ParseJson(c.delta_type), c.name);
        if (stored.ok()) {
          auto evolved = EvolveTypeJson(original, stored.value(), c.type, metadata, "");
          if (!evolved.ok()) return Status::InvalidArgument("column " + c.name + ": " + evolved.status().message());
          type = evolved.take();
          kept = true;
        }
      }
    }
    if (!kept) {
      auto t = TypeToJson(c.type);
      if (!t.ok()) return Status::InvalidArgument("column " + c.name + ": " + t.status().message());
      type = t.take();
    }
    fields.push_back(ojson{{"name", c.name}, {"type", type}, {"nullable", c.nullable}, {"metadata", metadata}});
  }
  std::string text = ojson{{"type", "struct"}, {"fields", fields}}.dump();
  // A schema no reader could parse back (ours included) is never written.
  if (JsonDepthExceededAt(text) != std::string::npos)
    return Status::InvalidArgument("the schema nests types too deeply: its JSON would be more than " +
                                   std::to_string(kMaxJsonDepth) + " levels deep (each STRUCT takes three, each ARRAY "
                                   "or MAP one or two), which Delta readers refuse; flatten the nested types");
  return text;
}

Result<Value> ParsePartitionValue(const std::optional<std::string>& text, const LogicalType& type) {
  if (!text || text->empty()) return Value(type);
  const std::string& s = *text;
  auto bad = [&]() {
    return Status::InvalidArgument("partition value '" + s + "' is not a valid " + type.ToString());
  };
  switch (type.id()) {
    case TypeId::VARCHAR: return Value::VARCHAR(s);
    case TypeId::BOOLEAN: {
      std::string l;
      for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (l == "true") return Value::BOOLEAN(true);
      if (l == "false") return Value::BOOLEAN(false);
      return bad();
    }
    case TypeId::INTEGER: {
      int64_t v;
      if (!ParseInt64(s, v) || v < INT32_MIN || v > INT32_MAX) return bad();
      return Value::INTEGER(static_cast<int32_t>(v));
    }
    case TypeId::BIGINT: {
      int64_t v;
      if (!ParseInt64(s, v)) return bad();
      return Value::BIGINT(v);
    }
    case TypeId::DOUBLE: {
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size()) return bad();
      return Value::DOUBLE(d);
    }
    case TypeId::DECIMAL: {
      hugeint_t v;
      if (!Decimal::TryParse(s, type.width(), type.scale(), v)) return bad();
      return Value::DECIMAL(v, type.width(), type.scale());
    }
    case TypeId::DATE: {
      date_t d;
      if (!Date::TryParse(s, d)) return bad();
      return Value::DATE(d);
    }
    case TypeId::TIMESTAMP: {
      timestamp_t t;
      if (!Timestamp::TryParse(s, t)) return bad();
      return Value::TIMESTAMP(t);
    }
    case TypeId::TIMESTAMP_NTZ: {
      timestamp_t t;
      if (!Timestamp::TryParseNtz(s, t)) return bad();
      return Value::TIMESTAMP_NTZ(t);
    }
    default: return Status::NotSupported("partition column of type " + type.ToString() + " is not supported");
  }
}

static bool HasTimestampNtz(const LogicalType& type) {
  if (type.id() == TypeId::TIMESTAMP_NTZ) return true;
  for (const auto& child : type.children()) {
    if (HasTimestampNtz(child.second)) return true;
  }
  return false;
}

// Type changes are recorded in field metadata at any depth of the schema.
static bool HasTypeChanges(const DeltaColumn& column) {
  return column.metadata_json.find("delta.typeChanges") != std::string::npos ||
         column.delta_type.find("delta.typeChanges") != std::string::npos;
}

bool AddRequiredFeatures(const std::vector<DeltaColumn>& columns, StringMap& configuration, Protocol& protocol) {
  std::vector<std::string> wanted = DeltaFeaturesRequestedBy(configuration);
  // delta.feature.<name> asks for a protocol change; it is not a property
  // the table keeps (as in Delta).
  for (auto it = configuration.begin(); it != configuration.end();) {
    if (StringUtil::StartsWith(StringUtil::Lower(it->first), "delta.feature.")) it = configuration.erase(it);
    else ++it;
  }
  bool ntz = false, type_changes = false;
  for (const auto& c : columns) {
    ntz = ntz || HasTimestampNtz(c.type);
    type_changes = type_changes || HasTypeChanges(c);
  }
  // Column mapping is raised on its own (AddColumnMappingFeature): at
  // writer versions below 7 it is reader 2 / writer 5, not a listed feature.
  bool changed = ColumnMappingModeOf(configuration) != "none" && AddColumnMappingFeature(protocol);
  if (ntz) wanted.emplace_back("timestampNtz");
  if (type_changes) wanted.emplace_back("typeWidening");
  // Features the protocol already implies (legacy versions) or lists need no change.
  auto present = [&](const std::string& feature) {
    if (protocol.min_writer_version >= 7) return protocol.ListsWriterFeature(feature);
    static const std::pair<const char*, int32_t> kImplied[] = {
        {"appendOnly", 2}, {"invariants", 2}, {"checkConstraints", 3}, {"changeDataFeed", 4},
        {"generatedColumns", 4}, {"columnMapping", 5}, {"identityColumns", 6}};
    for (auto& [name, version] : kImplied) {
      if (feature == name) return protocol.min_writer_version >= version;
    }
    return false;
  };
  std::vector<const DeltaFeature*> missing;
  for (const auto& name : wanted) {
    const DeltaFeature* feature = FindDeltaFeature(name);
    if (feature && !present(name)) missing.push_back(feature);
  }
  if (missing.empty()) return changed;
  bool reader_feature = std::any_of(missing.begin(), missing.end(), [](auto* f) { return f->reader_writer; });
  if (reader_feature && protocol.min_reader_version < 3) {
    // Reader version 2 is column mapping; version 1 implies nothing.
    if (protocol.min_reader_version == 2) protocol.AddReaderFeature("columnMapping");
    protocol.min_reader_version = 3;
    if (!protocol.reader_features) protocol.reader_features.emplace();
  }
  if (protocol.min_writer_version < 7) {
    std::vector<std::string> implied;
    int32_t w = protocol.min_writer_version;
    if (w >= 2) implied.insert(implied.end(), {"appendOnly", "invariants"});
    if (w >= 3) implied.push_back("checkConstraints");
    if (w >= 4) implied.insert(implied.end(), {"changeDataFeed", "generatedColumns"});
    if (w >= 5) implied.push_back("columnMapping");
    if (w >= 6) implied.push_back("identityColumns");
    protocol.min_writer_version = 7;
    for (const auto& f : implied) protocol.AddWriterFeature(f);
  }
  for (const DeltaFeature* feature : missing) {
    // Reader-writer features go in both lists; a reader version below 3 has
    // no list (and then no reader feature is missing).
    if (feature->reader_writer && protocol.min_reader_version >= 3) protocol.AddReaderFeature(feature->name);
    protocol.AddWriterFeature(feature->name);
    // Liquid clustering and row tracking keep their state in domains.
    if (std::string(feature->name) == "clustering" || std::string(feature->name) == "rowTracking") {
      protocol.AddWriterFeature("domainMetadata");
    }
  }
  return true;
}

std::optional<std::string> FormatPartitionValue(const Value& value) {
  if (value.IsNull()) return std::nullopt;
  switch (value.type().id()) {
    case TypeId::VARCHAR: return value.GetString();
    case TypeId::BOOLEAN: return std::string(value.GetBoolean() ? "true" : "false");
    case TypeId::INTEGER: return std::to_string(value.GetInteger());
    case TypeId::BIGINT: return std::to_string(value.GetBigint());
    case TypeId::DOUBLE: {
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof(buf), value.GetDouble());
      return std::string(buf, r.ptr);
    }
    case TypeId::DECIMAL: return Decimal::ToString(value.GetHugeint(), value.type().scale());
    case TypeId::DATE: return Date::ToString(value.GetDate());
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return Timestamp::ToString(value.GetTimestamp());
    default: return value.ToString();
  }
}

}  // namespace lakestream::delta
