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
// (min_value/max_value/null_count) for every non-nested leaf (min/max left
// out when longer than parquet::kMaxStatisticsValueBytes); column_orders
// (TYPE_ORDER); created_by "lakestream version <LAKESTREAM_VERSION>".
// Every file stays within the limits ParquetReader enforces
// (parquet_limits.hpp): pages are split by size and entry count, row
// groups end before a nested leaf holds too many entries, and values no
// readable page can hold are refused by Append. Create refuses a type
// nested deeper than parquet::kMaxSchemaDepth.
//
// Types: BOOLEAN; INTEGER -> INT32; BIGINT -> INT64; DOUBLE; VARCHAR ->
// BYTE_ARRAY (STRING); DATE -> INT32 (DATE); TIMESTAMP -> INT64
// TIMESTAMP(MICROS, isAdjustedToUTC=true); DECIMAL(p,s) -> INT32 (p <= 9),
// INT64 (p <= 18) or FIXED_LEN_BYTE_ARRAY of the minimal width (as Spark);
// STRUCT -> optional group; LIST -> 3-level LIST (list/element);
// MAP -> MAP (key_value/key required/value). A NULL map key is InvalidArgument.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/file_system.hpp"
#include "common/status.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"
#include "storage/parquet/parquet_limits.hpp"

namespace lakestream {

enum class ParquetCodec { kUncompressed, kSnappy, kGzip, kZstd, kLz4Raw };

// Parses "zstd", "snappy", "gzip", "lz4" / "lz4_raw", "uncompressed" / "none"
// (case-insensitive). False for an unknown name.
bool ParquetCodecFromName(const std::string& name, ParquetCodec& out);

// How one column (or nested field) is named in the file and its field_id,
// where they differ from the engine type's names: Delta column mapping
// writes physical names and, in mode id, field ids.
struct ParquetField {
  std::string name;                 // empty: the default (always so for LIST elements and MAP keys/values)
  std::optional<int32_t> field_id;  // SchemaElement.field_id
  // STRUCT: one per field, in order; LIST: {element}; MAP: {key, value};
  // fewer (or none): the rest keep their defaults.
  std::vector<ParquetField> children;
};

// ParquetWriterOptions::uncompressed_below for table data files: column
// chunks under 64 KiB (a commit of up to about 8,000 BIGINTs or 4,000
// DECIMAL(38,s) per column: a view refresh's change file of 1,000 update
// pairs, whose sums are 16-byte decimals, is 32 KiB a column).
constexpr idx_t kSmallChunkUncompressedBytes = 64 << 10;

// Sizes beyond the limits of parquet_limits.hpp are lowered to them.
struct ParquetWriterOptions {
  ParquetCodec codec = ParquetCodec::kZstd;
  int compression_level = 0;              // 0 = the codec's default (ZSTD: 3)
  // A column chunk written as one page smaller than this many bytes
  // (uncompressed, with its dictionary) is stored UNCOMPRESSED (the
  // chunk's codec in the footer says so; every reader handles it). 0: off,
  // every chunk uses `codec` (COPY ... (COMPRESSION x) gets what it names).
  // Table data files use kSmallChunkUncompressedBytes: a codec costs a fixed
  // ~10 us per page whatever its size (ZSTD level 3 on this machine class:
  // 11 us for 1 KiB, 28 us for 4 KiB, 52 us for 8 KiB, at a ratio of ~0.37),
  // so the one-page chunks of a small commit (a view refresh, a few-row
  // INSERT) spent more time compressing than their few KiB cost to write.
  idx_t uncompressed_below = 0;
  idx_t row_group_rows = 1'000'000;       // a row group ends at this many rows...
  idx_t row_group_bytes = 128ULL << 20;   // ...or this many (uncompressed, estimated) bytes
  // Target uncompressed data page size (<= parquet::kMaxTargetPageBytes): a
  // page ends before the value that would take it past the target, so only
  // a single larger value makes a larger page.
  idx_t page_size = 1ULL << 20;
  bool dictionary = true;
  idx_t dictionary_max_bytes = 1ULL << 20;  // PLAIN fallback beyond this dictionary size
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
  // Empty, or per top-level column: the names and field ids the file's
  // schema uses instead of Create's `names` and the types' field names
  // (which still name columns in errors).
  std::vector<ParquetField> fields;
  // How errors about values name the file's owner ("column s of table h");
  // empty: by the file's path.
  std::string label;
  // Append refuses a string longer than this, and a row of a nested column
  // with more level entries than this; a row group ends before its nested
  // columns pass it. Tests lower them; the defaults are the format's limits.
  uint64_t max_value_bytes = parquet::kMaxValueBytes;
  int64_t max_nested_entries = parquet::kMaxNestedEntries;
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
  // `fs` (when given) opens a local `path` (FileSystem::OpenFile): a
  // confined file system then creates it beneath its roots only.
  static Result<std::unique_ptr<ParquetWriter>> Create(const std::string& path, const std::vector<std::string>& names,
                                                       const std::vector<LogicalType>& types,
                                                       const ParquetWriterOptions& options = {},
                                                       FileSystem* fs = nullptr);
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  // Appends the chunk's rows. Its column types must equal the writer's.
  // InvalidArgument, with nothing of the chunk written, when a value is
  // beyond the limits no Parquet file of lakestream's may pass (a string
  // longer than max_value_bytes, a row of a nested column with more than
  // max_nested_entries entries, a NULL map key); the message names the
  // column ("column s of <label>: ...") and the limit.
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
