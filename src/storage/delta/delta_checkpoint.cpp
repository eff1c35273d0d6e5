#include "storage/delta/delta_checkpoint.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream::delta {

namespace {

// ---- reading: engine Values -> actions ----

const Value* FieldOf(const Value& s, const char* name) {
  if (s.IsNull() || s.type().id() != TypeId::STRUCT) return nullptr;
  const auto& kids = s.type().children();
  for (size_t i = 0; i < kids.size() && i < s.Children().size(); i++)
    if (kids[i].first == name) return s.Children()[i].IsNull() ? nullptr : &s.Children()[i];
  return nullptr;
}

std::optional<std::string> Str(const Value& s, const char* name) {
  const Value* f = FieldOf(s, name);
  if (!f || f->type().id() != TypeId::VARCHAR) return std::nullopt;
  return f->GetString();
}

std::optional<int64_t> Long(const Value& s, const char* name) {
  const Value* f = FieldOf(s, name);
  if (!f) return std::nullopt;
  if (f->type().id() == TypeId::BIGINT || f->type().id() == TypeId::INTEGER) return f->AsBigint();
  return std::nullopt;
}

std::optional<bool> Bool(const Value& s, const char* name) {
  const Value* f = FieldOf(s, name);
  if (!f || f->type().id() != TypeId::BOOLEAN) return std::nullopt;
  return f->GetBoolean();
}

std::optional<PartitionValues> PvMap(const Value& s, const char* name) {
  const Value* f = FieldOf(s, name);
  if (!f || f->type().id() != TypeId::MAP) return std::nullopt;
  PartitionValues out;
  for (const auto& kv : f->Children()) {
    if (kv.Children().size() != 2 || kv.Children()[0].IsNull()) continue;
    const Value& v = kv.Children()[1];
    out[kv.Children()[0].ToString()] = v.IsNull() ? std::nullopt : std::optional<std::string>(v.ToString());
  }
  return out;
}

std::optional<StringMap> SMap(const Value& s, const char* name) {
  auto pv = PvMap(s, name);
  if (!pv) return std::nullopt;
  StringMap out;
  for (auto& [k, v] : *pv)
    if (v) out[k] = *v;
  return out;
}

std::optional<std::vector<std::string>> StrList(const Value& s, const char* name) {
  const Value* f = FieldOf(s, name);
  if (!f || f->type().id() != TypeId::LIST) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& e : f->Children())
    if (!e.IsNull()) out.push_back(e.ToString());
  return out;
}

Result<std::string> Path(const Value& s, const std::string& file, const char* action) {
  auto p = Str(s, "path");
  if (!p) return Status::Corruption(file + ": checkpoint " + action + " row without a path");
  auto decoded = DecodePath(*p);
  if (!decoded.ok()) return Status::Corruption(file + ": " + decoded.status().message());
  return decoded.take();
}

Status ConvertRow(const std::string& column, const Value& v, const std::string& file, std::vector<Action>& out) {
  if (column == "add") {
    AddFile a;
    auto p = Path(v, file, "add");
    if (!p.ok()) return p.status();
    a.path = p.take();
    a.partition_values = PvMap(v, "partitionValues").value_or(PartitionValues{});
    a.size = Long(v, "size").value_or(0);
    a.modification_time = Long(v, "modificationTime").value_or(0);
    a.data_change = Bool(v, "dataChange").value_or(false);
    a.stats = Str(v, "stats");
    a.tags = SMap(v, "tags");
    if (FieldOf(v, "deletionVector")) a.deletion_vector = FieldOf(v, "deletionVector")->ToString();
    a.base_row_id = Long(v, "baseRowId");
    a.default_row_commit_version = Long(v, "defaultRowCommitVersion");
    out.push_back(std::move(a));
  } else if (column == "remove") {
    RemoveFile r;
    auto p = Path(v, file, "remove");
    if (!p.ok()) return p.status();
    r.path = p.take();
    r.deletion_timestamp = Long(v, "deletionTimestamp");
    r.data_change = Bool(v, "dataChange").value_or(false);
    r.extended_file_metadata = Bool(v, "extendedFileMetadata");
    r.partition_values = PvMap(v, "partitionValues");
    r.size = Long(v, "size");
    r.tags = SMap(v, "tags");
    out.push_back(std::move(r));
  } else if (column == "metaData") {
    Metadata m;
    auto id = Str(v, "id");
    if (!id) return Status::Corruption(file + ": checkpoint metaData row without an id");
    m.id = *id;
    m.name = Str(v, "name");
    m.description = Str(v, "description");
    if (const Value* fmt = FieldOf(v, "format")) {
      m.format.provider = Str(*fmt, "provider").value_or("parquet");
      m.format.options = SMap(*fmt, "options").value_or(StringMap{});
    }
    m.schema_string = Str(v, "schemaString").value_or("");
    m.partition_columns = StrList(v, "partitionColumns").value_or(std::vector<std::string>{});
    m.configuration = SMap(v, "configuration").value_or(StringMap{});
    m.created_time = Long(v, "createdTime");
    out.push_back(std::move(m));
  } else if (column == "protocol") {
    Protocol p;
    auto r = Long(v, "minReaderVersion");
    auto w = Long(v, "minWriterVersion");
    if (!r || !w) return Status::Corruption(file + ": checkpoint protocol row without versions");
    p.min_reader_version = static_cast<int32_t>(*r);
    p.min_writer_version = static_cast<int32_t>(*w);
    p.reader_features = StrList(v, "readerFeatures");
    p.writer_features = StrList(v, "writerFeatures");
    out.push_back(std::move(p));
  } else if (column == "txn") {
    Txn t;
    auto app = Str(v, "appId");
    auto ver = Long(v, "version");
    if (!app || !ver) return Status::Corruption(file + ": checkpoint txn row without appId/version");
    t.app_id = *app;
    t.version = *ver;
    t.last_updated = Long(v, "lastUpdated");
    out.push_back(std::move(t));
  }
  return Status::OK();
}

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

std::string SerializeLastCheckpoint(const LastCheckpoint& info) {
  nlohmann::ordered_json j;
  j["version"] = info.version;
  j["size"] = info.size;
  if (info.parts) j["parts"] = *info.parts;
  if (info.size_in_bytes) j["sizeInBytes"] = *info.size_in_bytes;
  if (info.num_of_add_files) j["numOfAddFiles"] = *info.num_of_add_files;
  return j.dump();
}

Status DecodeCheckpointPart(const std::string& path, std::string bytes, std::vector<Action>& actions) {
  static const char* kColumns[] = {"protocol", "metaData", "txn", "add", "remove"};
  auto opened = ParquetReader::OpenBuffer(path, std::move(bytes));
  if (!opened.ok()) return Status::Corruption("checkpoint " + opened.status().message());
  ParquetReader& reader = *opened.value();
  std::vector<idx_t> ids;
  std::vector<std::string> names;
  for (const char* want : kColumns) {
    for (idx_t i = 0; i < reader.ColumnNames().size(); i++) {
      if (reader.ColumnNames()[i] == want && reader.ColumnTypes()[i].id() == TypeId::STRUCT) {
        ids.push_back(i);
        names.push_back(want);
      }
    }
  }
  if (ids.empty()) return Status::Corruption(path + ": not a Delta checkpoint (no add/metaData/protocol columns)");
  LS_RETURN_NOT_OK(reader.Scan(ids));
  // The footer's row count is a claim until the rows are read: reserve for at
  // most a million actions up front, so a corrupt footer cannot ask for terabytes.
  actions.reserve(actions.size() + static_cast<size_t>(std::clamp<int64_t>(reader.RowCount(), 0, int64_t{1} << 20)));
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  while (true) {
    Status s = reader.ReadChunk(chunk);
    if (!s.ok()) return Status::Corruption("checkpoint " + s.message());
    if (chunk.size() == 0) break;
    for (idx_t row = 0; row < chunk.size(); row++) {
      for (idx_t c = 0; c < ids.size(); c++) {
        if (!chunk.data[c].IsValid(row)) continue;
        LS_RETURN_NOT_OK(ConvertRow(names[c], chunk.GetValue(c, row), path, actions));
      }
    }
  }
  return Status::OK();
}

Result<std::vector<Action>> ReadCheckpoint(FileSystem* fs, const std::vector<std::string>& part_paths) {
  std::vector<Action> actions;
  for (const auto& path : part_paths) {
    auto bytes = fs->ReadFile(path);
    if (!bytes.ok()) return bytes.status();
    LS_RETURN_NOT_OK(DecodeCheckpointPart(path, bytes.take(), actions));
  }
  return actions;
}

Result<LastCheckpoint> WriteCheckpointFile(FileSystem* fs, const std::string& log_dir, const Snapshot& snap,
                                           int64_t now_ms) {
  if (snap.version < 0) return Status::InvalidArgument("cannot checkpoint an empty snapshot");
  const std::vector<std::string> names = {"txn", "add", "remove", "metaData", "protocol"};
  const std::vector<LogicalType> types = {TxnType(), AddType(), RemoveType(), MetadataType(), ProtocolType()};
  std::string final_path = JoinPath(log_dir, CheckpointFileName(snap.version));
  std::string temp = FileSystem::TempPathFor(final_path);

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
  // Fills one row: `col` gets `value`, every other column NULL.
  auto emit = [&](idx_t col, const Value& value) {
    for (idx_t c = 0; c < types.size(); c++) {
      if (c == col) chunk.SetValue(c, row, value);
      else SetNull(chunk.data[c], row);
    }
    row++;
    rows++;
    if (row == STANDARD_VECTOR_SIZE) {
      chunk.SetCardinality(row);
      if (status.ok()) status = writer.Append(chunk);
      chunk.Reset();
      row = 0;
    }
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
  int64_t horizon = now_ms - snap.DeletedFileRetentionMs();
  for (const auto& [path, r] : snap.tombstones) {
    if (r.deletion_timestamp && *r.deletion_timestamp < horizon) continue;  // expired tombstone
    emit(2, Value::STRUCT(types[2],
                          {Value::VARCHAR(EncodePath(r.path)), OptLongV(r.deletion_timestamp), Value::BOOLEAN(false),
                           r.extended_file_metadata ? Value::BOOLEAN(*r.extended_file_metadata) : Value(kBool),
                           r.partition_values ? MapValue(*r.partition_values) : Value(MapType()),
                           OptLongV(r.size)}));
  }
  if (row > 0) {
    chunk.SetCardinality(row);
    if (status.ok()) status = writer.Append(chunk);
  }
  Result<ParquetFileInfo> info = status.ok() ? writer.Finish() : Result<ParquetFileInfo>(status);
  if (info.ok()) status = fs->Fsync(temp);
  else status = info.status();
  if (status.ok()) status = fs->Rename(temp, final_path);
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
