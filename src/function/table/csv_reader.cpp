// CSV files for read_files(): RFC 4180 records (fields may be quoted, quotes
// inside doubled, quoted fields may span lines), a one-character delimiter,
// an optional header. Without a header the columns are _c0, _c1, ... (as in
// Spark). An empty unquoted field is NULL; "" is the empty string. Inference
// tries BOOLEAN, BIGINT, DOUBLE, DATE and TIMESTAMP before VARCHAR.
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/table/file_readers.hpp"

namespace lakestream {

namespace {

struct CsvField {
  std::string text;
  bool null = false;
};

struct CsvRecord {
  idx_t line = 0;  // where the record starts
  std::vector<CsvField> fields;
  std::string raw;
  std::string error;  // an unterminated quote
};

// Splits `text` into records; calls on_record(record) for each non-empty one.
template <class OnRecord>
void ForEachCsvRecord(const std::string& text, const ReadFilesOptions& options, OnRecord on_record) {
  size_t pos = 0;
  idx_t line = 1;
  const char delim = options.delimiter, quote = options.quote;
  while (pos < text.size()) {
    CsvRecord record;
    record.line = line;
    size_t start = pos;
    CsvField field;
    bool quoted = false, was_quoted = false, done = false;
    while (!done) {
      if (pos >= text.size()) {
        if (quoted) record.error = "a quoted field is not closed before the end of the file";
        done = true;
        break;
      }
      char c = text[pos++];
      if (quoted) {
        if (c == quote) {
          if (pos < text.size() && text[pos] == quote) {
            field.text += quote;
            pos++;
          } else {
            quoted = false;
          }
        } else {
          if (c == '\n') line++;
          field.text += c;
        }
        continue;
      }
      if (c == quote && field.text.empty() && !was_quoted) {
        quoted = was_quoted = true;
      } else if (c == delim) {
        field.null = field.text.empty() && !was_quoted;
        record.fields.push_back(std::move(field));
        field = CsvField();
        was_quoted = false;
      } else if (c == '\n') {
        line++;
        done = true;
      } else if (c != '\r') {
        field.text += c;
      }
    }
    field.null = field.text.empty() && !was_quoted;
    record.fields.push_back(std::move(field));
    record.raw = text.substr(start, pos - start);
    while (!record.raw.empty() && (record.raw.back() == '\n' || record.raw.back() == '\r')) record.raw.pop_back();
    if (record.raw.empty()) continue;  // blank line
    if (!on_record(record)) return;
  }
}

LogicalType InferCsvType(const std::string& s) {
  std::string lower = StringUtil::Lower(s);
  if (lower == "true" || lower == "false") return TypeId::BOOLEAN;
  if (!s.empty()) {
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    bool digits = i < s.size();
    for (size_t k = i; k < s.size(); k++) digits = digits && s[k] >= '0' && s[k] <= '9';
    if (digits) {
      errno = 0;
      char* end = nullptr;
      std::strtoll(s.c_str(), &end, 10);
      if (errno == 0) return TypeId::BIGINT;
      return TypeId::DOUBLE;
    }
    bool has_digit = s.find_first_of("0123456789") != std::string::npos;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    if (has_digit && end == s.c_str() + s.size() && s.find_first_of("xXpP") == std::string::npos) return TypeId::DOUBLE;
  }
  date_t d;
  if (s.size() == 10 && Date::TryParse(s, d)) return TypeId::DATE;
  timestamp_t ts;
  if (s.size() > 10 && Timestamp::TryParse(s, ts)) return TypeId::TIMESTAMP;
  return TypeId::VARCHAR;
}

std::vector<std::string> HeaderNames(const CsvRecord& header) {
  std::vector<std::string> names;
  for (idx_t i = 0; i < header.fields.size(); i++) {
    std::string name = header.fields[i].text;
    names.push_back(name.empty() ? "_c" + std::to_string(i) : name);
  }
  return names;
}

std::string Location(const std::string& path, idx_t line) { return "read_files(): " + path + " line " + std::to_string(line); }

}  // namespace

void InferCsvColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference,
                     idx_t max_records) {
  std::string text = ReadWholeFile(path, options);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  bool header_pending = options.header;
  idx_t count = 0;
  ForEachCsvRecord(text, options, [&](const CsvRecord& record) {
    if (!record.error.empty()) {
      if (!options.rescue_column.empty()) return false;
      throw InvalidInputError(Location(path, record.line) + ": " + record.error +
                              "; close the quote, or pass rescue => true to keep malformed records in _rescued_data");
    }
    if (header_pending) {
      names = HeaderNames(record);
      types.assign(names.size(), TypeId::SQLNULL);
      header_pending = false;
      return true;
    }
    while (names.size() < record.fields.size()) {
      names.push_back("_c" + std::to_string(names.size()));
      types.push_back(TypeId::SQLNULL);
    }
    for (idx_t i = 0; i < record.fields.size(); i++) {
      if (!record.fields[i].null) types[i] = MergeInferredTypes(types[i], InferCsvType(record.fields[i].text));
    }
    return ++count < max_records;
  });
  for (idx_t i = 0; i < names.size(); i++) inference.Observe(names[i], types[i]);
}

void ReadCsvRecords(const std::string& path, const ReadFilesOptions& options, RecordBuilder& out) {
  std::string text = ReadWholeFile(path, options);
  const FileSchema& schema = out.Schema();
  // File column i -> schema column (or -1: unknown), by header name or position.
  std::vector<int64_t> mapping;
  std::vector<std::string> file_names;
  bool header_pending = options.header;
  ForEachCsvRecord(text, options, [&](const CsvRecord& record) {
    if (header_pending && record.error.empty()) {
      file_names = HeaderNames(record);
      for (auto& name : file_names) mapping.push_back(schema.Find(name));
      header_pending = false;
      return true;
    }
    out.BeginRecord(record.line);
    if (!record.error.empty()) {
      out.Malformed(record.error, record.raw);
      out.EndRecord();
      return true;
    }
    if (!options.header) {
      while (mapping.size() < record.fields.size()) {
        idx_t i = mapping.size();
        file_names.push_back("_c" + std::to_string(i));
        mapping.push_back(schema.Find(file_names.back()));
      }
    }
    if (options.header && record.fields.size() != mapping.size()) {
      out.Malformed("the record has " + std::to_string(record.fields.size()) + " fields but the header has " +
                        std::to_string(mapping.size()),
                    record.raw);
      out.EndRecord();
      return true;
    }
    for (idx_t i = 0; i < record.fields.size(); i++) {
      const CsvField& field = record.fields[i];
      nlohmann::ordered_json original = field.null ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(field.text);
      if (mapping[i] < 0) {
        out.Unknown(file_names[i], original);
        continue;
      }
      if (field.null) continue;
      out.SetValue(static_cast<idx_t>(mapping[i]), Value(field.text), original);
    }
    out.EndRecord();
    return true;
  });
}

}  // namespace lakestream
