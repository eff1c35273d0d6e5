// DuckDB's json extension names beside json_functions.cpp's Spark set. There
// is no JSON type: JSON text is VARCHAR.
//
//   json_extract(j, path)        the JSON text at path (a string stays quoted);
//                                NULL when the path is missing
//   json_extract_string(j, path) the same as text: a string unquoted, JSON null
//                                as NULL (the ->> operator; j->'a' is json_extract)
//   json_value(j, path)          the same for scalars only (NULL for objects/arrays)
//   json_array_length(j[, path]) BIGINT, 0 for a non-array
//   json_keys(j[, path])         VARCHAR[] of an object's keys in order, [] otherwise
//   json_type(j[, path])         OBJECT ARRAY VARCHAR BIGINT UBIGINT DOUBLE BOOLEAN NULL
//   json_valid(j)                BOOLEAN
//   json_object(k, v, ...)       object text; json_array(v, ...) array text
//
// Paths are DuckDB's: '$' then .key, ."quoted key", [n] (0-based) or [#-n]
// (from the end); a path without '$' is a key ('a' means '$.a'). Malformed
// JSON is an InvalidInputError naming the function (DuckDB), except in
// json_valid.
#include <nlohmann/json.hpp>

#include "common/json_parse.hpp"
#include "common/json_writer.hpp"
#include "function/scalar/duckdb_functions.hpp"
#include "function/scalar/nested.hpp"

namespace lakestream {
namespace {

using json = nlohmann::ordered_json;

struct Step {
  bool is_index = false;
  bool from_end = false;
  std::string key;
  int64_t index = 0;
};

std::vector<Step> ParsePath(const std::string& function, const std::string& path) {
  std::vector<Step> steps;
  if (path.empty() || path[0] != '$') {
    steps.push_back({false, false, path, 0});
    return steps;
  }
  auto bad = [&](const std::string& why) {
    return InvalidInputError(function + "(): invalid JSON path '" + path + "': " + why + " (write e.g. '$.a.b[0]')");
  };
  for (size_t i = 1; i < path.size();) {
    if (path[i] == '.') {
      Step s;
      i++;
      if (i < path.size() && path[i] == '"') {
        size_t close = path.find('"', i + 1);
        if (close == std::string::npos) throw bad("unclosed quote");
        s.key = path.substr(i + 1, close - i - 1);
        i = close + 1;
      } else {
        size_t end = path.find_first_of(".[", i);
        if (end == std::string::npos) end = path.size();
        s.key = path.substr(i, end - i);
        if (s.key.empty()) throw bad("empty key");
        i = end;
      }
      steps.push_back(s);
    } else if (path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string::npos) throw bad("unclosed [");
      std::string inside = path.substr(i + 1, close - i - 1);
      Step s;
      s.is_index = true;
      if (!inside.empty() && inside[0] == '#') {
        s.from_end = true;
        inside = inside.substr(1);
        if (inside.empty()) inside = "0";
        else if (inside[0] == '-') inside = inside.substr(1);
        else throw bad("after # only -n may follow");
      }
      if (inside.empty() || inside.find_first_not_of("0123456789") != std::string::npos) throw bad("the index must be a number");
      s.index = std::stoll(inside);
      steps.push_back(s);
      i = close + 1;
    } else {
      throw bad("unexpected '" + std::string(1, path[i]) + "'");
    }
  }
  return steps;
}

json ParseOrThrow(const std::string& function, std::string_view text) {
  JsonError error;
  json j = ParseOrderedJson(text, &error);
  if (j.is_discarded()) throw InvalidInputError(function + "(): " + error.message + " in '" + std::string(text.substr(0, 80)) + "'");
  return j;
}

// The value at `steps`, or nullptr when missing.
const json* Walk(const json& root, const std::vector<Step>& steps) {
  const json* at = &root;
  for (auto& s : steps) {
    if (s.is_index) {
      if (!at->is_array()) return nullptr;
      int64_t n = static_cast<int64_t>(at->size());
      int64_t k = s.from_end ? n - s.index : s.index;
      if (k < 0 || k >= n) return nullptr;
      at = &(*at)[static_cast<size_t>(k)];
    } else {
      if (!at->is_object()) return nullptr;
      auto found = at->find(s.key);
      if (found == at->end()) return nullptr;
      at = &*found;
    }
  }
  return at;
}

std::string JsonType(const json& j) {
  switch (j.type()) {
    case json::value_t::object: return "OBJECT";
    case json::value_t::array: return "ARRAY";
    case json::value_t::string: return "VARCHAR";
    case json::value_t::boolean: return "BOOLEAN";
    case json::value_t::number_unsigned: return "UBIGINT";
    case json::value_t::number_integer: return "BIGINT";
    case json::value_t::number_float: return "DOUBLE";
    default: return "NULL";
  }
}

enum class Op { EXTRACT, EXTRACT_STRING, VALUE, ARRAY_LENGTH, KEYS, TYPE };

// An integer path (j->0, j->>-1) is an array index, negative from the end.
std::vector<Step> IndexPath(int64_t index) {
  Step s;
  s.is_index = true;
  s.from_end = index < 0;
  s.index = index < 0 ? -index : index;
  return {s};
}

// json, path (constant or not) -> one of the Ops.
BoundScalarFunction BindPathFunction(const ScalarBindInput& input, Op op) {
  bool path_optional = op == Op::ARRAY_LENGTH || op == Op::KEYS || op == Op::TYPE;
  bool extract = op == Op::EXTRACT || op == Op::EXTRACT_STRING;
  std::string accepted = input.name + (path_optional ? "(JSON VARCHAR[, path VARCHAR])"
                                       : extract     ? "(JSON VARCHAR, path VARCHAR or array index BIGINT)"
                                                     : "(JSON VARCHAR, path VARCHAR)");
  CheckArgumentCount(input, path_optional ? 1 : 2, 2, accepted);
  std::vector<LogicalType> args(input.argument_types.size(), TypeId::VARCHAR);
  for (idx_t i = 0; i < args.size(); i++) {
    TypeId t = input.argument_types[i].id();
    if (i == 1 && extract && (t == TypeId::INTEGER || t == TypeId::BIGINT)) args[i] = TypeId::BIGINT;
    else if (t != TypeId::VARCHAR && t != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  LogicalType ret = op == Op::ARRAY_LENGTH ? LogicalType(TypeId::BIGINT)
                    : op == Op::KEYS       ? LogicalType::List(TypeId::VARCHAR)
                                           : LogicalType(TypeId::VARCHAR);
  std::string name = input.name;
  return Bound(std::move(args), ret, RowValueKernel([op, ret, name](const std::vector<Value>& a) {
                 json root = ParseOrThrow(name, a[0].GetString());
                 const json* at = &root;
                 if (a.size() == 2) {
                   at = Walk(root, a[1].type().id() == TypeId::BIGINT ? IndexPath(a[1].GetBigint())
                                                                      : ParsePath(name, a[1].GetString()));
                 }
                 if (!at) return Value(ret);
                 switch (op) {
                   case Op::EXTRACT: return Value::VARCHAR(at->dump());
                   case Op::EXTRACT_STRING:
                     if (at->is_null()) return Value(ret);
                     return Value::VARCHAR(at->is_string() ? at->get<std::string>() : at->dump());
                   case Op::VALUE:
                     if (at->is_object() || at->is_array()) return Value(ret);
                     return Value::VARCHAR(at->dump());
                   case Op::ARRAY_LENGTH: return Value::BIGINT(at->is_array() ? static_cast<int64_t>(at->size()) : 0);
                   case Op::KEYS: {
                     std::vector<Value> keys;
                     if (at->is_object()) {
                       for (auto it = at->begin(); it != at->end(); ++it) keys.emplace_back(it.key());
                     }
                     return Value::LIST(ret, std::move(keys));
                   }
                   case Op::TYPE: return Value::VARCHAR(JsonType(*at));
                 }
                 return Value(ret);
               }));
}

BoundScalarFunction BindJsonValid(const ScalarBindInput& input) {
  CheckArgumentCount(input, 1, 1, "json_valid(VARCHAR)");
  if (input.argument_types[0].id() != TypeId::VARCHAR && input.argument_types[0].id() != TypeId::SQLNULL) ThrowArgumentError(input, "json_valid(VARCHAR)");
  return Bound({TypeId::VARCHAR}, TypeId::BOOLEAN, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<string_t, bool>(a.data[0], r, c, [](string_t s) {
      return !ParseOrderedJson(std::string_view(s.data(), s.size())).is_discarded();
    });
  });
}

// json_object(k1, v1, ...) and json_array(v1, ...): values keep their types
// (numbers stay numbers); a NULL value is JSON null, a NULL key an error.
BoundScalarFunction BindJsonBuild(const ScalarBindInput& input, bool object) {
  std::string accepted = object ? "json_object(key VARCHAR, value, ...)" : "json_array(value, ...)";
  if (object && input.argument_types.size() % 2 != 0) {
    throw BinderError("json_object(): takes key, value pairs; got " + std::to_string(input.argument_types.size()) + " arguments");
  }
  std::vector<LogicalType> args;
  for (idx_t i = 0; i < input.argument_types.size(); i++) {
    const LogicalType& t = input.argument_types[i];
    if (object && i % 2 == 0) {
      if (!ImplicitlyStringCastable(t) && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
      args.emplace_back(TypeId::VARCHAR);
    } else {
      args.push_back(t.id() == TypeId::SQLNULL ? LogicalType(TypeId::VARCHAR) : t);
    }
  }
  BoundScalarFunction f = Bound(std::move(args), TypeId::VARCHAR, RowValueKernel([object](const std::vector<Value>& a) {
                                  std::string out(1, object ? '{' : '[');
                                  for (size_t i = 0; i < a.size(); i++) {
                                    if (object && i % 2 == 1) continue;
                                    if (out.size() > 1) out += ',';
                                    if (object) {
                                      if (a[i].IsNull()) throw InvalidInputError("json_object(): key " + std::to_string(i / 2 + 1) + " is NULL; every key must be a string");
                                      AppendJsonString(out, a[i].GetString());
                                      out += ':';
                                      AppendJsonValue(out, a[i + 1]);
                                    } else {
                                      AppendJsonValue(out, a[i]);
                                    }
                                  }
                                  out += object ? '}' : ']';
                                  return Value::VARCHAR(std::move(out));
                                }, false));
  f.handles_nulls = true;
  return f;
}

}  // namespace

void RegisterJsonMoreFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("json_extract", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::EXTRACT); });
  registry.Register("json_extract_path", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::EXTRACT); });
  registry.Register("json_extract_string", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::EXTRACT_STRING); });
  registry.Register("json_extract_path_text", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::EXTRACT_STRING); });
  registry.Register("json_value", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::VALUE); });
  registry.Register("json_array_length", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::ARRAY_LENGTH); });
  registry.Register("json_keys", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::KEYS); });
  registry.Register("json_type", [](const ScalarBindInput& in) { return BindPathFunction(in, Op::TYPE); });
  registry.Register("json_valid", BindJsonValid);
  registry.Register("json_object", [](const ScalarBindInput& in) { return BindJsonBuild(in, true); });
  registry.Register("json_array", [](const ScalarBindInput& in) { return BindJsonBuild(in, false); });
}

}  // namespace lakestream
