// JSON files for read_files(): one object per line (JSON lines, read in
// blocks), or, when the file starts with '[' or multiLine is set, one value
// for the whole file (an array of objects, or one object), parsed whole. Nested objects are read into STRUCT
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

// A record of the file: an object, or text that is not one (problem set).
// Filled in place by JsonRecordStream::Next, never copied or moved.
struct JsonRecord {
  JsonRecord() : object(nullptr) {}
  JsonRecord(const JsonRecord&) = delete;
  JsonRecord& operator=(const JsonRecord&) = delete;

  idx_t line = 0;
  json object;
  std::string problem;
  std::string text;
};

// The records of a file: JSON lines read in blocks, or (a file whose first
// character is '[', or multiLine) the elements of one document parsed whole.
class JsonRecordStream {
 public:
  JsonRecordStream(const std::string& path, const ReadFilesOptions& options, uint64_t block_size)
      : file_(path, options, block_size) {
    // The first block tells JSON lines from a document.
    bool more = true;
    size_t first = std::string::npos;
    while (more && (first = buffer_.find_first_not_of(" \t\r\n")) == std::string::npos) more = file_.Append(buffer_);
    at_end_ = !more;
    if (options.multi_line || (first != std::string::npos && buffer_[first] == '[')) {
      buffer_.clear();
      ReadDocument(ReadWholeFile(path, options));
      whole_ = true;
    }
  }

  // The next record, or false at the end of the file.
  bool Next(JsonRecord& record) {
    if (whole_) return NextElement(record);
    while (true) {
      size_t end = buffer_.find('\n', pos_);
      if (end == std::string::npos && !at_end_) {
        buffer_.erase(0, pos_);
        pos_ = 0;
        at_end_ = !file_.Append(buffer_);
        continue;
      }
      if (end == std::string::npos) end = buffer_.size();
      if (pos_ >= buffer_.size() && at_end_) return false;
      std::string_view raw(buffer_.data() + pos_, end - pos_);
      pos_ = end + 1;
      line_++;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      if (raw.find_first_not_of(" \t") == std::string_view::npos) continue;
      record.line = line_;
      record.problem.clear();
      record.text.clear();
      JsonError error;
      record.object = ParseOrderedJson(raw, &error);
      if (record.object.is_discarded()) {
        record.problem = ReplaceInvalidUtf8(error.message);
        record.text = ReplaceInvalidUtf8(raw);
      } else if (!record.object.is_object()) {
        record.problem = "expected a JSON object, got " + std::string(record.object.type_name());
        record.text = std::string(raw);
      }
      return true;
    }
  }

 private:
  static void Set(JsonRecord& record, idx_t line, std::string problem, std::string text) {
    record.line = line;
    record.problem = std::move(problem);
    record.text = std::move(text);
  }

  // The document's outcome: an object, an array (read element by element),
  // or a problem reported as the file's one record.
  void ReadDocument(const std::string& text) {
    JsonError error;
    doc_ = ParseOrderedJson(text, &error);
    if (doc_.is_discarded()) {
      Set(problem_, 1, ReplaceInvalidUtf8(error.message), ReplaceInvalidUtf8(std::string_view(text).substr(0, 200)));
    } else if (!doc_.is_object() && !doc_.is_array()) {
      Set(problem_, 1, "expected a JSON object or an array of objects, got " + std::string(doc_.type_name()), doc_.dump());
    } else if (doc_.is_array()) {
      lines_ = ElementLines(text);
    }
  }

  bool NextElement(JsonRecord& record) {
    if (!problem_.problem.empty() || doc_.is_object()) {
      if (next_++ > 0) return false;
      if (!problem_.problem.empty()) {
        Set(record, problem_.line, problem_.problem, problem_.text);
      } else {
        Set(record, 1, "", "");
        record.object = std::move(doc_);
      }
      return true;
    }
    if (next_ >= doc_.size()) return false;
    idx_t i = next_++;
    idx_t line = i < lines_.size() ? lines_[i] : 1;
    json& element = doc_[i];
    if (!element.is_object()) {
      Set(record, line, "expected a JSON object, got " + std::string(element.type_name()), element.dump());
    } else {
      Set(record, line, "", "");
      record.object = std::move(element);
    }
    return true;
  }

  BlockFileReader file_;
  bool whole_ = false;
  json doc_;  // a document read whole
  std::vector<idx_t> lines_;  // where each of its elements starts
  JsonRecord problem_;        // a document that is not an object or an array of them
  idx_t next_ = 0;
  std::string buffer_;  // JSON lines: the block read, from the line cut by the last one
  size_t pos_ = 0;
  idx_t line_ = 0;
  bool at_end_ = false;
};

}  // namespace

void InferJsonColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference,
                      idx_t max_records) {
  JsonRecordStream records(path, options, kReadBlockBytes);
  JsonRecord record;
  for (idx_t count = 0; count < max_records && records.Next(record); count++) {
    if (record.problem.empty()) {
      for (auto& [key, value] : record.object.items()) inference.Observe(key, InferJsonValueType(value, inference.Options()));
      continue;
    }
    // Inference skips what reading will reject or rescue (with the line then).
    if (!options.rescue_column.empty()) continue;
    throw InvalidInputError(options.function + "(): " + path + " line " + std::to_string(record.line) + ": " +
                            record.problem + "; fix the record, or pass rescue => true to keep malformed records in _rescued_data");
  }
}

namespace {

class JsonRecordReader : public FileRecordReader {
 public:
  JsonRecordReader(const std::string& path, const ReadFilesOptions& options, uint64_t block_size)
      : records_(path, options, block_size) {}

  bool Read(RecordBuilder& out, idx_t max_records) override {
    for (idx_t n = 0; n < max_records; n++) {
      if (!records_.Next(record_)) return false;
      Add(out);
    }
    return true;
  }

 private:
  void Add(RecordBuilder& out) {
    out.BeginRecord(record_.line);
    if (!record_.problem.empty()) {
      out.Malformed(record_.problem, record_.text);
      out.EndRecord();
      return;
    }
    const FileSchema& schema = out.Schema();
    auto unknown = [&out](const std::string& path, const json& value) { out.Unknown(path, value); };
    for (auto& [key, value] : record_.object.items()) {
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
  }

  JsonRecordStream records_;
  JsonRecord record_;
};

}  // namespace

std::unique_ptr<FileRecordReader> OpenJsonRecords(const std::string& path, const ReadFilesOptions& options,
                                                  uint64_t block_size) {
  return std::make_unique<JsonRecordReader>(path, options, block_size);
}

}  // namespace lakestream
