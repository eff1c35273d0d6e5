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
  // Reused from record to record (a field's string keeps its capacity).
  std::vector<CsvField> fields;
  std::string_view raw;  // into the text parsed; valid until the next record
  std::string error;     // an unterminated quote
};

enum class Parsed { RECORD, BLANK, NEED_MORE, END };

// Parses the record at text[pos..] into `record`, advancing `pos` and `line`
// past it. NEED_MORE (pos and line unchanged) when the record runs past the
// end of `text` and more text follows (`at_end` false).
Parsed ParseCsvRecord(std::string_view text, size_t& pos_io, idx_t& line_io, bool at_end, const ReadFilesOptions& options,
                      CsvRecord& record) {
  size_t pos = pos_io;
  idx_t line = line_io;
  if (pos >= text.size()) return at_end ? Parsed::END : Parsed::NEED_MORE;
  const char delim = options.delimiter, quote = options.quote;
  record.line = line;
  record.error.clear();
  const size_t start = pos;
  idx_t n = 0;
  auto next_field = [&]() {
    if (n == record.fields.size()) record.fields.emplace_back();
    CsvField& f = record.fields[n++];
    f.text.clear();
    f.null = false;
  };
  next_field();
  bool quoted = false, was_quoted = false;
  while (true) {
    if (pos >= text.size()) {
      if (!at_end) return Parsed::NEED_MORE;
      if (quoted) record.error = "a quoted field is not closed before the end of the file";
      break;
    }
    CsvField& field = record.fields[n - 1];
    char c = text[pos++];
    if (quoted) {
      if (c == quote) {
        if (pos >= text.size() && !at_end) return Parsed::NEED_MORE;  // "" or the closing quote?
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
      next_field();
      was_quoted = false;
    } else if (c == '\n') {
      line++;
      break;
    } else if (c != '\r') {
      // The rest of an unquoted field in one append.
      size_t end = pos;
      while (end < text.size() && text[end] != delim && text[end] != '\n' && text[end] != '\r' && text[end] != quote) end++;
      field.text.append(text.data() + pos - 1, end - pos + 1);
      pos = end;
    }
  }
  CsvField& last = record.fields[n - 1];
  last.null = last.text.empty() && !was_quoted;
  record.fields.resize(n);
  std::string_view raw = text.substr(start, pos - start);
  while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r')) raw.remove_suffix(1);
  record.raw = raw;
  pos_io = pos;
  line_io = line;
  return raw.empty() ? Parsed::BLANK : Parsed::RECORD;
}

// Calls on_record(record) for each non-empty record of `text` until it returns false.
template <class OnRecord>
void ForEachCsvRecord(std::string_view text, const ReadFilesOptions& options, OnRecord on_record) {
  size_t pos = 0;
  idx_t line = 1;
  CsvRecord record;
  while (true) {
    Parsed parsed = ParseCsvRecord(text, pos, line, true, options, record);
    if (parsed == Parsed::END) return;
    if (parsed == Parsed::RECORD && !on_record(record)) return;
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

// The records of a file read in blocks. The text must be UTF-8 (VARCHAR is):
// each block is checked up to its last newline, which no multi-byte sequence
// holds, and the rest with the next block.
class CsvRecordStream {
 public:
  CsvRecordStream(const std::string& path, const ReadFilesOptions& options, uint64_t block_size)
      : path_(path), options_(options), file_(path, options, block_size) {}

  // The next non-blank record (its raw text valid until the next call), or
  // false at the end of the file.
  bool Next(CsvRecord& record) {
    while (true) {
      switch (ParseCsvRecord(buffer_, pos_, line_, at_end_, options_, record)) {
        case Parsed::RECORD: return true;
        case Parsed::BLANK: continue;
        case Parsed::END: return false;
        case Parsed::NEED_MORE: Refill(); break;
      }
    }
  }

 private:
  // Drops the records read and appends a block to the one cut by the end.
  void Refill() {
    buffer_.erase(0, pos_);
    buffer_offset_ += pos_;
    checked_ -= pos_;
    buffer_line_ = line_;
    pos_ = 0;
    at_end_ = !file_.Append(buffer_);
    size_t end = buffer_.size();
    if (!at_end_) {
      size_t newline = buffer_.rfind('\n');
      end = newline == std::string::npos ? 0 : newline + 1;
    }
    if (end <= checked_) return;
    std::string_view fresh = std::string_view(buffer_).substr(checked_, end - checked_);
    size_t bad = FindInvalidUtf8(fresh);
    if (bad != std::string::npos) {
      bad += checked_;
      auto first = buffer_.begin(), at = buffer_.begin() + static_cast<std::ptrdiff_t>(bad);
      idx_t line = buffer_line_ + static_cast<idx_t>(std::count(first, at, '\n'));
      // "byte 0xFF at offset N" with N the offset in the file.
      std::string byte = DescribeInvalidUtf8(buffer_, bad);
      byte = byte.substr(0, byte.find(" at offset ")) + " at offset " + std::to_string(buffer_offset_ + bad);
      throw InvalidInputError(Location(options_, path_, line) + ": the text is not valid UTF-8 (" + byte +
                              " of the file); convert the file to UTF-8 first, e.g. iconv -f latin1 -t utf-8");
    }
    checked_ = end;
  }

  std::string path_;
  const ReadFilesOptions& options_;
  BlockFileReader file_;
  std::string buffer_;
  size_t pos_ = 0;
  idx_t line_ = 1;            // of buffer_[pos_]
  idx_t buffer_line_ = 1;     // of buffer_[0]
  uint64_t buffer_offset_ = 0;  // in the file, of buffer_[0]
  size_t checked_ = 0;        // buffer_[0, checked_) is valid UTF-8
  bool at_end_ = false;
};

}  // namespace

void InferCsvColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference,
                     idx_t max_records) {
  CsvRecordStream records(path, options, kReadBlockBytes);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  bool header_pending = options.header;
  idx_t count = 0;
  CsvRecord record;
  while (count < max_records && records.Next(record)) {
    if (!record.error.empty()) {
      if (!options.rescue_column.empty()) break;
      throw InvalidInputError(Location(options, path, record.line) + ": " + record.error +
                              "; close the quote, or pass rescue => true to keep malformed records in _rescued_data");
    }
    if (header_pending) {
      names = HeaderNames(record, options);
      types.assign(names.size(), TypeId::SQLNULL);
      header_pending = false;
      continue;
    }
    while (names.size() < record.fields.size()) {
      names.push_back(options.unnamed_prefix + std::to_string(names.size()));
      types.push_back(TypeId::SQLNULL);
    }
    for (idx_t i = 0; i < record.fields.size(); i++) {
      if (!record.fields[i].null) types[i] = MergeInferredTypes(types[i], InferCsvType(record.fields[i].text));
    }
    count++;
  }
  for (idx_t i = 0; i < names.size(); i++) inference.Observe(names[i], types[i]);
}

void SniffCsv(const std::string& path, ReadFilesOptions& options) {
  constexpr idx_t kSniffRecords = 1000;
  // The head of the file is enough for the first rows (the whole file is
  // read, and checked for UTF-8, by the scan that follows).
  constexpr uint64_t kSniffBytes = 1 << 20;
  std::string text;
  BlockFileReader(path, options, kSniffBytes).Append(text);
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

namespace {

class CsvRecordReader : public FileRecordReader {
 public:
  CsvRecordReader(const std::string& path, const ReadFilesOptions& options, uint64_t block_size)
      : options_(options), records_(path, options, block_size), header_pending_(options.header) {}

  bool Read(RecordBuilder& out, idx_t max_records) override {
    for (idx_t n = 0; n < max_records; n++) {
      if (!records_.Next(record_)) return false;
      Add(out);
    }
    return true;
  }

 private:
  // File column i -> schema column (or -1: unknown), by header name or position.
  void MapColumn(const FileSchema& schema, idx_t i) {
    bool positional = options_.columns_by_position && i < schema.size();
    mapping_.push_back(positional ? static_cast<int64_t>(i) : schema.Find(file_names_[i]));
  }

  void Add(RecordBuilder& out) {
    const FileSchema& schema = out.Schema();
    const CsvRecord& record = record_;
    if (header_pending_ && record.error.empty()) {
      file_names_ = HeaderNames(record, options_);
      for (idx_t i = 0; i < file_names_.size(); i++) MapColumn(schema, i);
      header_pending_ = false;
      return;
    }
    out.BeginRecord(record.line);
    if (!record.error.empty()) {
      out.Malformed(record.error, std::string(record.raw));
      out.EndRecord();
      return;
    }
    if (!options_.header) {
      while (mapping_.size() < record.fields.size()) {
        file_names_.push_back(options_.unnamed_prefix + std::to_string(mapping_.size()));
        MapColumn(schema, mapping_.size());
      }
    }
    if (options_.header && record.fields.size() != mapping_.size()) {
      out.Malformed("the record has " + std::to_string(record.fields.size()) + " fields but the header has " +
                        std::to_string(mapping_.size()),
                    std::string(record.raw));
      out.EndRecord();
      return;
    }
    for (idx_t i = 0; i < record.fields.size(); i++) {
      const CsvField& field = record.fields[i];
      if (mapping_[i] < 0) {
        if (out.Rescuing()) {
          out.Unknown(file_names_[i], field.null ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(field.text));
        }
        continue;
      }
      if (!field.null) out.SetText(static_cast<idx_t>(mapping_[i]), field.text);
    }
    out.EndRecord();
  }

  const ReadFilesOptions& options_;
  CsvRecordStream records_;
  CsvRecord record_;
  bool header_pending_;
  std::vector<int64_t> mapping_;
  std::vector<std::string> file_names_;
};

}  // namespace

std::unique_ptr<FileRecordReader> OpenCsvRecords(const std::string& path, const ReadFilesOptions& options,
                                                 uint64_t block_size) {
  return std::make_unique<CsvRecordReader>(path, options, block_size);
}

}  // namespace lakestream
