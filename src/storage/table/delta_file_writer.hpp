// DeltaFileWriter: turns rows of a Delta table into Parquet files and the
// add (data) or cdc (change data) actions that name them.
//
// Rows are grouped by their partition values; partition columns are not
// stored in the files (Delta convention) but in the action's partitionValues
// and in the directory name (`col=value/`). Change data files live under
// `_change_data/` and carry an extra `_change_type` column. Files are invisible
// until a commit names them, so they are written in place; a statement that
// fails before its commit is visible deletes them with Abort() (VACUUM only
// removes what a crash left behind).
//
// Memory stays bounded whatever the number of rows: an unpartitioned table's
// rows go straight into the open file as they are appended, and a file ends
// (a new one starts) once it reaches the target file size
// (delta.targetFileSize). A partitioned table's rows are grouped per
// partition in small batches: once kPartitionBatchRows rows are held, each
// partition's batch is written to that partition's open file as a row group,
// and its files roll at the target size the same way. The writer does not
// fsync: Finish() lists what must be durable before the commit, and the
// commit makes all of a commit's files durable at once (DeltaLog::Commit's
// `first`).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/chunk_collection.hpp"
#include "common/file_system.hpp"
#include "storage/data_table.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/row_tracking.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream {

class DataFilePool;

class DeltaFileWriter {
 public:
  // `columns`: every table column in table order. For change data, rows carry
  // one more VARCHAR column, the change type. `table_name` names the table
  // in errors.
  // `fs`: the table's file system (DeltaTable::SharedFs), kept alive while
  // the writer may still delete what it wrote (Abort), which can be after
  // the table object is gone (a failed CREATE TABLE AS).
  DeltaFileWriter(std::shared_ptr<FileSystem> fs, std::string table_name, std::string table_path, std::vector<TableColumn> columns,
                  const std::vector<std::string>& partition_columns, bool change_data);
  DeltaFileWriter(const DeltaFileWriter&) = delete;
  DeltaFileWriter& operator=(const DeltaFileWriter&) = delete;

  // `rows`: every table column in table order (+ the change type).
  // InvalidInputError when a value cannot be stored (one larger than the
  // largest value a Parquet file of lakestream's holds, ...; see
  // ParquetWriter::Append), IOError when a file cannot be written.
  void Append(const DataChunk& rows);
  // Column mapping (storage/delta/column_mapping.hpp): when `metadata` sets
  // mode name or id, files name columns and STRUCT fields by their physical
  // names in `schema` (with field ids in mode id), partition values and
  // statistics are keyed by physical name, and each file goes to a random
  // two-character folder instead of `col=value/` (names may hold any
  // character; Spark does the same). Call before the first Append.
  // NotImplementedError naming the column when a column has no entry in `schema`.
  void MapColumns(const delta::Metadata& metadata, const std::vector<delta::DeltaColumn>& schema);
  // Row tracking (storage/delta/row_tracking.hpp): data files get two more
  // BIGINT columns, `columns.row_id` and `columns.row_commit_version`, which
  // are in neither the table's schema nor the statistics. Rows may then
  // carry them after the table columns; rows without them store NULLs
  // (fresh values). Call after MapColumns, before the first Append; not for
  // change data.
  void AddRowTrackingColumns(const delta::MaterializedColumns& columns);
  // A file ends once it reaches about `bytes` (0: one file per partition).
  // Set before the first Append.
  void SetTargetFileSize(uint64_t bytes) { target_file_size_ = bytes; }
  // Files that only reorganise rows (OPTIMIZE) are added with dataChange = false.
  void SetDataChange(bool data_change) { data_change_ = data_change; }
  idx_t RowCount() const { return row_count_; }
  // Writes the files; returns one add (or cdc) action per file. Adds to
  // `durable` each file written and every directory from the file's up to the
  // table root (its name, or a new subdirectory's name, is new there), which
  // the caller must make durable before a commit names the files.
  std::vector<delta::Action> Finish(int64_t now_ms, DurableSet& durable);
  // Deletes every file this writer created, finished or half written. Only
  // for a commit that is known not to be visible. Best effort: a file that
  // cannot be deleted is left for VACUUM.
  void Abort();

 private:
  struct OpenFile {
    std::string relative;  // the path the action names
    std::string full;
    std::unique_ptr<ParquetWriter> writer;
    bool pooled = false;  // its name came from the DataFilePool: durable already
  };
  struct Partition {
    delta::PartitionValues values;
    std::string directory;  // "a=1/b=x/"
    ChunkCollection rows;   // data columns (+ _change_type) not yet written
    std::optional<OpenFile> file;
  };

  // Creates the next file in the partition `directory` ("" for the root):
  // a pooled name when the folder has one (DataFilePool), else a new one.
  OpenFile Open(const std::string& directory);
  // Opens a pooled name of `folder` into `file`; false when there is none or
  // it vanished (the caller then makes a name of its own).
  bool OpenPooled(const std::string& folder, const ParquetWriterOptions& options, OpenFile& file);
  // Closes `file` (its writer failed) and throws the error for `s`.
  [[noreturn]] void Fail(OpenFile& file, const Status& s);
  void Write(OpenFile& file, const DataChunk& rows);
  // Finishes `file` into closed_ when it has reached the target size.
  void RollIfFull(std::optional<OpenFile>& file, const delta::PartitionValues& values);
  // Writes every partition's batch to its file, each as a row group.
  void FlushPartitions();
  // Finishes the file into closed_ (its add or cdc action) and durable_.
  void Close(OpenFile& file, const delta::PartitionValues& values);

  std::shared_ptr<FileSystem> fs_;
  std::shared_ptr<DataFilePool> pool_;  // the table's, when a table object holds one
  std::string table_name_;
  std::string table_path_;
  std::vector<TableColumn> columns_;
  std::vector<idx_t> partition_indexes_;  // positions of partition columns in columns_
  std::vector<idx_t> data_indexes_;       // positions of the other columns (+ change type)
  std::vector<std::string> data_names_;
  std::vector<std::string> partition_names_;  // per partition column: its key in partitionValues
  std::vector<ParquetField> data_fields_;     // column mapping: per data column, its names in the file
  bool mapped_ = false;
  std::vector<LogicalType> data_types_;
  // Data columns that get statistics: all but the row tracking ones (last).
  idx_t stats_columns_ = 0;
  bool change_data_;
  bool data_change_ = true;
  std::map<std::string, Partition> partitions_;  // partitioned tables
  std::optional<OpenFile> stream_;               // unpartitioned tables: the file being written
  idx_t partition_rows_ = 0;                     // rows held in partitions_' batches
  uint64_t target_file_size_ = 0;
  std::vector<delta::Action> closed_;            // finished files (modification time set by Finish)
  DurableSet durable_;                           // what closed_'s files need made durable
  int file_number_ = 0;
  std::vector<std::string> created_;  // full paths of every file Open() created
  idx_t row_count_ = 0;
};

// delta.targetFileSize when the table does not set it: 256 MB. Databricks
// documents no default for the property; its file size autotuning picks
// 256 MB for tables below 2.56 TB, which covers what lakestream writes.
inline constexpr uint64_t kDefaultTargetFileSize = 256ULL << 20;

// The target file size `properties` ask for (delta.targetFileSize), or
// kDefaultTargetFileSize when unset or unreadable (CREATE/ALTER refuse an
// unreadable value: CheckDeltaTableProperty).
uint64_t TargetFileSizeOf(const std::map<std::string, std::string>& properties);

// A random version-4 UUID in its canonical text form.
std::string NewUuid();

// A new data file name: "<kind>-<number, 5 digits>-<uuid>.c000.parquet" (kind
// "part" for data, "cdc" for change data). Codec-neutral: a file's column
// chunks may be ZSTD or, when small, UNCOMPRESSED (parquet_writer.hpp).
std::string NewDataFileName(std::string_view kind, int number);

// True for the name (no folder) DeltaFileWriter gives a data or change data
// file: "part-00000-<uuid>.c000.parquet", "cdc-00000-<uuid>..." (and the
// ".c000.zstd.parquet" of older lakestream versions). VACUUM
// deletes such a file that no commit names (a writer died before its commit);
// any other file must be named by the table's log.
bool IsWrittenDataFileName(std::string_view name);

}  // namespace lakestream
