// Schema inference, the row builder shared by the readers, the block reader
// and the format dispatch.
#include <algorithm>

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "function/table/file_readers.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {

void SchemaInference::Observe(const std::string& name, const LogicalType& type) {
  int64_t i = schema_.Find(name);
  if (i < 0) {
    schema_.names.push_back(name);
    schema_.types.push_back(type);
    return;
  }
  schema_.types[i] = MergeInferredTypes(schema_.types[i], type);
}

FileSchema SchemaInference::Finish(bool infer_types, bool resolve_nulls) const {
  FileSchema out = schema_;
  for (auto& t : out.types) t = FinishInferredType(t, infer_types, resolve_nulls);
  return out;
}

RecordBuilder::RecordBuilder(const FileSchema& schema, std::string rescue_column, std::string file_path,
                             std::string function)
    : schema_(schema),
      rescue_column_(std::move(rescue_column)),
      file_path_(std::move(file_path)),
      function_(std::move(function)) {
  types_ = schema_.types;
  if (Rescuing()) types_.push_back(TypeId::VARCHAR);
  rows_.SetTypes(types_);
  chunk_.Initialize(types_);
}

void RecordBuilder::Fail(const std::string& problem, const std::string& fix) const {
  throw InvalidInputError(function_ + "(): " + file_path_ + " line " + std::to_string(line_) + ": " + problem + "; " + fix);
}

void RecordBuilder::BeginRecord(idx_t line) {
  line_ = line;
  rescued_ = nlohmann::ordered_json::object();
  for (idx_t c = 0; c < types_.size(); c++) chunk_.data[c].SetValue(row_, Value(types_[c]));
}

void RecordBuilder::SetValue(idx_t column, const Value& value, const nlohmann::ordered_json& original) {
  const LogicalType& target = schema_.types[column];
  if (value.IsNull()) return;  // already NULL
  if (value.type() == target) {
    chunk_.data[column].SetValue(row_, value);
    return;
  }
  Value cast;
  std::string error;
  // Nested values (Parquet) match STRUCT fields by name, as the schema's
  // field order is that of first appearance across files.
  bool fits = value.type().IsNested() && target.IsNested() ? TryConformValue(value, target, cast)
                                                           : TryCastValue(value, target, cast, &error);
  if (fits && !value.type().IsNested() && value.type().id() != TypeId::VARCHAR && target.id() != TypeId::VARCHAR) {
    // A typed value (Parquet) that a cast would change, like 2.5 into an
    // INTEGER column or a time of day into a DATE, is not silently rounded away.
    Value back;
    fits = TryCastValue(cast, value.type(), back, &error) && back == value;
  }
  if (fits) {
    chunk_.data[column].SetValue(row_, cast);
    return;
  }
  if (Rescuing()) {
    rescued_[schema_.names[column]] = original;
    return;
  }
  Fail("the value " + original.dump() + " of " + schema_.names[column] + " is not a " + target.ToString(),
       "fix the record, declare the column with another type (schema or schemaHints), or pass rescue => true to keep "
       "such values in _rescued_data");
}

void RecordBuilder::SetText(idx_t column, std::string_view text) {
  const LogicalType& target = schema_.types[column];
  Value value{std::string(text)};
  if (target.id() == TypeId::VARCHAR) {
    chunk_.data[column].SetValue(row_, value);
    return;
  }
  Value cast;
  std::string error;
  if (TryCastValue(value, target, cast, &error)) {
    chunk_.data[column].SetValue(row_, cast);
    return;
  }
  // The JSON text of the original is built only for the rescue column or the error.
  SetValue(column, value, nlohmann::ordered_json(std::string(text)));
}

void RecordBuilder::Mismatch(idx_t column, const nlohmann::ordered_json& original, const std::string& seen) {
  if (Rescuing()) {
    rescued_[schema_.names[column]] = original;
    return;
  }
  std::string value = original.dump();
  if (value.size() > 80) value = value.substr(0, 77) + "...";
  Fail("column " + schema_.names[column] + " is " + TypeForMessage(schema_.types[column]) + " but this record has " + seen +
           " " + value,
       "fix the record, declare the column with a type that holds both (schemaHints => '" + schema_.names[column] +
           " STRING'), or pass rescue => true (schemaEvolutionMode => 'rescue' in a streaming table) to keep such values "
           "in _rescued_data");
}

void RecordBuilder::Unknown(const std::string& field, const nlohmann::ordered_json& original) {
  if (Rescuing() && field != rescue_column_) rescued_[field] = original;
}

void RecordBuilder::Malformed(const std::string& problem, const std::string& text) {
  if (!Rescuing()) {
    Fail(problem, "fix the record, or pass rescue => true to keep malformed records in _rescued_data");
  }
  rescued_["_corrupt_record"] = text;
}

void RecordBuilder::EndRecord() {
  if (Rescuing() && !rescued_.empty()) {
    rescued_["_file_path"] = file_path_;
    chunk_.data[types_.size() - 1].SetValue(row_, Value(rescued_.dump()));
  }
  records_++;
  row_++;
  chunk_.SetCardinality(row_);
  if (row_ == STANDARD_VECTOR_SIZE) Flush();
}

void RecordBuilder::Flush() {
  if (row_ == 0) return;
  chunk_.SetCardinality(row_);
  rows_.Append(chunk_);
  chunk_ = DataChunk();
  chunk_.Initialize(types_);
  row_ = 0;
}

ChunkCollection RecordBuilder::TakeRows() {
  Flush();
  ChunkCollection out = std::move(rows_);
  rows_ = ChunkCollection(types_);
  return out;
}

std::string ReadWholeFile(const std::string& path, const ReadFilesOptions& options) {
  // The file system's reader writes a local file into memory once (sized by
  // fstat), not through a stream into a doubling buffer.
  FileSystem* fs = options.files ? options.files : FileSystem::For(path);
  auto bytes = fs->ReadFile(path);
  if (!bytes.ok()) {
    if (!IsRemotePath(path) && bytes.status().IsNotFound()) {
      throw IOError(options.function + "(): cannot open " + path + "; check that it exists and is readable");
    }
    throw IOError(options.function + "(): cannot read " + path + ": " + bytes.status().message());
  }
  return bytes.take();
}

BlockFileReader::BlockFileReader(std::string path, const ReadFilesOptions& options, uint64_t block_size)
    : path_(std::move(path)), options_(options), block_size_(block_size) {}

void BlockFileReader::Fail(const Status& status) const {
  if (!IsRemotePath(path_) && status.IsNotFound()) {
    throw IOError(options_.function + "(): cannot open " + path_ + "; check that it exists and is readable");
  }
  throw IOError(options_.function + "(): cannot read " + path_ + ": " + status.message());
}

bool BlockFileReader::Append(std::string& buffer) {
  FileSystem* fs = options_.files ? options_.files : FileSystem::For(path_);
  if (!size_) {
    // Read up to the size the file has now: an object store refuses a range
    // that starts at the end (416), and a file still being written is read
    // as it was when the read began.
    auto size = fs->FileSize(path_);
    if (!size.ok()) Fail(size.status());
    size_ = size.value();
  }
  if (offset_ >= *size_) return false;
  auto bytes = fs->ReadRange(path_, offset_, std::min(block_size_, *size_ - offset_));
  if (!bytes.ok()) Fail(bytes.status());
  const std::string& block = bytes.value();
  if (block.empty()) {
    size_ = offset_;  // the file shrank
    return false;
  }
  offset_ += block.size();
  buffer += block;
  return true;
}

void InferFileColumns(const std::string& path, FileFormat format, const ReadFilesOptions& options,
                      SchemaInference& inference, idx_t max_records) {
  switch (format) {
    case FileFormat::JSON: return InferJsonColumns(path, options, inference, max_records);
    case FileFormat::CSV: return InferCsvColumns(path, options, inference, max_records);
    case FileFormat::PARQUET: return InferParquetColumns(path, options, inference);
    case FileFormat::UNKNOWN: break;
  }
  throw InternalError("read_files(): no format for " + path);
}

namespace {

// A Parquet file in one batch (ReadParquetRecords decodes it whole).
class ParquetRecordReader : public FileRecordReader {
 public:
  ParquetRecordReader(std::string path, const ReadFilesOptions& options) : path_(std::move(path)), options_(options) {}
  bool Read(RecordBuilder& out, idx_t) override {
    ReadParquetRecords(path_, options_, out);
    return false;
  }

 private:
  std::string path_;
  const ReadFilesOptions& options_;
};

}  // namespace

std::unique_ptr<FileRecordReader> OpenFileRecords(const std::string& path, FileFormat format,
                                                  const ReadFilesOptions& options, uint64_t block_size) {
  switch (format) {
    case FileFormat::JSON: return OpenJsonRecords(path, options, block_size);
    case FileFormat::CSV: return OpenCsvRecords(path, options, block_size);
    case FileFormat::PARQUET: return std::make_unique<ParquetRecordReader>(path, options);
    case FileFormat::UNKNOWN: break;
  }
  throw InternalError("read_files(): no format for " + path);
}

}  // namespace lakestream
