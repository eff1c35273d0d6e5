// CSV files for read_files(): RFC 4180 records (fields may be quoted, quotes
// inside doubled, quoted fields may span lines), a one-character delimiter,
// an optional header. Without a header the columns are _c0, _c1, ... (as in
// Spark; column0, column1, ... for DuckDB's read_csv). An empty unquoted field is NULL; "" is the empty string. Inference
// tries BOOLEAN, BIGINT, DOUBLE, DATE and TIMESTAMP before VARCHAR.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/string_util.hpp"
#include "lakestream/utf8.hpp"
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

// DuckDB naming ("column" prefix) also makes a repeated name unique (a, a_1).
std::vector<std::string> HeaderNames(const CsvRecord& header, const ReadFilesOptions& options) {
  std::vector<std::string> names;
  bool dedupe = options.unnamed_prefix == "column";
  for (idx_t i = 0; i < header.fields.size(); i++) {
    std::string name = header.fields[i].text;
    if (name.empty()) name = options.unnamed_prefix + std::to_string(i);
    if (dedupe) {
      auto taken = [&](const std::string& n) {
        for (auto& other : names) {
          if (StringUtil::CIEquals(other, n)) return true;
        }
        return false;
      };
      std::string base = name;
      for (idx_t k = 1; taken(name); k++) name = base + "_" + std::to_string(k);
    }
    names.push_back(name);
  }
  return names;
}

// Does `text` (a field of a candidate header row) read as `type`, the type
// inferred for its column from the rows after it?
bool FitsInferredType(const std::string& text, const LogicalType& type) {
  if (type.id() == TypeId::SQLNULL || type.id() == TypeId::VARCHAR) return true;
  return MergeInferredTypes(type, InferCsvType(text)) == type;
}

std::string Location(const ReadFilesOptions& options, const std::string& path, idx_t line) {
  return options.function + "(): " + path + " line " + std::to_string(line);
}

// The file's text, which must be UTF-8 (VARCHAR is).
std::string ReadCsvText(const std::string& path, const ReadFilesOptions& options) {
  std::string text = ReadWholeFile(path, options);
  size_t bad = FindInvalidUtf8(text);
  if (bad != std::string::npos) {
    idx_t line = 1 + static_cast<idx_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
    throw InvalidInputError(Location(options, path, line) + ": the text is not valid UTF-8 (" + DescribeInvalidUtf8(text, bad) +
                            " of the file); convert the file to UTF-8 first, e.g. iconv -f latin1 -t utf-8");
  }
  return text;
}

}  // namespace

void InferCsvColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference,
                     idx_t max_records) {
  std::string text = ReadCsvText(path, options);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  bool header_pending = options.header;
  idx_t count = 0;
  ForEachCsvRecord(text, options, [&](const CsvRecord& record) {
    if (!record.error.empty()) {
      if (!options.rescue_column.empty()) return false;
      throw InvalidInputError(Location(options, path, record.line) + ": " + record.error +
                              "; close the quote, or pass rescue => true to keep malformed records in _rescued_data");
    }
    if (header_pending) {
      names = HeaderNames(record, options);
      types.assign(names.size(), TypeId::SQLNULL);
      header_pending = false;
      return true;
    }
    while (names.size() < record.fields.size()) {
      names.push_back(options.unnamed_prefix + std::to_string(names.size()));
      types.push_back(TypeId::SQLNULL);
    }
    for (idx_t i = 0; i < record.fields.size(); i++) {
      if (!record.fields[i].null) types[i] = MergeInferredTypes(types[i], InferCsvType(record.fields[i].text));
    }
    return ++count < max_records;
  });
  for (idx_t i = 0; i < names.size(); i++) inference.Observe(names[i], types[i]);
}

void SniffCsv(const std::string& path, ReadFilesOptions& options) {
  constexpr idx_t kSniffRecords = 1000;
  // The head of the file is enough for the first rows (the whole file is
  // read, and checked for UTF-8, by inference and the scan that follow).
  constexpr uint64_t kSniffBytes = 1 << 20;
  FileSystem* fs = options.files ? options.files : FileSystem::For(path);
  auto head = fs->ReadRange(path, 0, kSniffBytes);
  std::string text = head.ok() ? head.take() : ReadCsvText(path, options);
  if (text.size() == kSniffBytes) text.resize(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  auto first_records = [&](char delimiter, idx_t limit) {
    ReadFilesOptions probe = options;
    probe.delimiter = delimiter;
    std::vector<CsvRecord> records;
    ForEachCsvRecord(text, probe, [&](const CsvRecord& record) {
      if (!record.error.empty()) return false;
      records.push_back(record);
      return records.size() < limit;
    });
    return records;
  };
  if (options.auto_delimiter) {
    // The candidate that splits the first rows into the most columns, the
    // same number on every row (DuckDB's sniffer tries these four).
    idx_t best = 1;
    for (char candidate : {',', '|', ';', '\t'}) {
      auto records = first_records(candidate, 20);
      if (records.empty()) continue;
      idx_t columns = records[0].fields.size();
      bool consistent = true;
      for (auto& record : records) consistent = consistent && record.fields.size() == columns;
      if (consistent && columns > best) {
        best = columns;
        options.delimiter = candidate;
      }
    }
    options.auto_delimiter = false;
  }
  if (options.auto_header) {
    // A header when a field of the first row does not read as its column's
    // type in the rows below, or when every column is text (or there is no
    // row below), as DuckDB decides.
    auto records = first_records(options.delimiter, kSniffRecords);
    std::vector<LogicalType> types;
    for (idx_t r = 1; r < records.size(); r++) {
      if (types.size() < records[r].fields.size()) types.resize(records[r].fields.size(), TypeId::SQLNULL);
      for (idx_t i = 0; i < records[r].fields.size(); i++) {
        if (!records[r].fields[i].null) types[i] = MergeInferredTypes(types[i], InferCsvType(records[r].fields[i].text));
      }
    }
    bool all_text = true;
    for (auto& type : types) all_text = all_text && (type.id() == TypeId::VARCHAR || type.id() == TypeId::SQLNULL);
    bool misfit = false;
    if (!records.empty()) {
      const CsvRecord& first = records[0];
      for (idx_t i = 0; i < first.fields.size() && i < types.size(); i++) {
        misfit = misfit || (!first.fields[i].null && !FitsInferredType(first.fields[i].text, types[i]));
      }
    }
    options.header = !records.empty() && (misfit || all_text);
    options.auto_header = false;
  }
}

void ReadCsvRecords(const std::string& path, const ReadFilesOptions& options, RecordBuilder& out) {
  std::string text = ReadCsvText(path, options);
  const FileSchema& schema = out.Schema();
  // File column i -> schema column (or -1: unknown), by header name or position.
  std::vector<int64_t> mapping;
  std::vector<std::string> file_names;
  bool header_pending = options.header;
  ForEachCsvRecord(text, options, [&](const CsvRecord& record) {
    if (header_pending && record.error.empty()) {
      file_names = HeaderNames(record, options);
      for (idx_t i = 0; i < file_names.size(); i++) {
        bool positional = options.columns_by_position && i < schema.size();
        mapping.push_back(positional ? static_cast<int64_t>(i) : schema.Find(file_names[i]));
      }
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
        file_names.push_back(options.unnamed_prefix + std::to_string(i));
        bool positional = options.columns_by_position && i < schema.size();
        mapping.push_back(positional ? static_cast<int64_t>(i) : schema.Find(file_names.back()));
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
