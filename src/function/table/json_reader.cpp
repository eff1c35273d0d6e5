// JSON files for read_files(): one object per line (JSON lines), or, when the
// file starts with '[' or multiLine is set, one value for the whole file (an
// array of objects, or one object). Nested objects are read into STRUCT
// columns, arrays into ARRAY columns (function/table/schema_merge.hpp infers
// them); a VARCHAR column takes any JSON value, objects and arrays as text.
#include <cmath>
#include <limits>

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "lakestream/utf8.hpp"
#include "function/table/file_readers.hpp"

namespace lakestream {

namespace {

using json = nlohmann::ordered_json;

// The engine value of a JSON scalar (objects and arrays: their text).
Value JsonToValue(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return Value();
    case json::value_t::boolean: return Value::BOOLEAN(v.get<bool>());
    case json::value_t::number_integer: return Value::BIGINT(v.get<int64_t>());
    case json::value_t::number_unsigned: {
      uint64_t u = v.get<uint64_t>();
      if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Value::BIGINT(static_cast<int64_t>(u));
      return Value::DOUBLE(static_cast<double>(u));
    }
    case json::value_t::number_float: return Value::DOUBLE(v.get<double>());
    case json::value_t::string: return Value(v.get<std::string>());
    default: return Value(v.dump());
  }
}

// What a JSON value is, for messages.
std::string JsonKind(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_float: return "a non-integral number";
    default: return "a number";
  }
}

// Converts `v` to `type`; false when it does not fit. Fields of objects the
// STRUCT type lacks go to `unknown(path, value)`.
template <class Unknown>
bool Convert(const json& v, const LogicalType& type, Value& out, const std::string& path, Unknown& unknown) {
  if (v.is_null()) {
    out = Value(type);
    return true;
  }
  switch (type.id()) {
    case TypeId::VARCHAR:
      out = Value(v.is_string() ? v.get<std::string>() : v.dump());
      return true;
    case TypeId::STRUCT: {
      if (!v.is_object()) return false;
      const auto& fields = type.children();
      std::vector<Value> values(fields.size());
      std::vector<bool> seen(fields.size(), false);
      for (auto& [key, value] : v.items()) {
        int64_t at = -1;
        for (idx_t i = 0; i < fields.size() && at < 0; i++) {
          if (fields[i].first == key) at = static_cast<int64_t>(i);
        }
        for (idx_t i = 0; i < fields.size() && at < 0; i++) {
          if (StringUtil::CIEquals(fields[i].first, key)) at = static_cast<int64_t>(i);
        }
        if (at < 0) {
          unknown(path + "." + key, value);
          continue;
        }
        if (!Convert(value, fields[at].second, values[at], path + "." + key, unknown)) return false;
        seen[at] = true;
      }
      for (idx_t i = 0; i < fields.size(); i++) {
        if (!seen[i]) values[i] = Value(fields[i].second);
      }
      out = Value::STRUCT(type, std::move(values));
      return true;
    }
    case TypeId::LIST: {
      if (!v.is_array()) return false;
      std::vector<Value> elements(v.size());
      for (idx_t i = 0; i < v.size(); i++) {
        if (!Convert(v[i], type.ListChild(), elements[i], path + ".element", unknown)) return false;
      }
      out = Value::LIST(type, std::move(elements));
      return true;
    }
    case TypeId::MAP: {
      if (!v.is_object()) return false;
      const LogicalType& entry = type.ListChild();
      std::vector<Value> entries;
      for (auto& [key, value] : v.items()) {
        Value k, val;
        std::string error;
        if (!TryCastValue(Value(key), entry.children()[0].second, k, &error)) return false;
        if (!Convert(value, entry.children()[1].second, val, path + ".value", unknown)) return false;
        entries.push_back(Value::STRUCT(entry, {k, val}));
      }
      out = Value::LIST(type, std::move(entries));
      return true;
    }
    default: break;
  }
  if (v.is_structured()) return false;
  // A non-integral number does not silently round into an integer column.
  if (v.is_number_float() && type.IsIntegral()) {
    double d = v.get<double>();
    if (!(std::fabs(d) < 9.2e18) || d != std::trunc(d)) return false;
  }
  Value raw = JsonToValue(v);
  // Exact decimals: cast from the number's text, not from a double.
  if (v.is_number() && type.id() == TypeId::DECIMAL) raw = Value(v.dump());
  if (raw.type() == type) {
    out = std::move(raw);
    return true;
  }
  std::string error;
  return TryCastValue(raw, type, out, &error);
}

// Calls `record(line, object_text_or_value)` for each record of the file.
// Whole-file values: the 1-based line where each top-level element starts
// comes from a scan that tracks nesting and strings.
std::vector<idx_t> ElementLines(const std::string& text) {
  std::vector<idx_t> lines;
  idx_t line = 1;
  int depth = 0;
  bool in_string = false, escape = false;
  for (char c : text) {
    if (c == '\n') line++;
    if (in_string) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      if (depth == 1) lines.push_back(line);
    } else if (c == '{' || c == '[') {
      if (depth == 1) lines.push_back(line);
      depth++;
    } else if (c == '}' || c == ']') {
      depth--;
    } else if (depth == 1 && c != ',' && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      if (lines.empty() || lines.back() != line) lines.push_back(line);
    }
  }
  return lines;
}

bool WholeFile(const std::string& text, const ReadFilesOptions& options) {
  if (options.multi_line) return true;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '[';
  }
  return false;
}

template <class OnRecord, class OnError>
void ForEachRecord(const std::string& path, const ReadFilesOptions& options, idx_t max_records, OnRecord on_record,
                   OnError on_error) {
  std::string text = ReadWholeFile(path, options);
  idx_t count = 0;
  if (WholeFile(text, options)) {
    JsonError error;
    json doc = ParseOrderedJson(text, &error);
    if (doc.is_discarded()) {
      on_error(1, ReplaceInvalidUtf8(error.message), ReplaceInvalidUtf8(std::string_view(text).substr(0, 200)));
      return;
    }
    if (doc.is_object()) {
      on_record(1, doc);
      return;
    }
    if (!doc.is_array()) {
      on_error(1, "expected a JSON object or an array of objects, got " + std::string(doc.type_name()), doc.dump());
      return;
    }
    auto lines = ElementLines(text);
    for (idx_t i = 0; i < doc.size() && count < max_records; i++, count++) {
      idx_t line = i < lines.size() ? lines[i] : 1;
      if (!doc[i].is_object()) {
        on_error(line, "expected a JSON object, got " + std::string(doc[i].type_name()), doc[i].dump());
        continue;
      }
      on_record(line, doc[i]);
    }
    return;
  }
  idx_t line = 0;
  size_t pos = 0;
  while (pos < text.size() && count < max_records) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view raw(text.data() + pos, end - pos);
    pos = end + 1;
    line++;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    if (raw.find_first_not_of(" \t") == std::string_view::npos) continue;
    count++;
    JsonError error;
    json record = ParseOrderedJson(raw, &error);
    if (record.is_discarded()) {
      on_error(line, ReplaceInvalidUtf8(error.message), ReplaceInvalidUtf8(raw));
      continue;
    }
    if (!record.is_object()) {
      on_error(line, "expected a JSON object, got " + std::string(record.type_name()), std::string(raw));
      continue;
    }
    on_record(line, record);
  }
}

}  // namespace

void InferJsonColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference,
                      idx_t max_records) {
  ForEachRecord(
      path, options, max_records,
      [&](idx_t, const json& object) {
        for (auto& [key, value] : object.items()) inference.Observe(key, InferJsonValueType(value, inference.Options()));
      },
      [&](idx_t line, const std::string& problem, const std::string&) {
        // Inference skips what reading will reject or rescue (with the line then).
        if (!options.rescue_column.empty()) return;
        throw InvalidInputError(options.function + "(): " + path + " line " + std::to_string(line) + ": " + problem +
                                "; fix the record, or pass rescue => true to keep malformed records in _rescued_data");
      });
}

void ReadJsonRecords(const std::string& path, const ReadFilesOptions& options, RecordBuilder& out) {
  const FileSchema& schema = out.Schema();
  auto unknown = [&out](const std::string& path, const json& value) { out.Unknown(path, value); };
  ForEachRecord(
      path, options, std::numeric_limits<idx_t>::max(),
      [&](idx_t line, const json& object) {
        out.BeginRecord(line);
        for (auto& [key, value] : object.items()) {
          int64_t column = schema.Find(key);
          if (column < 0) {
            out.Unknown(key, value);
            continue;
          }
          const LogicalType& target = schema.types[column];
          Value v;
          if (Convert(value, target, v, key, unknown)) {
            out.SetTyped(column, v);  // Convert returns values of exactly `target`
          } else {
            out.Mismatch(column, value, JsonKind(value));
          }
        }
        out.EndRecord();
      },
      [&](idx_t line, const std::string& problem, const std::string& text) {
        out.BeginRecord(line);
        out.Malformed(problem, text);
        out.EndRecord();
      });
}

}  // namespace lakestream
