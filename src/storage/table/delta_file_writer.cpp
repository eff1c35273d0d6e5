#include "storage/table/delta_file_writer.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "common/delta_table_properties.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "storage/delta/column_mapping.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/delta_stats.hpp"
#include "storage/parquet/parquet_writer.hpp"
#include "storage/table/data_file_pool.hpp"

namespace lakestream {

std::string NewUuid() {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  uint64_t a = rng(), b = rng();
  a = (a & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  b = (b & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // variant 1
  char buf[40];
  snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a >> 32),
           static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xffff), static_cast<unsigned>(b >> 48),
           static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

std::string NewDataFileName(std::string_view kind, int number) {
  char prefix[32];
  snprintf(prefix, sizeof(prefix), "-%05d-", number);
  return std::string(kind) + prefix + NewUuid() + ".c000.parquet";
}

bool IsWrittenDataFileName(std::string_view name) {
  constexpr std::string_view kSuffix = ".c000.parquet";
  constexpr std::string_view kOldSuffix = ".c000.zstd.parquet";  // before the names were codec-neutral
  constexpr size_t kUuid = 36;
  size_t prefix = name.starts_with("part-") ? 5 : name.starts_with("cdc-") ? 4 : 0;
  size_t suffix = name.ends_with(kOldSuffix) ? kOldSuffix.size() : name.ends_with(kSuffix) ? kSuffix.size() : 0;
  if (prefix == 0 || suffix == 0) return false;
  std::string_view middle = name.substr(prefix, name.size() - prefix - suffix);  // 00000-<uuid>
  size_t dash = middle.find('-');
  if (dash == std::string_view::npos || dash < 5 || middle.size() != dash + 1 + kUuid) return false;
  for (size_t i = 0; i < dash; i++) {
    if (middle[i] < '0' || middle[i] > '9') return false;
  }
  std::string_view uuid = middle.substr(dash + 1);
  for (size_t i = 0; i < kUuid; i++) {
    bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
    char c = uuid[i];
    if (hyphen != (c == '-')) return false;
    if (!hyphen && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

uint64_t TargetFileSizeOf(const std::map<std::string, std::string>& properties) {
  for (auto& [key, value] : properties) {
    uint64_t bytes = 0;
    if (StringUtil::CIEquals(key, "delta.targetFileSize") && ParseByteSize(value, bytes) && bytes > 0) return bytes;
  }
  return kDefaultTargetFileSize;
}

// A partitioned table's rows wait in per-partition batches until this many
// are held: enough for useful row groups, few enough to bound memory.
static constexpr idx_t kPartitionBatchRows = 1 << 20;
// Files left open across batches; beyond it every partition's file ends at
// each batch, so a table with many partitions does not run out of descriptors.
static constexpr idx_t kMaxOpenPartitionFiles = 64;

// Directory names escape the characters Hive-style partition paths escape.
static std::string EscapePartitionValue(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if (c < 0x20 || c == '"' || c == '#' || c == '%' || c == '\'' || c == '*' || c == '/' || c == ':' || c == '=' ||
        c == '?' || c == '\\' || c == 0x7f || c == '{' || c == '[' || c == ']' || c == '^') {
      char buf[4];
      snprintf(buf, sizeof(buf), "%%%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

DeltaFileWriter::DeltaFileWriter(std::shared_ptr<FileSystem> fs, std::string table_name, std::string table_path,
                                 std::vector<TableColumn> columns, const std::vector<std::string>& partition_columns,
                                 bool change_data)
    : fs_(std::move(fs)),
      table_name_(std::move(table_name)),
      table_path_(std::move(table_path)),
      columns_(std::move(columns)),
      change_data_(change_data) {
  pool_ = DataFilePool::Find(table_path_);
  for (idx_t i = 0; i < columns_.size(); i++) {
    bool is_partition = false;
    for (auto& p : partition_columns) is_partition |= StringUtil::CIEquals(p, columns_[i].name);
    if (is_partition) {
      partition_indexes_.push_back(i);
      partition_names_.push_back(columns_[i].name);
    } else {
      data_indexes_.push_back(i);
      data_names_.push_back(columns_[i].name);
      data_types_.push_back(columns_[i].type);
    }
  }
  if (change_data_) {
    data_indexes_.push_back(columns_.size());
    data_names_.push_back("_change_type");
    data_types_.push_back(TypeId::VARCHAR);
  }
  stats_columns_ = data_indexes_.size();
}

void DeltaFileWriter::AddRowTrackingColumns(const delta::MaterializedColumns& columns) {
  if (change_data_) throw InternalError("row tracking columns asked for in change data files");
  for (const std::string* name : {&columns.row_id, &columns.row_commit_version}) {
    data_indexes_.push_back(columns_.size() + (data_indexes_.size() - stats_columns_));
    data_names_.push_back(*name);
    data_types_.push_back(TypeId::BIGINT);
    if (mapped_) data_fields_.push_back(ParquetField{*name, std::nullopt, {}});
  }
}

// Copies column `source` of `rows` (selected by `sel`, or all) into `target`;
// a source past the chunk's columns (row tracking values the rows do not
// carry) is all NULL.
static void CopyColumn(const DataChunk& rows, idx_t source, const sel_t* sel, idx_t count, Vector& target) {
  if (source < rows.ColumnCount()) {
    target.Copy(rows.data[source], sel, count, 0, 0);
    return;
  }
  for (idx_t r = 0; r < count; r++) target.SetValid(r, false);
}

void DeltaFileWriter::MapColumns(const delta::Metadata& metadata, const std::vector<delta::DeltaColumn>& schema) {
  std::string mode = delta::ColumnMappingModeOf(metadata.configuration);
  if (mode == "none") return;
  auto mapped = [&](idx_t column) {
    for (auto& c : schema) {
      if (StringUtil::CIEquals(c.name, columns_[column].name)) return delta::MappedParquetField(c, mode);
    }
    throw NotImplementedError("Column " + columns_[column].name + " of table " + table_name_ +
                              " has no column mapping entry (delta.columnMapping.mode = " + mode +
                              "); add it with ALTER TABLE " + table_name_ + " ADD COLUMN first");
  };
  mapped_ = true;
  for (idx_t p = 0; p < partition_indexes_.size(); p++) partition_names_[p] = mapped(partition_indexes_[p]).name;
  data_fields_.clear();
  for (idx_t c = 0; c < data_indexes_.size(); c++) {
    if (data_indexes_[c] >= columns_.size()) {
      data_fields_.push_back(ParquetField{data_names_[c], std::nullopt, {}});  // _change_type
      continue;
    }
    data_fields_.push_back(mapped(data_indexes_[c]));
  }
}

// Spark's random file prefix: two characters of [A-Za-z0-9].
static std::string RandomPrefix() {
  static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static thread_local std::mt19937_64 rng(std::random_device{}());
  std::string out;
  for (int i = 0; i < 2; i++) out += kChars[rng() % (sizeof(kChars) - 1)];
  return out;
}

void DeltaFileWriter::Append(const DataChunk& rows) {
  if (rows.size() == 0) return;
  row_count_ += rows.size();
  if (partition_indexes_.empty()) {
    // Every column is a data column, in order: the chunk is written as it is
    // (converted first in the rare case a column's type differs in detail).
    if (!stream_) stream_ = Open("");
    bool same_types = rows.ColumnCount() == data_types_.size();
    for (idx_t c = 0; same_types && c < data_types_.size(); c++) same_types = rows.data[c].GetType() == data_types_[c];
    if (same_types) {
      Write(*stream_, rows);
    } else {
      DataChunk data;
      data.Initialize(data_types_, rows.size());
      for (idx_t c = 0; c < data_indexes_.size(); c++) CopyColumn(rows, data_indexes_[c], nullptr, rows.size(), data.data[c]);
      data.SetCardinality(rows.size());
      Write(*stream_, data);
    }
    RollIfFull(stream_, {});
    return;
  }
  // Group the rows by their partition values.
  std::map<std::string, std::vector<sel_t>> groups;
  std::map<std::string, delta::PartitionValues> values;
  for (idx_t r = 0; r < rows.size(); r++) {
    std::string key;
    delta::PartitionValues pv;
    for (idx_t i = 0; i < partition_indexes_.size(); i++) {
      idx_t p = partition_indexes_[i];
      auto text = delta::FormatPartitionValue(rows.data[p].GetValue(r));
      pv[partition_names_[i]] = text;
      key += columns_[p].name + "=" + (text ? EscapePartitionValue(*text) : "__HIVE_DEFAULT_PARTITION__") + "/";
    }
    groups[key].push_back(static_cast<sel_t>(r));
    values.emplace(key, std::move(pv));
  }
  for (auto& [key, sel] : groups) {
    DataChunk part;
    part.Initialize(data_types_, sel.size());
    for (idx_t c = 0; c < data_indexes_.size(); c++) CopyColumn(rows, data_indexes_[c], sel.data(), sel.size(), part.data[c]);
    part.SetCardinality(sel.size());
    auto& partition = partitions_[key];
    partition.values = values[key];
    partition.directory = key;
    partition.rows.SetTypes(data_types_);
    partition.rows.Append(std::move(part));  // taken whole when the layout allows, else copied
  }
  partition_rows_ += rows.size();
  if (partition_rows_ >= kPartitionBatchRows) FlushPartitions();
}

void DeltaFileWriter::RollIfFull(std::optional<OpenFile>& file, const delta::PartitionValues& values) {
  if (!file || target_file_size_ == 0) return;
  // What is on disk: the writer holds a row group until it reaches the
  // target (Open), so the file grows a row group at a time.
  struct stat st {};
  if (::stat(file->full.c_str(), &st) != 0 || static_cast<uint64_t>(st.st_size) < target_file_size_) return;
  Close(*file, values);
  file.reset();
}

void DeltaFileWriter::FlushPartitions() {
  idx_t open = 0;
  for (auto& [key, partition] : partitions_) {
    if (partition.rows.Count() > 0) {
      for (idx_t c = 0; c < partition.rows.ChunkCount(); c++) {
        if (!partition.file) partition.file = Open(partition.directory);
        Write(*partition.file, partition.rows.Chunk(c));
        RollIfFull(partition.file, partition.values);
      }
      partition.rows = ChunkCollection(data_types_);
      // The batch leaves memory now, not when the file's row group fills.
      if (partition.file) {
        Status s = partition.file->writer->EndRowGroup();
        if (!s.ok()) Fail(*partition.file, s);
        RollIfFull(partition.file, partition.values);
      }
    }
    if (partition.file) open++;
  }
  partition_rows_ = 0;
  if (open <= kMaxOpenPartitionFiles) return;
  for (auto& [key, partition] : partitions_) {
    if (!partition.file) continue;
    Close(*partition.file, partition.values);
    partition.file.reset();
  }
}

bool DeltaFileWriter::OpenPooled(const std::string& folder, const ParquetWriterOptions& options, OpenFile& file) {
  std::string dir = change_data_ ? table_path_ + "/_change_data" : table_path_;
  std::optional<std::string> name = pool_->Take(fs_, dir, change_data_ ? "cdc" : "part");
  if (!name) return false;
  file.relative = folder + *name;
  file.full = dir + "/" + *name;
  // Removed by Abort() if the commit fails (the name is the table's garbage then).
  created_.push_back(file.full);
  ExistingFileOpener opener(fs_.get());
  auto writer = ParquetWriter::Create(file.full, data_names_, data_types_, options, &opener);
  if (!writer.ok()) {
    created_.pop_back();
    // Gone since its batch (a VACUUM, a hand): never written anew, as its
    // new name would not be durable; the caller makes a name of its own.
    if (opener.vanished()) {
      pool_->Discard();  // its batch likely went with it (a VACUUM, a DROP)
      return false;
    }
    Fail(file, writer.status());
  }
  file.writer = writer.take();
  file.pooled = true;
  return true;
}

DeltaFileWriter::OpenFile DeltaFileWriter::Open(const std::string& directory) {
  OpenFile file;
  ParquetWriterOptions options;
  options.label = "table " + table_name_;
  options.uncompressed_below = kSmallChunkUncompressedBytes;
  // A row group ends by the target size at the latest (its bytes are
  // estimated from its compressed pages), so files roll near the target
  // and the rows held in memory stay below it.
  options.fields = data_fields_;
  if (target_file_size_ > 0) options.row_group_bytes = std::min<idx_t>(options.row_group_bytes, target_file_size_);
  std::string change_folder = change_data_ ? "_change_data/" : "";
  // Pooled names exist in the table's root and _change_data/ folders only,
  // and serve a writer's first file: a writer that rolls to more files
  // fsyncs their folder once for all of them anyway.
  if (pool_ && !mapped_ && directory.empty() && file_number_ == 0 && OpenPooled(change_folder, options, file)) {
    file_number_++;
    return file;
  }
  // Mapped tables: a random folder, never the partition's `col=value/` (see MapColumns).
  std::string folder = mapped_ ? RandomPrefix() + "/" : directory;
  file.relative = change_folder + folder + NewDataFileName(change_data_ ? "cdc" : "part", file_number_++);
  file.full = table_path_ + "/" + file.relative;
  std::string dir = file.full.substr(0, file.full.rfind('/'));
  Status s = fs_->CreateDirectories(dir);
  if (!s.ok()) throw IOError("Cannot create directory " + dir + " for table data: " + s.message());
  // Recorded before the file exists: a Create that fails half way (a full
  // disk) may still leave it behind, and Abort() removes it.
  created_.push_back(file.full);
  auto writer = ParquetWriter::Create(file.full, data_names_, data_types_, options);
  if (!writer.ok()) Fail(file, writer.status());
  file.writer = writer.take();
  return file;
}

void DeltaFileWriter::Fail(OpenFile& file, const Status& s) {
  // The file stays in created_: the statement's Abort() removes it.
  file.writer.reset();
  // A value no file can hold is the statement's input: nothing was written.
  if (s.code() == Status::Code::kInvalidArgument) throw InvalidInputError(s.message());
  throw IOError("Cannot write data file " + file.full + " of table " + table_name_ + ": " + s.message());
}

void DeltaFileWriter::Write(OpenFile& file, const DataChunk& rows) {
  Status a = file.writer->Append(rows);
  if (!a.ok()) Fail(file, a);
}

void DeltaFileWriter::Close(OpenFile& file, const delta::PartitionValues& values) {
  auto info = file.writer->Finish();
  if (!info.ok()) Fail(file, info.status());
  file.writer.reset();
  // Data files must be durable before the commit that names them: the file,
  // and its name in the directory (and a new partition directory's name in
  // its parent, up to the table root); a pooled name is durable already.
  durable_.files.insert(file.full);
  for (std::string d = file.full.substr(0, file.full.rfind('/')); !file.pooled && d.size() >= table_path_.size();
       d = d.substr(0, d.rfind('/'))) {
    durable_.directories.insert(d);
    if (d == table_path_ || d.rfind('/') == std::string::npos) break;
  }
  if (change_data_) {
    delta::CdcFile cdc;
    cdc.path = file.relative;
    cdc.partition_values = values;
    cdc.size = static_cast<int64_t>(info.value().file_size);
    closed_.emplace_back(std::move(cdc));
    return;
  }
  delta::AddFile add;
  add.path = file.relative;
  add.partition_values = values;
  add.size = static_cast<int64_t>(info.value().file_size);
  add.data_change = data_change_;
  std::vector<std::string> names(data_names_.begin(), data_names_.begin() + static_cast<std::ptrdiff_t>(stats_columns_));
  if (mapped_) {
    for (idx_t c = 0; c < stats_columns_; c++) names[c] = data_fields_[c].name;
  }
  add.stats = delta::MakeStatsJson(names, data_types_, info.value());
  closed_.emplace_back(std::move(add));
}

void DeltaFileWriter::Abort() {
  stream_.reset();  // closes a file still being written
  partitions_.clear();
  closed_.clear();
  for (auto& path : created_) (void)fs_->RemoveFile(path);
  created_.clear();
}

std::vector<delta::Action> DeltaFileWriter::Finish(int64_t now_ms, DurableSet& durable) {
  if (stream_) {
    Close(*stream_, {});
    stream_.reset();
  }
  FlushPartitions();
  for (auto& [key, partition] : partitions_) {
    if (partition.file) Close(*partition.file, partition.values);
  }
  partitions_.clear();
  for (auto& action : closed_) {
    if (auto* add = std::get_if<delta::AddFile>(&action)) add->modification_time = now_ms;
  }
  durable.files.insert(durable_.files.begin(), durable_.files.end());
  durable.directories.insert(durable_.directories.begin(), durable_.directories.end());
  durable_ = DurableSet();
  std::vector<delta::Action> actions = std::move(closed_);
  closed_.clear();
  return actions;
}

}  // namespace lakestream
