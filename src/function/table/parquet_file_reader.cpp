// Parquet files for read_files(): columns are matched to the schema by name
// (case-insensitive) and cast; schema columns a file lacks are NULL.
#include "common/exception.hpp"
#include "function/table/file_readers.hpp"
#include "storage/parquet/parquet_reader.hpp"

namespace lakestream {

static std::unique_ptr<ParquetReader> OpenParquet(const std::string& path, const ReadFilesOptions& options) {
  auto opened = ParquetReader::Open(path, options.files);
  if (!opened.ok()) {
    throw InvalidInputError(options.function + "(): " + path + " is not a readable Parquet file (" + opened.status().message() +
                            "); remove it from the landing folder or pass the right format");
  }
  return opened.take();
}

void InferParquetColumns(const std::string& path, const ReadFilesOptions& options, SchemaInference& inference) {
  auto reader = OpenParquet(path, options);
  for (idx_t i = 0; i < reader->ColumnNames().size(); i++) inference.Observe(reader->ColumnNames()[i], reader->ColumnTypes()[i]);
}

void ReadParquetRecords(const std::string& path, const ReadFilesOptions& options, RecordBuilder& out) {
  auto reader = OpenParquet(path, options);
  const auto& names = reader->ColumnNames();
  std::vector<idx_t> all;
  std::vector<int64_t> mapping;
  for (idx_t i = 0; i < names.size(); i++) {
    all.push_back(i);
    mapping.push_back(out.Schema().Find(names[i]));
  }
  Status s = reader->Scan(all);
  if (!s.ok()) s.Throw();
  DataChunk chunk;
  idx_t row_number = 0;
  while (true) {
    chunk.Initialize(reader->ProjectedTypes());
    s = reader->ReadChunk(chunk);
    if (!s.ok()) s.Throw();
    if (chunk.size() == 0) break;
    for (idx_t r = 0; r < chunk.size(); r++) {
      // Parquet has no lines: the row number (1-based) stands in for one.
      out.BeginRecord(++row_number);
      for (idx_t c = 0; c < names.size(); c++) {
        Value v = chunk.GetValue(c, r);
        nlohmann::ordered_json original = v.IsNull() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.ToString());
        if (mapping[c] < 0) {
          out.Unknown(names[c], original);
        } else {
          out.SetValue(static_cast<idx_t>(mapping[c]), v, original);
        }
      }
      out.EndRecord();
    }
  }
}

}  // namespace lakestream
