// JSON text functions (Spark semantics):
//
//   get_json_object(json, path)  path `$`, `.key`, `['key']`, `[n]`; a string is
//                                returned unquoted, anything else as compact
//                                JSON; NULL for a missing path, JSON null or
//                                malformed input. Databricks' `raw:a.b` is this.
//   from_json(json, schema)      schema as DDL ('a INT, b STRUCT<c: STRING>') or a
//                                type (ARRAY<INT>, MAP<STRING, INT>, STRUCT<...>);
//                                a field of the wrong JSON type is NULL, malformed
//                                input gives NULL
//   schema_of_json(json)         the DDL of a constant JSON text as Spark infers
//                                it: integers BIGINT, other numbers DOUBLE, object
//                                fields sorted by name
//
// A document nested more than kMaxJsonDepth (1000) levels deep is an error
// naming the function, not NULL (common/json_parse.hpp).
#include <nlohmann/json.hpp>

#include <algorithm>

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "function/scalar/nested.hpp"
#include "parser/parser.hpp"

namespace lakestream {
namespace {

using json = nlohmann::ordered_json;

struct PathStep {
  bool is_index = false;
  std::string key;
  idx_t index = 0;
};

// Parses a JSONPath of get_json_object; false when it is not one.
bool ParsePath(const std::string& path, std::vector<PathStep>& steps) {
  if (path.empty() || path[0] != '$') return false;
  size_t i = 1;
  while (i < path.size()) {
    PathStep step;
    if (path[i] == '.') {
      size_t j = ++i;
      while (j < path.size() && path[j] != '.' && path[j] != '[') j++;
      if (j == i) return false;
      step.key = path.substr(i, j - i);
      i = j;
    } else if (path[i] == '[') {
      i++;
      if (i < path.size() && (path[i] == '\'' || path[i] == '"')) {
        char quote = path[i];
        size_t end = path.find(quote, i + 1);
        if (end == std::string::npos || end + 1 >= path.size() || path[end + 1] != ']') return false;
        step.key = path.substr(i + 1, end - i - 1);
        i = end + 2;
      } else {
        size_t end = path.find(']', i);
        if (end == std::string::npos || end == i) return false;
        std::string digits = path.substr(i, end - i);
        if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 9) {
          return false;  // [*] and expressions: not supported, NULL as Spark gives for a bad path
        }
        step.is_index = true;
        step.index = std::stoul(digits);
        i = end + 1;
      }
    } else {
      return false;
    }
    steps.push_back(std::move(step));
  }
  return true;
}

const json* FollowPath(const json& root, const std::vector<PathStep>& steps) {
  const json* node = &root;
  for (auto& step : steps) {
    if (step.is_index) {
      if (!node->is_array() || step.index >= node->size()) return nullptr;
      node = &(*node)[step.index];
    } else {
      if (!node->is_object()) return nullptr;
      auto it = node->find(step.key);
      if (it == node->end()) return nullptr;
      node = &*it;
    }
  }
  return node;
}

// The document a JSON function reads: discarded when malformed (the
// function's NULL, as in Spark); deeper than kMaxJsonDepth, an error naming
// the function, since a NULL would hide that the input was refused.
json ReadDocument(std::string_view text, const char* function) {
  JsonError error;
  json doc = ParseOrderedJson(text, &error);
  if (error.too_deep) throw InvalidInputError(std::string(function) + "(): " + error.message);
  return doc;
}

std::string JsonText(const json& node) { return node.is_string() ? node.get<std::string>() : node.dump(); }

BoundScalarFunction BindGetJsonObject(const ScalarBindInput& input) {
  const char* accepted = "get_json_object(json STRING, path STRING)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (t.id() != TypeId::VARCHAR && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::VARCHAR,
               [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                 const auto* docs = args.data[0].GetData<string_t>();
                 const auto* paths = args.data[1].GetData<string_t>();
                 auto* out = result.GetData<string_t>();
                 std::vector<PathStep> steps;
                 std::string last_path;
                 bool path_ok = false;
                 for (idx_t i = 0; i < count; i++) {
                   bool valid = false;
                   if (args.data[0].IsValid(i) && args.data[1].IsValid(i)) {
                     if (i == 0 || paths[i] != last_path) {
                       last_path = std::string(paths[i]);
                       steps.clear();
                       path_ok = ParsePath(last_path, steps);
                     }
                     json doc = ReadDocument(docs[i], "get_json_object");
                     const json* node = path_ok && !doc.is_discarded() ? FollowPath(doc, steps) : nullptr;
                     if (node && !node->is_null()) {
                       out[i] = result.AddString(JsonText(*node));
                       valid = true;
                     }
                   }
                   result.SetValid(i, valid);
                 }
               });
}

// The value of `node` as `type`; NULL where the JSON does not fit the type.
Value JsonAs(const json& node, const LogicalType& type) {
  if (node.is_null()) return Value(type);
  switch (type.id()) {
    case TypeId::VARCHAR: return Value::VARCHAR(JsonText(node));
    case TypeId::BOOLEAN: return node.is_boolean() ? Value::BOOLEAN(node.get<bool>()) : Value(type);
    case TypeId::INTEGER:
    case TypeId::BIGINT:
    case TypeId::DECIMAL:
    case TypeId::DOUBLE: {
      if (!node.is_number()) return Value(type);
      Value v = node.is_number_float() ? Value::DOUBLE(node.get<double>())
                : node.is_number_unsigned() && node.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)
                    ? Value::DOUBLE(static_cast<double>(node.get<uint64_t>()))
                    : Value::BIGINT(node.get<int64_t>());
      if (node.is_number_float() && type.IsIntegral()) return Value(type);  // 1.5 is not an INT (Spark)
      Value out;
      return v.TryCastAs(type, out) ? out : Value(type);
    }
    case TypeId::DATE:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: {
      if (!node.is_string()) return Value(type);
      Value out;
      return Value::VARCHAR(node.get<std::string>()).TryCastAs(type, out) ? out : Value(type);
    }
    case TypeId::STRUCT: {
      if (!node.is_object()) return Value(type);
      std::vector<Value> fields;
      for (auto& [name, field_type] : type.children()) {
        auto it = node.find(name);
        fields.push_back(it == node.end() ? Value(field_type) : JsonAs(*it, field_type));
      }
      return Value::STRUCT(type, std::move(fields));
    }
    case TypeId::LIST: {
      if (!node.is_array()) return Value(type);
      std::vector<Value> elements;
      for (auto& e : node) elements.push_back(JsonAs(e, type.ListChild()));
      return Value::LIST(type, std::move(elements));
    }
    case TypeId::MAP: {
      if (!node.is_object()) return Value(type);
      const LogicalType& entry = type.ListChild();
      std::vector<Value> entries;
      for (auto it = node.begin(); it != node.end(); ++it) {
        Value key;
        if (!Value::VARCHAR(it.key()).TryCastAs(entry.children()[0].second, key)) return Value(type);
        entries.push_back(Value::STRUCT(entry, {key, JsonAs(it.value(), entry.children()[1].second)}));
      }
      return Value::LIST(type, std::move(entries));
    }
    default: return Value(type);
  }
}

// 'a INT, b STRING' (DDL) or a type name; BinderError naming the schema when it does not parse.
LogicalType ParseSchema(const std::string& schema) {
  std::string head = StringUtil::Lower(schema);
  head.erase(0, head.find_first_not_of(" \t\n"));
  bool is_type = head.rfind("struct", 0) == 0 || head.rfind("array", 0) == 0 || head.rfind("map", 0) == 0;
  std::string type_text = is_type ? schema : "STRUCT<" + schema + ">";
  try {
    auto expr = Parser::ParseExpression("CAST(NULL AS " + type_text + ")");
    if (expr->type != ExpressionType::CAST) throw ParserError("not a type");
    return expr->cast_type;
  } catch (const Exception&) {
    throw BinderError("from_json(): cannot read the schema '" + schema +
                      "'; write it as DDL ('a INT, b STRUCT<c: STRING>') or a type (ARRAY<INT>, MAP<STRING, INT>)");
  }
}

BoundScalarFunction BindFromJson(const ScalarBindInput& input) {
  const char* accepted = "from_json(json STRING, schema STRING)";
  CheckArgumentCount(input, 2, 3, accepted);
  if (input.argument_types[0].id() != TypeId::VARCHAR && input.argument_types[0].id() != TypeId::SQLNULL) {
    ThrowArgumentError(input, accepted);
  }
  const std::string* schema = ConstantString(input, 1);
  if (!schema) throw BinderError("from_json(): the schema must be a constant string, e.g. from_json(s, 'a INT, b STRING')");
  LogicalType type = ParseSchema(*schema);
  std::vector<LogicalType> args{TypeId::VARCHAR, TypeId::VARCHAR};
  if (input.argument_types.size() == 3) args.push_back(input.argument_types[2]);  // options map: accepted, unused
  return Bound(std::move(args), type, RowValueKernel([type](const std::vector<Value>& a) {
                 const std::string& text = a[0].GetString();
                 json doc = ReadDocument(text, "from_json");
                 if (doc.is_discarded()) return Value(type);
                 return JsonAs(doc, type);
               }));
}

// json_tuple's field: the top-level field `key` of a JSON object as text
// (strings unquoted), NULL when missing, null or not an object.
BoundScalarFunction BindJsonTupleField(const ScalarBindInput& input) {
  const char* accepted = "json_tuple(json STRING, field STRING, ...)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (t.id() != TypeId::VARCHAR && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::VARCHAR, RowValueKernel([](const std::vector<Value>& a) {
                 const std::string& text = a[0].GetString();
                 json doc = ReadDocument(text, "json_tuple");
                 if (doc.is_discarded() || !doc.is_object()) return Value(LogicalType(TypeId::VARCHAR));
                 auto it = doc.find(a[1].GetString());
                 if (it == doc.end() || it->is_null()) return Value(LogicalType(TypeId::VARCHAR));
                 return Value::VARCHAR(JsonText(*it));
               }));
}

LogicalType InferJsonType(const json& node) {
  switch (node.type()) {
    case json::value_t::boolean: return TypeId::BOOLEAN;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return TypeId::BIGINT;
    case json::value_t::number_float: return TypeId::DOUBLE;
    case json::value_t::array: {
      LogicalType element = TypeId::SQLNULL;
      for (auto& e : node) {
        LogicalType t = InferJsonType(e);
        LogicalType merged = MaxLogicalType(element, t);
        element = merged.id() == TypeId::INVALID ? LogicalType(TypeId::VARCHAR) : merged;
      }
      return LogicalType::List(element.id() == TypeId::SQLNULL ? LogicalType(TypeId::VARCHAR) : element);
    }
    case json::value_t::object: {
      child_list_t fields;
      for (auto it = node.begin(); it != node.end(); ++it) fields.emplace_back(it.key(), InferJsonType(it.value()));
      std::sort(fields.begin(), fields.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
      return LogicalType::Struct(std::move(fields));
    }
    default: return TypeId::VARCHAR;  // strings and null (Spark infers STRING for a null field)
  }
}

// Spark's DDL spelling: STRUCT<a: BIGINT, b: ARRAY<STRING>>.
std::string SparkTypeName(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::VARCHAR: return "STRING";
    case TypeId::LIST: return "ARRAY<" + SparkTypeName(type.ListChild()) + ">";
    case TypeId::STRUCT: {
      std::string s = "STRUCT<";
      for (size_t i = 0; i < type.children().size(); i++) {
        if (i) s += ", ";
        s += type.children()[i].first + ": " + SparkTypeName(type.children()[i].second);
      }
      return s + ">";
    }
    default: return type.ToString();
  }
}

BoundScalarFunction BindSchemaOfJson(const ScalarBindInput& input) {
  const char* accepted = "schema_of_json(json STRING constant)";
  CheckArgumentCount(input, 1, 2, accepted);
  const std::string* text = ConstantString(input, 0);
  if (!text) throw BinderError("schema_of_json(): the JSON must be a constant string (Spark requires a foldable argument)");
  json doc = ReadDocument(*text, "schema_of_json");
  if (doc.is_discarded()) throw InvalidInputError("schema_of_json(): '" + *text + "' is not valid JSON");
  std::string schema = SparkTypeName(InferJsonType(doc));
  std::vector<LogicalType> args(input.argument_types.begin(), input.argument_types.end());
  return Bound(std::move(args), TypeId::VARCHAR, [schema](DataChunk&, Vector& result, idx_t count, const FunctionContext&) {
    result.FillString(schema, count);
  });
}

}  // namespace

void RegisterJsonFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("get_json_object", BindGetJsonObject);
  registry.Register("from_json", BindFromJson);
  registry.Register("schema_of_json", BindSchemaOfJson);
  registry.Register("json_tuple_field", BindJsonTupleField);
}

}  // namespace lakestream
