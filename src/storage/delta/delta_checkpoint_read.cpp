// Reading Delta checkpoints (delta_checkpoint.hpp).
//
// A checkpoint holds one row per active file, so a table with many files has
// a long one, and opening the table reads all of it. The fields lakestream
// keeps are therefore read straight from the Parquet reader's vectors into
// the actions (or the snapshot), and only those fields are decoded at all
// (ParquetReader::ScanProjected): no engine Value is built per row (except
// from add.stats_parsed where there is no add.stats), and columns other writers
// add (add.clusteringProvider, remove.stats, ...) are never decompressed.
//
// Field lookups follow the protocol's names and types; a field that is
// missing, NULL or of another type reads as absent, so e.g. an INTEGER where
// a BIGINT is expected is accepted, a VARCHAR is not.
#include <algorithm>
#include <mutex>

#include <nlohmann/json.hpp>

#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_stats.hpp"
#include "common/file_system.hpp"
#include "common/json_parse.hpp"
#include "storage/parquet/parquet_reader.hpp"

namespace lakestream::delta {

namespace {

enum class Column { kProtocol, kMetaData, kTxn, kDomain, kAdd, kRemove };

struct ColumnSpec {
  Column column;
  const char* name;
  const char* required;             // a field every such action has: its row groups are found by it
  std::vector<std::string> fields;  // the fields read; any others are skipped
};

// In the order a row's actions are emitted (protocol first, as in a commit).
const std::vector<ColumnSpec>& Specs() {
  static const std::vector<ColumnSpec> specs = {
      {Column::kProtocol, "protocol", "minReaderVersion", {"minReaderVersion", "minWriterVersion", "readerFeatures", "writerFeatures"}},
      {Column::kMetaData,
       "metaData",
       "id",
       {"id", "name", "description", "format", "schemaString", "partitionColumns", "configuration", "createdTime"}},
      {Column::kTxn, "txn", "appId", {"appId", "version", "lastUpdated"}},
      {Column::kDomain, "domainMetadata", "domain", {"domain", "configuration", "removed"}},
      {Column::kAdd,
       "add",
       "path",
       {"path", "partitionValues", "size", "modificationTime", "dataChange", "stats", "stats_parsed", "tags",
        "deletionVector", "baseRowId", "defaultRowCommitVersion"}},
      {Column::kRemove,
       "remove",
       "path",
       {"path", "deletionTimestamp", "dataChange", "extendedFileMetadata", "partitionValues", "size", "tags",
        "deletionVector", "baseRowId", "defaultRowCommitVersion"}},
  };
  return specs;
}

// The child vector of STRUCT vector `s` named `name` when its type is one of
// `types` (any type when `types` is empty); nullptr otherwise.
const Vector* Field(const Vector* s, std::string_view name, std::initializer_list<TypeId> types = {}) {
  if (!s) return nullptr;
  const auto& kids = s->GetType().children();
  for (idx_t i = 0; i < kids.size(); i++) {
    if (kids[i].first != name) continue;
    if (types.size() == 0 || std::find(types.begin(), types.end(), kids[i].second.id()) != types.end())
      return &s->Child(i);
    return nullptr;
  }
  return nullptr;
}

const Vector* StrField(const Vector* s, std::string_view name) { return Field(s, name, {TypeId::VARCHAR}); }
const Vector* LongField(const Vector* s, std::string_view name) {
  return Field(s, name, {TypeId::BIGINT, TypeId::INTEGER});
}
const Vector* BoolField(const Vector* s, std::string_view name) { return Field(s, name, {TypeId::BOOLEAN}); }
const Vector* MapField(const Vector* s, std::string_view name) { return Field(s, name, {TypeId::MAP}); }
const Vector* ListField(const Vector* s, std::string_view name) { return Field(s, name, {TypeId::LIST}); }

bool Has(const Vector* v, idx_t row) { return v && v->IsValid(row); }

std::optional<std::string> Str(const Vector* v, idx_t row) {
  if (!Has(v, row)) return std::nullopt;
  return std::string(v->GetData<string_t>()[row]);
}

std::optional<int64_t> Long(const Vector* v, idx_t row) {
  if (!Has(v, row)) return std::nullopt;
  if (v->GetType().id() == TypeId::BIGINT) return v->GetData<int64_t>()[row];
  return v->GetData<int32_t>()[row];
}

std::optional<bool> Bool(const Vector* v, idx_t row) {
  if (!Has(v, row)) return std::nullopt;
  return v->GetData<bool>()[row];
}

// A map key, map value or list element as text (Spark writes strings; other
// types are rendered as the SQL layer would show them).
std::string Text(const Vector& v, idx_t i) {
  if (v.GetType().id() == TypeId::VARCHAR) return std::string(v.GetData<string_t>()[i]);
  return v.GetValue(i).ToString();
}

// A MAP of strings; entries with a NULL key are dropped, NULL values kept.
std::optional<PartitionValues> PvMap(const Vector* m, idx_t row) {
  if (!Has(m, row)) return std::nullopt;
  PartitionValues out;
  const Vector& entries = m->Child(0);
  if (entries.ChildCount() != 2) return out;
  const Vector& keys = entries.Child(0);
  const Vector& values = entries.Child(1);
  list_entry_t e = m->GetData<list_entry_t>()[row];
  for (idx_t i = e.offset; i < e.offset + e.length; i++) {
    if (!entries.IsValid(i) || !keys.IsValid(i)) continue;
    out[Text(keys, i)] = values.IsValid(i) ? std::optional<std::string>(Text(values, i)) : std::nullopt;
  }
  return out;
}

// The same, NULL values dropped (tags, configuration, format options).
std::optional<StringMap> SMap(const Vector* m, idx_t row) {
  auto pv = PvMap(m, row);
  if (!pv) return std::nullopt;
  StringMap out;
  for (auto& [k, v] : *pv)
    if (v) out.emplace_hint(out.end(), k, std::move(*v));
  return out;
}

std::optional<std::vector<std::string>> StrList(const Vector* l, idx_t row) {
  if (!Has(l, row)) return std::nullopt;
  std::vector<std::string> out;
  const Vector& elements = l->Child(0);
  list_entry_t e = l->GetData<list_entry_t>()[row];
  for (idx_t i = e.offset; i < e.offset + e.length; i++)
    if (elements.IsValid(i)) out.push_back(Text(elements, i));
  return out;
}

Result<std::string> PathOf(const Vector* v, idx_t row, const std::string& file, const char* action) {
  if (!Has(v, row)) return Status::Corruption(file + ": checkpoint " + action + " row without a path");
  auto decoded = DecodePath(v->GetData<string_t>()[row]);
  if (!decoded.ok()) return Status::Corruption(file + ": " + decoded.status().message());
  return decoded;
}

// Where decoded actions go: a list of actions, straight into a snapshot
// (skipping a second move of every file), or, for what a snapshot left
// unread, into a map of tombstones, of files or of file sizes.
struct Sink {
  std::vector<Action>* actions = nullptr;
  Snapshot* snapshot = nullptr;
  std::map<std::string, RemoveFile>* tombstones = nullptr;
  std::map<std::string, AddFile>* files = nullptr;
  std::map<std::string, FileSize>* sizes = nullptr;

  void Put(AddFile a) {
    if (files) {
      std::string key = a.path;
      files->insert_or_assign(files->end(), std::move(key), std::move(a));
    } else if (snapshot) {
      snapshot->ApplyAdd(std::move(a));
    } else {
      actions->push_back(std::move(a));
    }
  }
  void Put(RemoveFile r) {
    if (tombstones) {
      std::string key = r.path;
      tombstones->insert_or_assign(tombstones->end(), std::move(key), std::move(r));
    } else if (snapshot) {
      snapshot->ApplyRemove(std::move(r));
    } else {
      actions->push_back(std::move(r));
    }
  }
  void Put(Protocol p) { snapshot ? void(snapshot->protocol = std::move(p)) : actions->push_back(std::move(p)); }
  void Put(Metadata m) { snapshot ? void(snapshot->metadata = std::move(m)) : actions->push_back(std::move(m)); }
  void Put(Txn t) {
    if (!snapshot) return actions->push_back(std::move(t));
    std::string app = t.app_id;
    snapshot->txns[app] = std::move(t);
  }
  void Put(DomainMetadata d) { snapshot ? snapshot->ApplyDomain(std::move(d)) : actions->push_back(std::move(d)); }
};

// A deletionVector struct as the JSON object a commit would hold.
std::string DvJson(const Vector* dv, idx_t row) {
  nlohmann::json j = nlohmann::json::object();
  if (auto t = Str(StrField(dv, "storageType"), row)) j["storageType"] = *t;
  if (auto p = Str(StrField(dv, "pathOrInlineDv"), row)) j["pathOrInlineDv"] = *p;
  if (auto o = Long(LongField(dv, "offset"), row)) j["offset"] = *o;
  if (auto n = Long(LongField(dv, "sizeInBytes"), row)) j["sizeInBytes"] = *n;
  if (auto c = Long(LongField(dv, "cardinality"), row)) j["cardinality"] = *c;
  if (auto m = Long(LongField(dv, "maxRowIndex"), row)) j["maxRowIndex"] = *m;
  return j.dump();
}

// numRecords and the largest nullCount of an add.stats_parsed struct, read
// straight from its vectors (resolved once per chunk, like AddReader's).
struct CountReader {
  const Vector* stats_parsed = nullptr;
  const Vector* num_records = nullptr;
  // nullCount and the STRUCTs within it (a struct column's counts nest),
  // each with the leaves directly under it.
  struct Level {
    const Vector* level;
    std::vector<const Vector*> leaves;
  };
  std::vector<Level> levels;

  explicit CountReader(const Vector* s) : stats_parsed(s) {
    if (!s) return;
    num_records = LongField(s, "numRecords");
    const Vector* nulls = Field(s, "nullCount", {TypeId::STRUCT});
    std::vector<const Vector*> todo;
    if (nulls) todo.push_back(nulls);
    while (!todo.empty()) {
      const Vector* level = todo.back();
      todo.pop_back();
      Level l{level, {}};
      for (idx_t i = 0; i < level->ChildCount(); i++) {
        const Vector& kid = level->Child(i);
        if (kid.GetType().id() == TypeId::STRUCT) todo.push_back(&kid);
        else l.leaves.push_back(&kid);
      }
      levels.push_back(std::move(l));
    }
  }

  // Nothing when the row has no numRecords, or a count that is not a
  // non-negative integer (the JSON stats then decide, and word the error).
  StatsCounts Read(idx_t row) const {
    StatsCounts counts;
    if (!Has(stats_parsed, row)) return counts;
    counts.num_records = Long(num_records, row);
    if (!counts.num_records) return counts;
    for (const Level& l : levels) {
      if (!l.level->IsValid(row)) continue;
      for (const Vector* leaf : l.leaves) {
        if (!leaf->IsValid(row)) continue;
        auto id = leaf->GetType().id();
        auto n = id == TypeId::BIGINT || id == TypeId::INTEGER ? Long(leaf, row) : std::nullopt;
        if (!n || *n < 0) {
          counts.num_records.reset();
          return counts;
        }
        counts.max_null_count = std::max(counts.max_null_count, *n);
      }
    }
    return counts;
  }
};

// The field vectors of one projected action column in the current chunk.
struct AddReader {
  const Vector *path, *pv, *size, *mtime, *data_change, *stats, *stats_parsed, *tags, *dv, *row_id, *row_version;
  CountReader counts;
  explicit AddReader(const Vector& s)
      : path(StrField(&s, "path")), pv(MapField(&s, "partitionValues")), size(LongField(&s, "size")),
        mtime(LongField(&s, "modificationTime")), data_change(BoolField(&s, "dataChange")),
        stats(StrField(&s, "stats")), stats_parsed(Field(&s, "stats_parsed", {TypeId::STRUCT})), tags(MapField(&s, "tags")), dv(Field(&s, "deletionVector")),
        row_id(LongField(&s, "baseRowId")), row_version(LongField(&s, "defaultRowCommitVersion")), counts(stats_parsed) {}

  Status Read(idx_t row, const std::string& file, Sink& sink) const {
    auto p = PathOf(path, row, file, "add");
    if (!p.ok()) return p.status();
    if (sink.sizes) {
      FileSize f{Long(size, row).value_or(0), Has(dv, row) ? std::optional<std::string>(DvJson(dv, row)) : std::nullopt};
      sink.sizes->insert_or_assign(sink.sizes->end(), p.take(), std::move(f));
      return Status::OK();
    }
    AddFile a;
    a.path = p.take();
    if (Has(pv, row)) a.partition_values = *PvMap(pv, row);
    a.size = Long(size, row).value_or(0);
    a.modification_time = Long(mtime, row).value_or(0);
    a.data_change = Bool(data_change, row).value_or(false);
    a.stats = Str(stats, row);
    // Struct statistics stand in for JSON ones a table chose not to write
    // (delta.checkpoint.writeStatsAsJson = false): COUNT(*) and skipping use them.
    if (!a.stats && Has(stats_parsed, row)) a.stats = StatsJsonFromStruct(stats_parsed->GetValue(row));
    // And where both are there, COUNT(*) reads its counts from the struct
    // instead of parsing the JSON.
    a.counts = counts.Read(row);
    a.tags = SMap(tags, row);
    if (Has(dv, row)) a.deletion_vector = DvJson(dv, row);
    a.base_row_id = Long(row_id, row);
    a.default_row_commit_version = Long(row_version, row);
    sink.Put(std::move(a));
    return Status::OK();
  }
};

struct RemoveReader {
  const Vector *path, *deleted, *data_change, *extended, *pv, *size, *tags, *dv, *row_id, *row_version;
  explicit RemoveReader(const Vector& s)
      : path(StrField(&s, "path")), deleted(LongField(&s, "deletionTimestamp")),
        data_change(BoolField(&s, "dataChange")), extended(BoolField(&s, "extendedFileMetadata")),
        pv(MapField(&s, "partitionValues")), size(LongField(&s, "size")), tags(MapField(&s, "tags")),
        dv(Field(&s, "deletionVector")), row_id(LongField(&s, "baseRowId")),
        row_version(LongField(&s, "defaultRowCommitVersion")) {}

  Status Read(idx_t row, const std::string& file, Sink& sink) const {
    RemoveFile r;
    auto p = PathOf(path, row, file, "remove");
    if (!p.ok()) return p.status();
    r.path = p.take();
    r.deletion_timestamp = Long(deleted, row);
    r.data_change = Bool(data_change, row).value_or(false);
    r.extended_file_metadata = Bool(extended, row);
    r.partition_values = PvMap(pv, row);
    r.size = Long(size, row);
    r.tags = SMap(tags, row);
    if (Has(dv, row)) r.deletion_vector = DvJson(dv, row);
    r.base_row_id = Long(row_id, row);
    r.default_row_commit_version = Long(row_version, row);
    sink.Put(std::move(r));
    return Status::OK();
  }
};

// metaData, protocol and txn rows are few: their fields are looked up per row.
Status ReadMetadata(const Vector& s, idx_t row, const std::string& file, Sink& sink) {
  Metadata m;
  auto id = Str(StrField(&s, "id"), row);
  if (!id) return Status::Corruption(file + ": checkpoint metaData row without an id");
  m.id = *id;
  m.name = Str(StrField(&s, "name"), row);
  m.description = Str(StrField(&s, "description"), row);
  const Vector* format = Field(&s, "format", {TypeId::STRUCT});
  if (Has(format, row)) {
    m.format.provider = Str(StrField(format, "provider"), row).value_or("parquet");
    m.format.options = SMap(MapField(format, "options"), row).value_or(StringMap{});
  }
  m.schema_string = Str(StrField(&s, "schemaString"), row).value_or("");
  m.partition_columns = StrList(ListField(&s, "partitionColumns"), row).value_or(std::vector<std::string>{});
  m.configuration = SMap(MapField(&s, "configuration"), row).value_or(StringMap{});
  m.created_time = Long(LongField(&s, "createdTime"), row);
  sink.Put(std::move(m));
  return Status::OK();
}

Status ReadProtocol(const Vector& s, idx_t row, const std::string& file, Sink& sink) {
  Protocol p;
  auto r = Long(LongField(&s, "minReaderVersion"), row);
  auto w = Long(LongField(&s, "minWriterVersion"), row);
  if (!r || !w) return Status::Corruption(file + ": checkpoint protocol row without versions");
  p.min_reader_version = static_cast<int32_t>(*r);
  p.min_writer_version = static_cast<int32_t>(*w);
  p.reader_features = StrList(ListField(&s, "readerFeatures"), row);
  p.writer_features = StrList(ListField(&s, "writerFeatures"), row);
  sink.Put(std::move(p));
  return Status::OK();
}

Status ReadDomain(const Vector& s, idx_t row, const std::string& file, Sink& sink) {
  DomainMetadata d;
  auto domain = Str(StrField(&s, "domain"), row);
  auto configuration = Str(StrField(&s, "configuration"), row);
  if (!domain || !configuration) return Status::Corruption(file + ": checkpoint domainMetadata row without domain/configuration");
  d.domain = *domain;
  d.configuration = *configuration;
  d.removed = Bool(BoolField(&s, "removed"), row).value_or(false);
  sink.Put(std::move(d));
  return Status::OK();
}

Status ReadTxn(const Vector& s, idx_t row, const std::string& file, Sink& sink) {
  Txn t;
  auto app = Str(StrField(&s, "appId"), row);
  auto version = Long(LongField(&s, "version"), row);
  if (!app || !version) return Status::Corruption(file + ": checkpoint txn row without appId/version");
  t.app_id = *app;
  t.version = *version;
  t.last_updated = Long(LongField(&s, "lastUpdated"), row);
  sink.Put(std::move(t));
  return Status::OK();
}

// Which action columns a decode reads: all of them, what a snapshot reads
// when it is loaded (everything but the files), only the adds, only the
// adds' paths, sizes and deletion vectors, or only the removes.
enum class Columns { kAll, kLog, kAdds, kAddSizes, kRemoves };

bool Wanted(Columns wanted, Column column) {
  switch (wanted) {
    case Columns::kAll: return true;
    case Columns::kLog: return column != Column::kAdd && column != Column::kRemove;
    case Columns::kAdds:
    case Columns::kAddSizes: return column == Column::kAdd;
    case Columns::kRemoves: return column == Column::kRemove;
  }
  return false;
}

// A checkpoint part, mapped in place when the file system allows it (a
// large checkpoint is then not copied into fresh memory first).
// Errors: NotFound / IOError as the file system gives them; anything wrong
// with the content is Corruption naming the checkpoint.
Result<std::unique_ptr<ParquetReader>> OpenPart(FileSystem* fs, const std::string& path) {
  auto opened = [&]() -> Result<std::unique_ptr<ParquetReader>> {
    if (fs->ReadsInPlace()) return ParquetReader::Open(path);
    auto bytes = fs->ReadFile(path);
    if (!bytes.ok()) return bytes.status();
    return ParquetReader::OpenBuffer(path, bytes.take());
  }();
  const Status& s = opened.status();
  if (s.ok() || s.IsNotFound() || s.code() == Status::Code::kIOError) return opened;
  return Status::Corruption("checkpoint " + s.message());
}

Status DecodePart(ParquetReader& reader, const std::string& path, Sink& sink, Columns wanted) {
  std::vector<ParquetProjection> projection;
  std::vector<Column> columns;
  // Row groups in which none of the wanted actions occurs are skipped by
  // their statistics (our checkpoints keep tombstones in row groups of their
  // own): judged by the field every such action must have. A row group could
  // only be skipped wrongly by holding actions without it, which are corrupt.
  ParquetFilter any_action{0, CompareOp::kAnyNotNull, Value(), {}};
  for (const ColumnSpec& spec : Specs()) {
    if (!Wanted(wanted, spec.column)) continue;
    for (idx_t i = 0; i < reader.ColumnNames().size(); i++) {
      const LogicalType& type = reader.ColumnTypes()[i];
      if (reader.ColumnNames()[i] != spec.name || type.id() != TypeId::STRUCT) continue;
      ParquetProjection p{i, {}};
      std::vector<std::string> fields = spec.fields;
      if (wanted == Columns::kAddSizes) fields = {"path", "size", "deletionVector"};
      for (const auto& [name, child] : type.children())
        if (std::find(fields.begin(), fields.end(), name) != fields.end()) p.fields.push_back(name);
      // None of the protocol's fields: read it whole, so that a row in it is
      // still seen (and refused, having no path / id / versions).
      projection.push_back(std::move(p));
      columns.push_back(spec.column);
      any_action.any_not_null.push_back({i, spec.required});
    }
  }
  if (projection.empty()) {
    if (wanted != Columns::kAll && wanted != Columns::kLog) return Status::OK();  // a checkpoint without files or tombstones
    // A V2 checkpoint's sidecar holds only files.
    const auto& names = reader.ColumnNames();
    bool files = std::find(names.begin(), names.end(), "add") != names.end() ||
                 std::find(names.begin(), names.end(), "remove") != names.end();
    if (wanted == Columns::kLog && files) return Status::OK();
    return Status::Corruption(path + ": not a Delta checkpoint (no add/metaData/protocol columns)");
  }
  LS_RETURN_NOT_OK(reader.ScanProjected(projection, {any_action}));
  if (sink.actions)  // the footer's count is a claim: reserve for at most a million actions
    sink.actions->reserve(sink.actions->size() +
                          static_cast<size_t>(std::clamp<int64_t>(reader.RowCount(), 0, int64_t{1} << 20)));
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  while (true) {
    Status s = reader.ReadChunk(chunk);
    if (!s.ok()) return Status::Corruption("checkpoint " + s.message());
    if (chunk.size() == 0) break;
    // Field vectors are resolved once per chunk, not per row.
    std::vector<std::optional<AddReader>> adds(columns.size());
    std::vector<std::optional<RemoveReader>> removes(columns.size());
    for (idx_t c = 0; c < columns.size(); c++) {
      if (columns[c] == Column::kAdd) adds[c].emplace(chunk.data[c]);
      if (columns[c] == Column::kRemove) removes[c].emplace(chunk.data[c]);
    }
    for (idx_t row = 0; row < chunk.size(); row++) {
      for (idx_t c = 0; c < columns.size(); c++) {
        const Vector& v = chunk.data[c];
        if (!v.IsValid(row)) continue;
        switch (columns[c]) {
          case Column::kAdd: LS_RETURN_NOT_OK(adds[c]->Read(row, path, sink)); break;
          case Column::kRemove: LS_RETURN_NOT_OK(removes[c]->Read(row, path, sink)); break;
          case Column::kMetaData: LS_RETURN_NOT_OK(ReadMetadata(v, row, path, sink)); break;
          case Column::kProtocol: LS_RETURN_NOT_OK(ReadProtocol(v, row, path, sink)); break;
          case Column::kTxn: LS_RETURN_NOT_OK(ReadTxn(v, row, path, sink)); break;
          case Column::kDomain: LS_RETURN_NOT_OK(ReadDomain(v, row, path, sink)); break;
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status DecodeCheckpointPart(const std::string& path, std::string bytes, std::vector<Action>& actions) {
  auto opened = ParquetReader::OpenBuffer(path, std::move(bytes));
  if (!opened.ok()) return Status::Corruption("checkpoint " + opened.status().message());
  Sink sink{&actions, nullptr};
  return DecodePart(*opened.value(), path, sink, Columns::kAll);
}

namespace {

// The directory of a _delta_log file path.
std::string DirOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The file a sidecar action names: relative to _delta_log/_sidecars, or an
// absolute path / file URI.
Result<std::string> SidecarPath(const std::string& manifest, const std::string& logged) {
  auto decoded = DecodePath(logged);
  if (!decoded.ok()) return Status::Corruption("checkpoint " + manifest + ": " + decoded.status().message());
  const std::string& p = decoded.value();
  if (p.rfind("file://", 0) == 0) return p.substr(7);
  if (p.rfind("file:", 0) == 0) return p.substr(5);
  if (!p.empty() && p[0] == '/') return p;
  if (p.find("://") != std::string::npos)
    return Status::NotSupported("checkpoint " + manifest + " names the sidecar " + p + " outside the file system");
  return DirOf(manifest) + "/_sidecars/" + p;
}

// The sidecar paths of a Parquet V2 checkpoint manifest (its `sidecar`
// column; none in a V1 checkpoint), read with the reader that decoded its
// actions (a scan restarts), so the footer is parsed once.
Result<std::vector<std::string>> ParquetSidecars(ParquetReader& r, const std::string& path) {
  std::vector<std::string> out;
  for (idx_t i = 0; i < r.ColumnNames().size(); i++) {
    if (r.ColumnNames()[i] != "sidecar" || r.ColumnTypes()[i].id() != TypeId::STRUCT) continue;
    LS_RETURN_NOT_OK(r.ScanProjected({ParquetProjection{i, {"path"}}}, {}));
    DataChunk chunk;
    chunk.Initialize(r.ProjectedTypes());
    while (true) {
      Status s = r.ReadChunk(chunk);
      if (!s.ok()) return Status::Corruption("checkpoint " + s.message());
      if (chunk.size() == 0) break;
      const Vector* p = StrField(chunk.data.data(), "path");
      for (idx_t row = 0; row < chunk.size(); row++) {
        if (!chunk.data[0].IsValid(row)) continue;
        auto logged = Str(p, row);
        if (!logged) return Status::Corruption("checkpoint " + path + ": a sidecar action has no path");
        auto file = SidecarPath(path, *logged);
        if (!file.ok()) return file.status();
        out.push_back(file.take());
      }
      chunk.Reset();
    }
  }
  return out;
}

// A JSON V2 checkpoint manifest: its actions go to `snapshot`, its sidecars
// to `sidecars`.
Status LoadJsonManifest(FileSystem* fs, const std::string& path, Snapshot& snapshot, std::vector<std::string>& sidecars) {
  auto contents = fs->ReadFile(path);
  if (!contents.ok()) return contents.status();
  std::string_view text = contents.value();
  size_t line_no = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    line_no++;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto j = ParseJson(line);
    if (j.is_object() && j.contains("sidecar")) {
      const auto& sc = j["sidecar"];
      if (!sc.is_object() || !sc.contains("path") || !sc["path"].is_string())
        return Status::Corruption("checkpoint " + path + " line " + std::to_string(line_no) + ": a sidecar action has no path");
      auto file = SidecarPath(path, sc["path"].get<std::string>());
      if (!file.ok()) return file.status();
      sidecars.push_back(file.take());
      continue;
    }
    auto action = ParseAction(line);
    if (!action.ok())
      return Status::Corruption("checkpoint " + path + " line " + std::to_string(line_no) + ": " + action.status().message());
    if (action.value()) {
      std::vector<Action> one;
      one.push_back(std::move(*action.value()));
      snapshot.Apply(snapshot.version, std::move(one), std::nullopt);
    }
  }
  return Status::OK();
}

}  // namespace

namespace {

// The footer's FileSummary (WriteCheckpointFile); nothing unless all of it
// is there and well-formed.
std::optional<FileSummary> ReadFileSummary(const ParquetReader& reader) {
  std::optional<int64_t> files, bytes, records;
  std::optional<PathFilter> paths;
  auto number = [](const std::string& text) -> std::optional<int64_t> {
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::stoll(text);
  };
  for (const auto& [key, value] : reader.KeyValueMetadata()) {
    if (key == kSummaryFilesKey) files = number(value);
    else if (key == kSummaryBytesKey) bytes = number(value);
    else if (key == kSummaryPathsKey) paths = PathFilter::Parse(value);
    else if (key == kSummaryRecordsKey) records = number(value);
  }
  if (!files || !bytes || !paths) return std::nullopt;
  return FileSummary{*files, *bytes, std::move(*paths), records};
}

// The add columns of a loaded checkpoint's parts, decoded when the snapshot's
// files are first used (file_map.hpp). It keeps the parts open (mapped in
// place, or in memory) from loading on: a log cleanup that deletes them
// later does not take the snapshot's files with it.
class CheckpointFiles : public FileSource {
 public:
  void AddPart(std::string path, std::unique_ptr<ParquetReader> reader) {
    // Our checkpoints are one part; a summary of one part of several would
    // not be the snapshot's.
    summary_ = parts_.empty() ? ReadFileSummary(*reader) : std::nullopt;
    parts_.push_back({std::move(path), std::move(reader)});
  }

  const std::optional<FileSummary>& Summary() const override { return summary_; }

  Status Decode(std::map<std::string, AddFile>& files) const override {
    Sink sink;
    sink.files = &files;
    return DecodeAll(sink, Columns::kAdds);
  }
  Status DecodeSizes(std::map<std::string, FileSize>& sizes) const override {
    Sink sink;
    sink.sizes = &sizes;
    return DecodeAll(sink, Columns::kAddSizes);
  }

 private:
  Status DecodeAll(Sink& sink, Columns columns) const {
    // A reader scans one projection at a time.
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& part : parts_) LS_RETURN_NOT_OK(DecodePart(*part.reader, part.path, sink, columns));
    return Status::OK();
  }

  struct Part {
    std::string path;
    std::unique_ptr<ParquetReader> reader;
  };
  std::vector<Part> parts_;
  std::optional<FileSummary> summary_;
  mutable std::mutex mu_;
};

}  // namespace

Status LoadCheckpoint(FileSystem* fs, const std::vector<std::string>& part_paths, int64_t version,
                      Snapshot& snapshot) {
  Sink sink{nullptr, &snapshot};
  std::vector<std::string> tombstone_parts;
  std::vector<std::string> sidecars;
  auto files = std::make_shared<CheckpointFiles>();
  for (const auto& path : part_paths) {
    if (path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
      LS_RETURN_NOT_OK(LoadJsonManifest(fs, path, snapshot, sidecars));
      continue;
    }
    auto reader = OpenPart(fs, path);
    if (!reader.ok()) return reader.status();
    LS_RETURN_NOT_OK(DecodePart(*reader.value(), path, sink, Columns::kLog));
    tombstone_parts.push_back(path);
    auto more = ParquetSidecars(*reader.value(), path);
    if (!more.ok()) return more.status();
    sidecars.insert(sidecars.end(), more.value().begin(), more.value().end());
    files->AddPart(path, reader.take());
  }
  for (const auto& path : sidecars) {
    auto reader = OpenPart(fs, path);
    if (!reader.ok()) {
      if (reader.status().IsNotFound())
        return Status::Corruption("checkpoint of version " + std::to_string(version) + " names the sidecar " + path +
                                  ", which does not exist");
      return reader.status();
    }
    LS_RETURN_NOT_OK(DecodePart(*reader.value(), path, sink, Columns::kLog));
    tombstone_parts.push_back(path);
    files->AddPart(path, reader.take());
  }
  snapshot.files.SetSource(std::move(files));
  snapshot.version = version;
  snapshot.unread_tombstone_parts = tombstone_parts;
  return Status::OK();
}

Result<std::map<std::string, RemoveFile>> AllTombstones(FileSystem* fs, const Snapshot& snapshot) {
  std::map<std::string, RemoveFile> from_checkpoint;
  Sink sink{nullptr, nullptr, &from_checkpoint};
  for (const auto& path : snapshot.unread_tombstone_parts) {
    auto reader = OpenPart(fs, path);
    if (!reader.ok()) return reader.status();
    LS_RETURN_NOT_OK(DecodePart(*reader.value(), path, sink, Columns::kRemoves));
  }
  if (!from_checkpoint.empty()) LS_RETURN_NOT_OK(snapshot.files.Load());
  // Any action on a path after the checkpoint is newer than its tombstone
  // there: an add made it active (in files), a remove is already here.
  std::map<std::string, RemoveFile> all = snapshot.tombstones;
  for (auto& [path, remove] : from_checkpoint)
    if (!snapshot.files.count(path)) all.emplace(path, std::move(remove));
  return all;
}

Status LoadCheckpointTombstones(FileSystem* fs, Snapshot& snapshot) {
  if (snapshot.unread_tombstone_parts.empty()) return Status::OK();
  auto all = AllTombstones(fs, snapshot);
  if (!all.ok()) return all.status();
  snapshot.tombstones = all.take();
  snapshot.unread_tombstone_parts.clear();
  return Status::OK();
}

}  // namespace lakestream::delta
