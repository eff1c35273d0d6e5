#include "storage/delta/delta_checkpoint.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "common/json_parse.hpp"
#include "storage/delta/delta_stats.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream::delta {

namespace {

// ---- writing: actions -> engine Values ----

const LogicalType kStr = TypeId::VARCHAR;
const LogicalType kLong = TypeId::BIGINT;
const LogicalType kInt = TypeId::INTEGER;
const LogicalType kBool = TypeId::BOOLEAN;

LogicalType MapType() { return LogicalType::Map(kStr, kStr); }
LogicalType ListType() { return LogicalType::List(kStr); }

LogicalType TxnType() { return LogicalType::Struct({{"appId", kStr}, {"version", kLong}, {"lastUpdated", kLong}}); }
// PROTOCOL.md "Deletion Vector Descriptor Schema".
LogicalType DeletionVectorType() {
  return LogicalType::Struct({{"storageType", kStr}, {"pathOrInlineDv", kStr}, {"offset", kInt},
                              {"sizeInBytes", kInt}, {"cardinality", kLong}, {"maxRowIndex", kLong}});
}
// `stats_parsed`: StatsParsedType of the table (delta_stats.hpp).
LogicalType AddType(const LogicalType& stats_parsed) {
  return LogicalType::Struct({{"path", kStr}, {"partitionValues", MapType()}, {"size", kLong},
                              {"modificationTime", kLong}, {"dataChange", kBool}, {"tags", MapType()},
                              {"stats", kStr}, {"stats_parsed", stats_parsed}, {"deletionVector", DeletionVectorType()},
                              {"baseRowId", kLong}, {"defaultRowCommitVersion", kLong}});
}
LogicalType RemoveType() {
  return LogicalType::Struct({{"path", kStr}, {"deletionTimestamp", kLong}, {"dataChange", kBool},
                              {"extendedFileMetadata", kBool}, {"partitionValues", MapType()}, {"size", kLong},
                              {"deletionVector", DeletionVectorType()}, {"baseRowId", kLong},
                              {"defaultRowCommitVersion", kLong}});
}
LogicalType DomainMetadataType() {
  return LogicalType::Struct({{"domain", kStr}, {"configuration", kStr}, {"removed", kBool}});
}
LogicalType CheckpointMetadataType() {
  return LogicalType::Struct({{"version", kLong}, {"tags", MapType()}});
}
LogicalType FormatType() { return LogicalType::Struct({{"provider", kStr}, {"options", MapType()}}); }
LogicalType MetadataType() {
  return LogicalType::Struct({{"id", kStr}, {"name", kStr}, {"description", kStr}, {"format", FormatType()},
                              {"schemaString", kStr}, {"partitionColumns", ListType()},
                              {"configuration", MapType()}, {"createdTime", kLong}});
}
LogicalType ProtocolType() {
  return LogicalType::Struct({{"minReaderVersion", kInt}, {"minWriterVersion", kInt},
                              {"readerFeatures", ListType()}, {"writerFeatures", ListType()}});
}

Value OptStr(const std::optional<std::string>& s) { return s ? Value::VARCHAR(*s) : Value(kStr); }
Value OptLongV(const std::optional<int64_t>& v) { return v ? Value::BIGINT(*v) : Value(kLong); }

Value MapValue(const PartitionValues& pv) {
  LogicalType type = MapType();
  std::vector<Value> entries;
  for (const auto& [k, v] : pv) entries.push_back(Value::STRUCT(type.ListChild(), {Value::VARCHAR(k), OptStr(v)}));
  return Value::LIST(type, std::move(entries));
}
Value MapValue(const StringMap& m) {
  PartitionValues pv;
  for (const auto& [k, v] : m) pv[k] = v;
  return MapValue(pv);
}
Value ListValue(const std::optional<std::vector<std::string>>& l) {
  if (!l) return Value(ListType());
  std::vector<Value> e;
  for (const auto& s : *l) e.push_back(Value::VARCHAR(s));
  return Value::LIST(ListType(), std::move(e));
}

// A deletionVector kept as JSON text (delta_actions.hpp) as the checkpoint's
// struct. A descriptor that does not parse is kept as NULL fields rather
// than failing the checkpoint: the JSON commit still holds it, and reading
// the table reports it.
Value DeletionVectorValue(const std::optional<std::string>& dv_json) {
  LogicalType type = DeletionVectorType();
  if (!dv_json) return Value(type);
  auto j = ParseJson(*dv_json);
  if (!j.is_object()) return Value(type);
  auto str = [&](const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? Value::VARCHAR(it->get<std::string>()) : Value(kStr);
  };
  auto num = [&](const char* key, const LogicalType& t) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return Value(t);
    return t.id() == TypeId::INTEGER ? Value::INTEGER(it->get<int32_t>()) : Value::BIGINT(it->get<int64_t>());
  };
  return Value::STRUCT(type, {str("storageType"), str("pathOrInlineDv"), num("offset", kInt), num("sizeInBytes", kInt),
                              num("cardinality", kLong), num("maxRowIndex", kLong)});
}

// A NULL in a (possibly nested) vector row, with nested children NULL too so
// no stale child data is ever looked at.
void SetNull(Vector& vec, idx_t row) {
  vec.SetValid(row, false);
  if (vec.GetType().id() == TypeId::STRUCT) {
    for (idx_t i = 0; i < vec.ChildCount(); i++) SetNull(vec.Child(i), row);
  } else if (vec.GetType().id() == TypeId::LIST || vec.GetType().id() == TypeId::MAP) {
    vec.GetData<list_entry_t>()[row] = list_entry_t{vec.ListSize(), 0};
  }
}

// A file's row of the add column.
Value AddValue(const LogicalType& type, const LogicalType& stats_type, const AddFile& a) {
  // Checkpoints describe state, not change: dataChange is false (as Spark).
  return Value::STRUCT(type, {Value::VARCHAR(EncodePath(a.path)), MapValue(a.partition_values), Value::BIGINT(a.size),
                              Value::BIGINT(a.modification_time), Value::BOOLEAN(false),
                              a.tags ? MapValue(*a.tags) : Value(MapType()), OptStr(a.stats),
                              StatsParsedValue(stats_type, a.stats), DeletionVectorValue(a.deletion_vector),
                              OptLongV(a.base_row_id), OptLongV(a.default_row_commit_version)});
}

// Per file of `files` (in order): the row of `cache` that holds its add row
// already (its index among the cached snapshot's files), or -1; and its
// LiveRecords, from the cache when the row is.
struct FilePlan {
  std::vector<int64_t> cached_row;
  std::vector<std::optional<int64_t>> records;
};
FilePlan PlanFiles(const FileMap::Map& files, const CheckpointCache* cache) {
  FilePlan plan;
  plan.cached_row.reserve(files.size());
  plan.records.reserve(files.size());
  const FileMap::Map* old = cache && cache->files ? &*cache->files : nullptr;
  FileMap::Map::const_iterator it;
  if (old) it = old->begin();
  int64_t index = 0;
  for (const auto& [path, add] : files) {
    int64_t row = -1;
    if (old) {
      // Both maps are in path order: one merge pass finds every match.
      while (it != old->end() && it->first < path) {
        ++it;
        ++index;
      }
      if (it != old->end() && it->first == path && it->second == add) row = index;
    }
    plan.cached_row.push_back(row);
    // AddFile equality ignores `counts`, which LiveRecords reads first.
    bool same_counts = row >= 0 && it->second.counts.num_records == add.counts.num_records &&
                       it->second.counts.max_null_count == add.counts.max_null_count;
    plan.records.push_back(same_counts ? cache->records[static_cast<size_t>(row)] : LiveRecords(add));
  }
  return plan;
}

// The footer's record count (FileSummary::records): the files' LiveRecords
// summed; nullopt when a file has none, so that a reader counts the files
// instead and reports what is wrong with them.
std::optional<int64_t> SummedRecords(const std::vector<std::optional<int64_t>>& records) {
  int64_t total = 0;
  for (const auto& r : records) {
    if (!r || *r > INT64_MAX - total) return std::nullopt;
    total += *r;
  }
  return total;
}

Result<LastCheckpoint> WriteCheckpointWith(FileSystem* fs, const std::string& log_dir, const Snapshot& snap,
                                           int64_t now_ms, CheckpointCache* cache);

}  // namespace

std::string CommitFileName(int64_t version) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%020" PRId64 ".json", version);
  return buf;
}

std::string CheckpointFileName(int64_t version) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%020" PRId64 ".checkpoint.parquet", version);
  return buf;
}

std::string CheckpointPartFileName(int64_t version, int64_t part, int64_t parts) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%020" PRId64 ".checkpoint.%010" PRId64 ".%010" PRId64 ".parquet", version, part,
                parts);
  return buf;
}

Result<LastCheckpoint> ParseLastCheckpoint(const std::string& contents, const std::string& file_name) {
  auto j = ParseJson(contents);
  if (j.is_discarded() || !j.is_object()) return Status::Corruption(file_name + ": not a JSON object");
  auto get = [&](const char* key) -> std::optional<int64_t> {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
  };
  LastCheckpoint lc;
  auto v = get("version");
  if (!v || *v < 0) return Status::Corruption(file_name + ": missing or invalid \"version\"");
  lc.version = *v;
  lc.size = get("size").value_or(0);
  lc.parts = get("parts");
  lc.size_in_bytes = get("sizeInBytes");
  lc.num_of_add_files = get("numOfAddFiles");
  return lc;
}

std::optional<std::string> LastCheckpointV2Path(const std::string& contents, int64_t version) {
  auto j = ParseJson(contents);
  if (!j.is_object()) return std::nullopt;
  auto v2 = j.find("v2Checkpoint");
  if (v2 == j.end() || !v2->is_object() || !v2->contains("path") || !(*v2)["path"].is_string()) return std::nullopt;
  std::string path = (*v2)["path"].get<std::string>();
  std::string prefix = CheckpointFileName(version).substr(0, 32);  // "%020d.checkpoint."
  if (path.find('/') != std::string::npos || path.size() <= prefix.size() || path.rfind(prefix, 0) != 0) return std::nullopt;
  return path;
}

std::string SerializeLastCheckpoint(const LastCheckpoint& info) {
  nlohmann::ordered_json j;
  j["version"] = info.version;
  j["size"] = info.size;
  if (info.parts) j["parts"] = *info.parts;
  if (info.size_in_bytes) j["sizeInBytes"] = *info.size_in_bytes;
  if (info.num_of_add_files) j["numOfAddFiles"] = *info.num_of_add_files;
  return j.dump();
}

Result<LastCheckpoint> WriteCheckpointFile(FileSystem* fs, const std::string& log_dir, const Snapshot& snap,
                                           int64_t now_ms) {
  return WriteCheckpointWith(fs, log_dir, snap, now_ms, nullptr);
}

Result<LastCheckpoint> WriteCheckpointFile(FileSystem* fs, const std::string& log_dir,
                                           const std::shared_ptr<const Snapshot>& snapshot, int64_t now_ms,
                                           CheckpointCache& cache) {
  auto lc = WriteCheckpointWith(fs, log_dir, *snapshot, now_ms, &cache);
  // Only a decoded file list is copied (Get() of an undecoded one decodes it).
  if (lc.ok() && snapshot->files.Decoded()) cache.files = snapshot->files.Get();
  else cache = CheckpointCache();
  return lc;
}

namespace {

// `cache`, when given, lends the rows of files it holds, and gets this
// checkpoint's add rows, records and add type (the caller sets its snapshot).
Result<LastCheckpoint> WriteCheckpointWith(FileSystem* fs, const std::string& log_dir, const Snapshot& snap,
                                           int64_t now_ms, CheckpointCache* cache) {
  if (snap.version < 0) return Status::InvalidArgument("cannot checkpoint an empty snapshot");
  LS_RETURN_NOT_OK(snap.files.Load());
  const FileMap::Map& files = snap.files.Get();
  // Those the snapshot left unread in its own checkpoint are read now: a
  // checkpoint without them would lose them for VACUUM.
  std::map<std::string, RemoveFile> read_now;
  if (!snap.unread_tombstone_parts.empty()) {
    auto all = AllTombstones(fs, snap);
    if (!all.ok()) return all.status();
    read_now = all.take();
  }
  const auto& tombstones = snap.unread_tombstone_parts.empty() ? snap.tombstones : read_now;
  std::vector<std::string> names = {"txn", "add", "remove", "metaData", "protocol"};
  // The files' statistics also as typed columns (Spark's default,
  // delta.checkpoint.writeStatsAsStruct): readers count rows and skip files
  // from them without parsing JSON (delta_checkpoint_read.cpp).
  LogicalType stats_type = StatsParsedType(snap.schema, snap.partition_columns(),
                                           ColumnMappingMode(snap.metadata) != "none");
  std::vector<LogicalType> types = {TxnType(), AddType(stats_type), RemoveType(), MetadataType(), ProtocolType()};
  // Columns only tables that use them get, so older readers are not shown
  // actions they do not know. A table with the v2Checkpoint feature gets a
  // V2 spec checkpoint under the classic name: the same file plus a
  // checkpointMetadata action (PROTOCOL.md "V2 Spec Checkpoints"); sidecars
  // are optional and not written.
  const idx_t kDomainColumn = 5;
  bool with_domains = !snap.domains.empty() || snap.protocol.ListsWriterFeature("domainMetadata");
  bool v2 = snap.protocol.ListsReaderFeature("v2Checkpoint");
  if (with_domains || v2) {
    names.push_back("domainMetadata");
    types.push_back(DomainMetadataType());
  }
  if (v2) {
    names.push_back("checkpointMetadata");
    types.push_back(CheckpointMetadataType());
  }
  std::string final_path = JoinPath(log_dir, CheckpointFileName(snap.version));
  // Object storage has no rename, and needs none: the writer uploads the
  // finished file in one PUT, so it appears whole or not at all.
  std::string temp = IsRemotePath(final_path) ? final_path : FileSystem::TempPathFor(final_path);

  // Rows of the cache are only lent for the add type they were built for
  // (a cache is only ever filled from a decoded file list).
  const CheckpointCache* lender = cache && cache->files && cache->add_type == types[1] ? cache : nullptr;
  FilePlan plan = PlanFiles(files, lender);

  ParquetWriterOptions options;
  options.codec = ParquetCodec::kSnappy;  // what Spark writes; every reader has it
  // No dictionaries: nearly every value of a checkpoint's big columns (path,
  // stats, the bounds) is distinct, so the writer built each chunk's
  // dictionary only to abandon it (a third of a checkpoint's CPU; the file
  // is ~4% larger without them).
  options.dictionary = false;
  {
    std::vector<std::string_view> paths;
    paths.reserve(files.size());
    for (const auto& [path, a] : files) paths.push_back(path);
    options.key_value_metadata = {{kSummaryFilesKey, std::to_string(files.size())},
                                  {kSummaryBytesKey, std::to_string(snap.files.TotalBytes())},
                                  {kSummaryPathsKey, PathFilter(paths).Serialize()}};
    if (auto records = SummedRecords(plan.records)) options.key_value_metadata.emplace_back(kSummaryRecordsKey, std::to_string(*records));
  }
  auto created = ParquetWriter::Create(temp, names, types, options);
  if (!created.ok()) return created.status();
  ParquetWriter& writer = *created.value();

  DataChunk chunk;
  chunk.Initialize(types);
  idx_t row = 0;
  int64_t rows = 0, adds = 0;
  Status status;
  // Appends the rows filled so far to the writer.
  // The add column's vectors of this checkpoint, kept for the next (cache).
  std::vector<Vector> add_rows;
  bool keep_adds = false;
  auto flush = [&]() {
    if (row == 0) return;
    chunk.SetCardinality(row);
    if (status.ok()) status = writer.Append(chunk);
    if (keep_adds) {
      add_rows.push_back(std::move(chunk.data[1]));
      chunk.data[1] = Vector(types[1]);
    }
    chunk.Reset();
    row = 0;
  };
  // Fills one row: `col` gets `value`, every other column NULL.
  auto emit = [&](idx_t col, const Value& value) {
    for (idx_t c = 0; c < types.size(); c++) {
      if (c == col) chunk.SetValue(c, row, value);
      else SetNull(chunk.data[c], row);
    }
    row++;
    rows++;
    if (row == STANDARD_VECTOR_SIZE) flush();
  };

  const Protocol& p = snap.protocol;
  emit(4, Value::STRUCT(types[4], {Value::INTEGER(p.min_reader_version), Value::INTEGER(p.min_writer_version),
                                   ListValue(p.reader_features), ListValue(p.writer_features)}));
  const Metadata& m = snap.metadata;
  std::vector<std::string> part_cols = m.partition_columns;
  emit(3, Value::STRUCT(types[3],
                        {Value::VARCHAR(m.id), OptStr(m.name), OptStr(m.description),
                         Value::STRUCT(FormatType(), {Value::VARCHAR(m.format.provider), MapValue(m.format.options)}),
                         Value::VARCHAR(m.schema_string), ListValue(part_cols), MapValue(m.configuration),
                         OptLongV(m.created_time)}));
  if (v2) emit(kDomainColumn + 1, Value::STRUCT(types[kDomainColumn + 1], {Value::BIGINT(snap.version), Value(MapType())}));
  for (const auto& [domain, d] : snap.domains)
    emit(kDomainColumn, Value::STRUCT(types[kDomainColumn], {Value::VARCHAR(d.domain), Value::VARCHAR(d.configuration),
                                                            Value::BOOLEAN(false)}));
  for (const auto& [app, t] : snap.txns)
    emit(0, Value::STRUCT(types[0], {Value::VARCHAR(t.app_id), Value::BIGINT(t.version), OptLongV(t.last_updated)}));
  // The files get row groups of their own too: a reader that loads the
  // table's log actions skips them by their statistics and decodes the
  // files only when they are used (file_map.hpp).
  flush();
  if (status.ok()) status = writer.EndRowGroup();
  // Each add chunk holds STANDARD_VECTOR_SIZE files (the last fewer), so
  // file i is row i % size of add_rows[i / size] for the next checkpoint.
  keep_adds = cache != nullptr;
  // Rows lent by the cache are copied in runs (one Vector::Copy each, which
  // shares their strings): `run` lists source rows of `run_source` for the
  // chunk's rows from `run_start`.
  const Vector* run_source = nullptr;
  std::vector<sel_t> run;
  idx_t run_start = 0;
  auto copy_run = [&]() {
    if (!run.empty()) chunk.data[1].Copy(*run_source, run.data(), run.size(), 0, run_start);
    run.clear();
  };
  idx_t file = 0;
  for (const auto& [path, a] : files) {
    int64_t cached = plan.cached_row[file++];
    adds++;
    if (cached < 0) {
      copy_run();
      emit(1, AddValue(types[1], stats_type, a));
      continue;
    }
    const Vector* source = &lender->rows[static_cast<size_t>(cached) / STANDARD_VECTOR_SIZE];
    if (source != run_source || run.empty()) {
      copy_run();
      run_source = source;
      run_start = row;
    }
    run.push_back(static_cast<sel_t>(static_cast<size_t>(cached) % STANDARD_VECTOR_SIZE));
    for (idx_t c = 0; c < types.size(); c++) {
      if (c != 1) SetNull(chunk.data[c], row);
    }
    row++;
    rows++;
    if (row == STANDARD_VECTOR_SIZE) {
      copy_run();
      flush();
    }
  }
  copy_run();
  // Tombstones get row groups of their own: readers that need only the
  // table's state (or only the tombstones) then skip the others by their
  // statistics (delta_checkpoint_read.cpp), and a table that has seen many
  // rewrites has far more tombstones than files.
  flush();
  keep_adds = false;
  if (status.ok()) status = writer.EndRowGroup();
  int64_t horizon = now_ms - snap.DeletedFileRetentionMs();
  for (const auto& [path, r] : tombstones) {
    if (r.deletion_timestamp && *r.deletion_timestamp < horizon) continue;  // expired tombstone
    emit(2, Value::STRUCT(types[2],
                          {Value::VARCHAR(EncodePath(r.path)), OptLongV(r.deletion_timestamp), Value::BOOLEAN(false),
                           r.extended_file_metadata ? Value::BOOLEAN(*r.extended_file_metadata) : Value(kBool),
                           r.partition_values ? MapValue(*r.partition_values) : Value(MapType()),
                           OptLongV(r.size), DeletionVectorValue(r.deletion_vector), OptLongV(r.base_row_id),
                           OptLongV(r.default_row_commit_version)}));
  }
  flush();
  Result<ParquetFileInfo> info = status.ok() ? writer.Finish() : Result<ParquetFileInfo>(status);
  if (info.ok()) status = fs->Fsync(temp);
  else status = info.status();
  if (status.ok() && temp != final_path) status = fs->Rename(temp, final_path);
  if (!status.ok()) {
    (void)fs->RemoveFile(temp);
    return status;
  }
  // No fsync of log_dir here: the next commit's makes the new name durable
  // (see the header).
  LastCheckpoint lc;
  lc.version = snap.version;
  lc.size = rows;
  lc.size_in_bytes = static_cast<int64_t>(info.value().file_size);
  lc.num_of_add_files = adds;
  if (cache) {
    cache->add_type = types[1];
    cache->rows = std::move(add_rows);
    cache->records = std::move(plan.records);
  }
  return lc;
}

}  // namespace

}  // namespace lakestream::delta
