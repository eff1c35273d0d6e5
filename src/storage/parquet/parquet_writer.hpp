// ParquetWriter: writes engine DataChunks to a Parquet file, without Arrow.
//
//   auto w = ParquetWriter::Create(path, {"id", "name"}, {TypeId::BIGINT, TypeId::VARCHAR}, {});
//   if (!w.ok()) return w.status();
//   LS_RETURN_NOT_OK(w.value()->Append(chunk));   // any number of times
//   auto info = w.value()->Finish();              // footer written, file closed
//
// The file is written at exactly `path` (created or truncated); the caller
// handles atomicity (write to a temporary name and rename, for Delta commits).
// Not thread-safe. Destroying a writer without Finish() leaves a file without
// a footer (not valid Parquet).
//
// Layout: data pages v1 (PLAIN or RLE_DICTIONARY values, RLE levels); one
// dictionary page per column chunk, abandoned for PLAIN in the rest of the
// chunk once it grows past `dictionary_max_bytes`; statistics
// (min_value/max_value/null_count) for every non-nested leaf; column_orders
// (TYPE_ORDER); created_by "lakestream version <LAKESTREAM_VERSION>".
//
// Types: BOOLEAN; INTEGER -> INT32; BIGINT -> INT64; DOUBLE; VARCHAR ->
// BYTE_ARRAY (STRING); DATE -> INT32 (DATE); TIMESTAMP -> INT64
// TIMESTAMP(MICROS, isAdjustedToUTC=true); DECIMAL(p,s) -> INT32 (p <= 9),
// INT64 (p <= 18) or FIXED_LEN_BYTE_ARRAY of the minimal width (as Spark);
// STRUCT -> optional group; LIST -> 3-level LIST (list/element);
// MAP -> MAP (key_value/key required/value). A NULL map key is InvalidArgument.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"

namespace lakestream {

enum class ParquetCodec { kUncompressed, kSnappy, kGzip, kZstd, kLz4Raw };

// Parses "zstd", "snappy", "gzip", "lz4" / "lz4_raw", "uncompressed" / "none"
// (case-insensitive). False for an unknown name.
bool ParquetCodecFromName(const std::string& name, ParquetCodec& out);

struct ParquetWriterOptions {
  ParquetCodec codec = ParquetCodec::kZstd;
  int compression_level = 0;              // 0 = the codec's default (ZSTD: 3)
  idx_t row_group_rows = 1'000'000;       // a row group ends at this many rows...
  idx_t row_group_bytes = 128ULL << 20;   // ...or this many (uncompressed, estimated) bytes
  idx_t page_size = 1ULL << 20;           // target uncompressed data page size
  bool dictionary = true;
  idx_t dictionary_max_bytes = 1ULL << 20;  // PLAIN fallback beyond this dictionary size
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
};

struct ParquetColumnInfo {
  // min/max over non-NULL values (NULL Values when all rows are NULL, for
  // nested columns, and for DOUBLE columns holding only NaN).
  Value min;
  Value max;
  int64_t null_count = 0;  // top-level NULLs
};

struct ParquetFileInfo {
  uint64_t file_size = 0;
  int64_t row_count = 0;
  std::vector<ParquetColumnInfo> columns;  // one per top-level column
};

class ParquetWriter {
 public:
  // Creates (truncates) `path`. InvalidArgument when names and types differ
  // in number or a type cannot be written; IOError when the file cannot be created.
  static Result<std::unique_ptr<ParquetWriter>> Create(const std::string& path, const std::vector<std::string>& names,
                                                       const std::vector<LogicalType>& types,
                                                       const ParquetWriterOptions& options = {});
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  // Appends the chunk's rows. Its column types must equal the writer's.
  Status Append(const DataChunk& chunk);
  // Ends the current row group (when it has rows): rows appended next start a
  // new one. For writers that group rows so readers can skip row groups by
  // their statistics.
  Status EndRowGroup();
  // Flushes the last row group, writes the footer and closes the file.
  Result<ParquetFileInfo> Finish();

  struct Impl;

 private:
  explicit ParquetWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lakestream
