// Readers behind read_files(): JSON (one object per line, or a whole-file
// array/object), CSV (RFC 4180 quoting, optional header, any one-character
// delimiter) and Parquet. Each reads a file into rows of a given schema a
// batch of records at a time, or contributes the file's columns to schema
// inference.
//
// Memory does not grow with the file: CSV and JSON lines are read in blocks
// of kReadBlockBytes (a record cut by a block's end, a quoted CSV field
// holding newlines included, is carried into the next block), and read_files()
// hands each batch of rows on before reading the next. A JSON file that is
// one document (an array of objects, or multiLine) is still parsed whole, and
// a Parquet file is decoded whole into rows (its reader has no row batches
// here yet).
//
// Records that do not fit the schema (malformed text, a value that does not
// cast to its column's type, a field the schema lacks) go to the rescue column
// when one is set, as a JSON object {"field": original value, ...,
// "_file_path": "..."} (malformed text as {"_corrupt_record": "..."}); without
// one, malformed text and failed casts are InvalidInputErrors naming the file
// and line, and unknown fields are dropped.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/chunk_collection.hpp"
#include "common/status.hpp"
#include "function/table/read_files_options.hpp"
#include "function/table/schema_merge.hpp"

namespace lakestream {

// Collects column names (in order of first appearance) and merged types
// (function/table/schema_merge.hpp has the rules).
class SchemaInference {
 public:
  explicit SchemaInference(InferOptions options = {}) : options_(options) {}
  const InferOptions& Options() const { return options_; }
  void Observe(const std::string& name, const LogicalType& type);
  // Columns seen only as NULL (or {}) become VARCHAR; with infer_types =
  // false every leaf does. resolve_nulls false keeps them NULL (evolution).
  FileSchema Finish(bool infer_types, bool resolve_nulls = true) const;

 private:
  InferOptions options_;
  FileSchema schema_;
};

// Builds the rows of one file in the output schema: `schema` plus, when
// `rescue_column` is not empty, a VARCHAR rescue column last.
class RecordBuilder {
 public:
  // `function` is the table function the user called (errors name it).
  RecordBuilder(const FileSchema& schema, std::string rescue_column, std::string file_path,
                std::string function = "read_files");

  const FileSchema& Schema() const { return schema_; }
  bool Rescuing() const { return !rescue_column_.empty(); }
  void BeginRecord(idx_t line);
  // Stores `value` cast to the column's type; `original` is what the rescue
  // column keeps when the cast fails (without rescue the failure is an error).
  void SetValue(idx_t column, const Value& value, const nlohmann::ordered_json& original);
  // Stores `value`, which already has the column's type (no cast, no type check).
  void SetTyped(idx_t column, const Value& value) {
    if (!value.IsNull()) chunk_.data[column].SetValue(row_, value);
  }
  // A value of column `column` that does not fit its type (`seen`: the type
  // the value has): rescued, or an error naming the file, line, column and both types.
  void Mismatch(idx_t column, const nlohmann::ordered_json& original, const std::string& seen);
  // A field the schema does not have (a top-level name, or "a.b" for a field
  // nested in column a): rescued, or dropped without rescue.
  void Unknown(const std::string& field, const nlohmann::ordered_json& original);
  // A record that cannot be read at all: rescued as _corrupt_record, or an error.
  void Malformed(const std::string& problem, const std::string& text);
  void EndRecord();
  // Stores the text `text` of a CSV field cast to the column's type (rescued,
  // or an error, when it does not cast).
  void SetText(idx_t column, std::string_view text);
  // The rows built so far (the builder starts empty again).
  ChunkCollection TakeRows();
  idx_t RecordCount() const { return records_; }

  // InvalidInputError "read_files(): FILE line N: PROBLEM; FIX".
  [[noreturn]] void Fail(const std::string& problem, const std::string& fix) const;

 private:
  void Flush();

  FileSchema schema_;
  std::string rescue_column_;
  std::string file_path_;
  std::string function_;
  std::vector<LogicalType> types_;
  ChunkCollection rows_;
  DataChunk chunk_;
  idx_t row_ = 0;
  idx_t line_ = 0;
  idx_t records_ = 0;
  nlohmann::ordered_json rescued_;
};

// How much of a CSV or JSON-lines file a reader holds at once (plus the one
// record a block's end cuts).
inline constexpr uint64_t kReadBlockBytes = uint64_t{8} << 20;

// A file read in blocks through options.files (FileSystem::For(path) when
// null) with ReadRange. IOErrors as ReadWholeFile's.
class BlockFileReader {
 public:
  BlockFileReader(std::string path, const ReadFilesOptions& options, uint64_t block_size);
  // Appends the next block (up to block_size bytes) to `buffer`; false, with
  // nothing appended, at the end of the file.
  bool Append(std::string& buffer);

 private:
  [[noreturn]] void Fail(const Status& status) const;

  std::string path_;
  const ReadFilesOptions& options_;
  uint64_t block_size_;
  uint64_t offset_ = 0;
  std::optional<uint64_t> size_;  // asked once, before the first block
};

// The records of one file, read a batch at a time into a RecordBuilder.
class FileRecordReader {
 public:
  virtual ~FileRecordReader() = default;
  // Reads up to `max_records` more records (a CSV header counts) into
  // `out`; false once the file has no more (the records of this call are
  // still in `out`).
  virtual bool Read(RecordBuilder& out, idx_t max_records) = 0;
};

// Adds the columns of up to `max_records` records of `path` to `inference`.
void InferFileColumns(const std::string& path, FileFormat format, const ReadFilesOptions& options,
                      SchemaInference& inference, idx_t max_records);
// A reader of `path`'s records; `block_size` is for tests that cut records
// at every byte. `options` must outlive the reader.
std::unique_ptr<FileRecordReader> OpenFileRecords(const std::string& path, FileFormat format,
                                                  const ReadFilesOptions& options, uint64_t block_size = kReadBlockBytes);

// Per-format entry points (json_reader.cpp, csv_reader.cpp, parquet_file_reader.cpp).
void InferJsonColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference, idx_t max_records);
std::unique_ptr<FileRecordReader> OpenJsonRecords(const std::string& path, const ReadFilesOptions& options,
                                                  uint64_t block_size);
void InferCsvColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference, idx_t max_records);
std::unique_ptr<FileRecordReader> OpenCsvRecords(const std::string& path, const ReadFilesOptions& options,
                                                 uint64_t block_size);
// Settles options.auto_header / auto_delimiter from the file at `path` (the
// first of a read): the delimiter among , | ; and tab that splits the first
// rows into the most columns, equally; a header row when one of its fields
// does not read as its column's type below it, or when all columns are text.
void SniffCsv(const std::string& path, ReadFilesOptions& options);
void InferParquetColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference);
void ReadParquetRecords(const std::string& path, const ReadFilesOptions& options, RecordBuilder& out);

// The whole file as text, read through options.files (FileSystem::For(path)
// when null); IOError naming it when it cannot be read.
std::string ReadWholeFile(const std::string& path, const ReadFilesOptions& options);

}  // namespace lakestream
