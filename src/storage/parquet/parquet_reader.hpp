// ParquetReader: reads a Parquet file into the engine's DataChunks, without
// Arrow. Thread-compatible: one reader per thread; distinct readers of the
// same file are independent.
//
//   auto r = ParquetReader::Open(path);          // reads and checks the footer
//   if (!r.ok()) return r.status();
//   auto& reader = *r.value();
//   LS_RETURN_NOT_OK(reader.Scan({0, 2}, {{0, CompareOp::kGreater, Value::BIGINT(10)}}));
//   DataChunk chunk;
//   chunk.Initialize(reader.ProjectedTypes());
//   while (true) {
//     LS_RETURN_NOT_OK(reader.ReadChunk(chunk));
//     if (chunk.size() == 0) break;
//     ...
//   }
//
// Type mapping (top-level columns):
//   BOOLEAN -> BOOLEAN; INT32 (also INT_8/INT_16/INT_32, UINT_8/UINT_16) -> INTEGER;
//   INT64, UINT_32, UINT_64 (bit pattern kept), TIME -> BIGINT; FLOAT/DOUBLE -> DOUBLE;
//   BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY (string, enum, json, binary, uuid) -> VARCHAR (bytes as is);
//   DATE -> DATE; TIMESTAMP millis/micros/nanos and INT96 -> TIMESTAMP (microseconds UTC;
//   nanos are floored), TIMESTAMP_NTZ when isAdjustedToUTC=false; DECIMAL (INT32/INT64/FLBA/BYTE_ARRAY, p <= 38) -> DECIMAL(p,s).
//   Groups: STRUCT; LIST-annotated groups (3-level, legacy 2-level, `array`/`_tuple`
//   element names) and bare repeated fields -> LIST; MAP / MAP_KEY_VALUE -> MAP.
//
// Errors: malformed files give Status::Corruption whose message starts with the
// file's path; unsupported features (e.g. LZO, BROTLI) give Status::NotSupported.
// Hostile input never crashes the process, never reads outside the file and
// never allocates more than a bounded multiple of the file size (a page may
// claim at most kMaxPageBytes uncompressed bytes). The limits it enforces are
// those of parquet_limits.hpp, which ParquetWriter honours.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"
#include "storage/parquet/parquet_writer.hpp"
#include "storage/parquet/parquet_limits.hpp"

namespace lakestream {

class FileSystem;

enum class CompareOp { kEqual, kLess, kLessEqual, kGreater, kGreaterEqual, kAnyNotNull };

// A top-level column (index into ColumnNames()), or with `field` one
// non-nested field of a STRUCT column.
struct ParquetColumnRef {
  idx_t column;
  std::string field;
};

// column < value etc., on a top-level column, or (kAnyNotNull; `column` and
// `value` unused) "at least one of `any_not_null` IS NOT NULL". Filters only
// let the reader skip row groups whose statistics prove that no row can
// match; the rows returned are NOT filtered (the caller must still evaluate
// its predicate).
struct ParquetFilter {
  idx_t column;
  CompareOp op;
  Value value;
  std::vector<ParquetColumnRef> any_not_null;
};

// A top-level column to scan, and for a STRUCT column optionally only some of
// its fields: `fields` names them (in any order; the scan keeps the file's
// order, and names the file lacks are ignored); empty means all fields. Only
// the leaves of the kept fields are decompressed and decoded, so a caller
// that needs two fields of a wide struct pays for two.
struct ParquetProjection {
  idx_t column;
  std::vector<std::string> fields;
};

struct ParquetColumnStats {
  // min/max as engine Values of the column's type; NULL Values when the file
  // has no (usable) statistics. Only for non-nested columns.
  Value min;
  Value max;
  std::optional<int64_t> null_count;
};

class ParquetReader {
 public:
  static constexpr uint64_t kMaxPageBytes = parquet::kMaxPageBytes;

  // Opens `path` and parses its footer and schema. A local file is
  // memory-mapped; a remote one (s3://) is read with OpenRanged.
  // `fs` (when given) opens the local file (FileSystem::OpenFile, then
  // mapped as before): a confined file system opens it beneath its roots
  // only; one that cannot hand out descriptors is read with OpenRanged.
  static Result<std::unique_ptr<ParquetReader>> Open(const std::string& path, FileSystem* fs = nullptr);
  // Reads `path` through `fs` (not owned; must outlive the reader) with range
  // reads: its end for the footer (one request, two for a footer over
  // 64 KiB), then per row group only the column chunks the scan projects,
  // the next row group's fetched in the background while the current one is
  // decoded (parquet_remote_source.hpp). Memory holds about two row groups
  // of projected columns, not the file.
  static Result<std::unique_ptr<ParquetReader>> OpenRanged(const std::string& path, FileSystem* fs);
  // Reads a file image held in memory; `name` is used in error messages.
  static Result<std::unique_ptr<ParquetReader>> OpenBuffer(const std::string& name, std::string data);

  ~ParquetReader();
  ParquetReader(const ParquetReader&) = delete;
  ParquetReader& operator=(const ParquetReader&) = delete;

  const std::string& path() const;
  const std::vector<std::string>& ColumnNames() const;
  const std::vector<LogicalType>& ColumnTypes() const;
  // The names and field ids of a top-level column's Parquet elements, shaped
  // as ParquetWriterOptions::fields (STRUCT fields; the LIST element; the MAP
  // key and value, with empty names). Field ids are absent where the file
  // has none.
  ParquetField ColumnFields(idx_t column) const;
  int64_t RowCount() const;
  idx_t RowGroupCount() const;
  const std::string& CreatedBy() const;
  // Key/value metadata of the footer, e.g. Spark's schema JSON.
  std::vector<std::pair<std::string, std::string>> KeyValueMetadata() const;
  // Statistics of a top-level column in a row group (NULL min/max for nested
  // columns, or when the writer wrote none or only unreliable legacy ones).
  ParquetColumnStats ColumnStatistics(idx_t rg, idx_t column) const;

  // Starts (or restarts) a scan of the given top-level columns in that order.
  // Row groups that `filters` prove empty are skipped. InvalidArgument for an
  // unknown column index.
  Status Scan(const std::vector<idx_t>& column_ids, const std::vector<ParquetFilter>& filters = {});
  // The same, with struct columns narrowed to some of their fields
  // (ProjectedTypes() then gives the narrowed STRUCT types). InvalidArgument
  // when `fields` is given for a column that is not a STRUCT, or names none of
  // its fields.
  Status ScanProjected(const std::vector<ParquetProjection>& columns, const std::vector<ParquetFilter>& filters = {});
  // Types of the columns of the current scan, for DataChunk::Initialize.
  std::vector<LogicalType> ProjectedTypes() const;
  // Fills `out` with the next up to STANDARD_VECTOR_SIZE rows. `out` must have
  // been Initialize()d by the caller with ProjectedTypes(); ReadChunk resets
  // it first. out.size() == 0 means the scan is over. Strings point into
  // heaps that `out` keeps alive (they outlive the reader).
  Status ReadChunk(DataChunk& out);
  // Number of row groups the current scan skipped thanks to statistics.
  idx_t RowGroupsSkipped() const;

  struct Impl;

 private:
  explicit ParquetReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lakestream
