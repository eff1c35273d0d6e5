#include "storage/delta/delta_checkpoint.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <nlohmann/json.hpp>

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
LogicalType AddType() {
  return LogicalType::Struct({{"path", kStr}, {"partitionValues", MapType()}, {"size", kLong},
                              {"modificationTime", kLong}, {"dataChange", kBool}, {"tags", MapType()},
                              {"stats", kStr}});
}
LogicalType RemoveType() {
  return LogicalType::Struct({{"path", kStr}, {"deletionTimestamp", kLong}, {"dataChange", kBool},
                              {"extendedFileMetadata", kBool}, {"partitionValues", MapType()}, {"size", kLong}});
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
  auto j = nlohmann::json::parse(contents, nullptr, /*allow_exceptions=*/false);
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
  auto j = nlohmann::json::parse(contents, nullptr, /*allow_exceptions=*/false);
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
  if (snap.version < 0) return Status::InvalidArgument("cannot checkpoint an empty snapshot");
  // Those the snapshot left unread in its own checkpoint are read now: a
  // checkpoint without them would lose them for VACUUM.
  std::map<std::string, RemoveFile> read_now;
  if (!snap.unread_tombstone_parts.empty()) {
    auto all = AllTombstones(fs, snap);
    if (!all.ok()) return all.status();
    read_now = all.take();
  }
  const auto& tombstones = snap.unread_tombstone_parts.empty() ? snap.tombstones : read_now;
  const std::vector<std::string> names = {"txn", "add", "remove", "metaData", "protocol"};
  const std::vector<LogicalType> types = {TxnType(), AddType(), RemoveType(), MetadataType(), ProtocolType()};
  std::string final_path = JoinPath(log_dir, CheckpointFileName(snap.version));
  // Object storage has no rename, and needs none: the writer uploads the
  // finished file in one PUT, so it appears whole or not at all.
  std::string temp = IsRemotePath(final_path) ? final_path : FileSystem::TempPathFor(final_path);

  ParquetWriterOptions options;
  options.codec = ParquetCodec::kSnappy;  // what Spark writes; every reader has it
  auto created = ParquetWriter::Create(temp, names, types, options);
  if (!created.ok()) return created.status();
  ParquetWriter& writer = *created.value();

  DataChunk chunk;
  chunk.Initialize(types);
  idx_t row = 0;
  int64_t rows = 0, adds = 0;
  Status status;
  // Appends the rows filled so far to the writer.
  auto flush = [&]() {
    if (row == 0) return;
    chunk.SetCardinality(row);
    if (status.ok()) status = writer.Append(chunk);
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
  for (const auto& [app, t] : snap.txns)
    emit(0, Value::STRUCT(types[0], {Value::VARCHAR(t.app_id), Value::BIGINT(t.version), OptLongV(t.last_updated)}));
  for (const auto& [path, a] : snap.files) {
    // Checkpoints describe state, not change: dataChange is false (as Spark).
    emit(1, Value::STRUCT(types[1], {Value::VARCHAR(EncodePath(a.path)), MapValue(a.partition_values),
                                     Value::BIGINT(a.size), Value::BIGINT(a.modification_time),
                                     Value::BOOLEAN(false), a.tags ? MapValue(*a.tags) : Value(MapType()),
                                     OptStr(a.stats)}));
    adds++;
  }
  // Tombstones get row groups of their own: readers that need only the
  // table's state (or only the tombstones) then skip the others by their
  // statistics (delta_checkpoint_read.cpp), and a table that has seen many
  // rewrites has far more tombstones than files.
  flush();
  if (status.ok()) status = writer.EndRowGroup();
  int64_t horizon = now_ms - snap.DeletedFileRetentionMs();
  for (const auto& [path, r] : tombstones) {
    if (r.deletion_timestamp && *r.deletion_timestamp < horizon) continue;  // expired tombstone
    emit(2, Value::STRUCT(types[2],
                          {Value::VARCHAR(EncodePath(r.path)), OptLongV(r.deletion_timestamp), Value::BOOLEAN(false),
                           r.extended_file_metadata ? Value::BOOLEAN(*r.extended_file_metadata) : Value(kBool),
                           r.partition_values ? MapValue(*r.partition_values) : Value(MapType()),
                           OptLongV(r.size)}));
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
  LS_RETURN_NOT_OK(fs->FsyncDirectory(log_dir));
  LastCheckpoint lc;
  lc.version = snap.version;
  lc.size = rows;
  lc.size_in_bytes = static_cast<int64_t>(info.value().file_size);
  lc.num_of_add_files = adds;
  return lc;
}

}  // namespace lakestream::delta
