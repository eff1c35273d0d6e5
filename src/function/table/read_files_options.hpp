// read_files() arguments: the path (a file, a directory or a glob) and the
// named options that say how to read the files. Shared by the readers, schema
// inference and the streaming-table executor.
//
//   read_files('landing/', format => 'json' | 'csv' | 'parquet',
//              header => true | false | 'auto', delimiter => ';' | 'auto', quote => '"',
//              schema => 'id BIGINT, name STRING', schemaHints => 'amount DECIMAL(10,2)',
//              rescue => true, rescuedDataColumn => '_rescued_data',
//              inferColumnTypes => true, multiLine => false)
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/value.hpp"

namespace lakestream {

enum class FileFormat : uint8_t { UNKNOWN, JSON, CSV, PARQUET };
const char* FileFormatName(FileFormat format);

// Column names and types of the rows read from files (without the rescue column).
struct FileSchema {
  std::vector<std::string> names;
  std::vector<LogicalType> types;

  idx_t size() const { return names.size(); }
  bool empty() const { return names.empty(); }
  // Index of `name` (case-insensitive), or -1.
  int64_t Find(const std::string& name) const;
  // [{"name": "id", "type": "BIGINT"}, ...] (the streaming table's state keeps it).
  nlohmann::json ToJson() const;
  static FileSchema FromJson(const nlohmann::json& json);
  // "id BIGINT, name VARCHAR" (for messages).
  std::string ToString() const;
};

// Parses a column list such as "id BIGINT, name STRING"; BinderError naming
// `what` (e.g. "read_files() option schema") when it is not one.
FileSchema ParseSchemaString(const std::string& text, const std::string& what);

class FileSystem;

struct ReadFilesOptions {
  // The table function the user called (read_files, read_csv, read_json,
  // ...), named by every error of the bind and of the readers.
  std::string function = "read_files";
  std::string path_argument;  // the first argument as written (messages, state keys)
  // What the files are read through (ExternalAccessPolicy::Files(), set at
  // bind): confined beneath the allowed folders once external access is
  // off. Null: FileSystem::For(path). Lives as long as the database.
  FileSystem* files = nullptr;
  std::vector<std::string> patterns;
  FileFormat format = FileFormat::UNKNOWN;  // UNKNOWN: from the first file's extension
  // CSV
  bool header = false;
  char delimiter = ',';
  char quote = '"';
  // DuckDB's sniffing (header => 'auto' and delimiter => 'auto', the
  // defaults of read_csv() and of FROM 'file.csv'): at bind, the first file
  // decides them (SniffCsv in file_readers.hpp).
  bool auto_header = false;
  bool auto_delimiter = false;
  // Names of columns without a header name: "_c" gives Spark's _c0, _c1, ...;
  // "column" DuckDB's column0, column1, ... (which also makes a repeated
  // header name unique as DuckDB does: a, a_1).
  std::string unnamed_prefix = "_c";
  // A declared schema's columns are the file's columns by position, the
  // header's names ignored (DuckDB's read_csv(columns = ...)); otherwise a
  // header name picks its column.
  bool columns_by_position = false;
  // JSON: the whole file is one value (an object or an array of objects)
  // instead of one object per line. Files starting with '[' are read whole anyway.
  bool multi_line = false;
  // Declared schema (replaces inference) and hints (override inferred types).
  FileSchema schema;
  FileSchema hints;
  bool infer_types = true;  // false: every inferred column is VARCHAR
  // The column that receives what does not fit the schema; "" = off (a bad
  // record is an error naming the file and line).
  std::string rescue_column;
  // Streaming tables over object storage: list only the keys after the
  // newest file already ingested under each folder (useIncrementalListing
  // 'auto', the default, or 'true'), with a full listing at a process's
  // first refresh and then every backfill_interval_ms (backfillInterval),
  // which finds files whose keys sort before ones already ingested.
  bool incremental_listing = true;
  int64_t backfill_interval_ms = 3600000;
  // Streaming tables: a file already ingested whose size or modification
  // time changed is read again, whole (allowOverwrites, as Auto Loader's
  // cloudFiles.allowOverwrites); by default it is reported and not read.
  bool allow_overwrites = false;
};

// Reads the arguments of a read_files() call (or of `function`, whose
// options were translated into read_files()'s). Throws BinderError naming
// `function` for an unknown option (with the list of known ones) or a bad value.
ReadFilesOptions ParseReadFilesOptions(const std::vector<Value>& args, const std::vector<std::string>& names,
                                       const std::string& function = "read_files");

// Sets DuckDB's defaults on options parsed for read_csv()/read_json() and
// FROM 'file': sniffed header and delimiter (unless given), column0 naming.
void UseDuckDBCsvDefaults(ReadFilesOptions& options, bool header_given, bool delimiter_given);

// The format of `path` from its extension, or UNKNOWN.
FileFormat FormatFromExtension(const std::string& path);

}  // namespace lakestream
