// read_files('dir/' | 'dir/*.json' | ['a.csv', 'b.csv'], format => ..., ...):
// the rows of JSON, CSV or Parquet files (options: pipeline/read_files_options.hpp).
//
// The schema is declared (schema => '...'), or inferred from the first files
// (up to kInferFiles files, kInferRecords records each) and then adjusted by
// schemaHints. Inside a streaming table's refresh (an IngestionScope is set)
// only files the table has not ingested are read, the schema inferred on the
// first run is reused (and evolved by the files of later runs, per
// schemaEvolutionMode), and the files read are recorded in the scope so the
// executor commits their ingestion with their rows.
//
// The scan streams: files are read one after another, each a batch of records
// at a time (function/table/file_readers.hpp), so memory does not grow with
// the size of the files.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/table/table_functions.hpp"
#include "transaction/client_context.hpp"
#include "function/table/file_discovery.hpp"
#include "function/table/file_readers.hpp"
#include "function/table/ingestion_scope.hpp"
#include "function/table/schema_merge.hpp"
#include "storage/table/schema_evolution.hpp"

#include <limits>

namespace lakestream {

static constexpr idx_t kInferFiles = 100;
static constexpr idx_t kInferRecords = 10000;

static InferOptions InferOptionsOf(const ReadFilesOptions& options, const EvolutionOptions& evolution) {
  InferOptions infer;
  infer.prefers_decimal = evolution.prefers_decimal;
  infer.infer_strings = options.infer_types;
  return infer;
}

static FileSchema InferSchema(const std::vector<DiscoveredFile>& files, FileFormat format, const ReadFilesOptions& options,
                              const EvolutionOptions& evolution) {
  SchemaInference inference(InferOptionsOf(options, evolution));
  for (idx_t i = 0; i < files.size() && i < kInferFiles; i++) {
    InferFileColumns(files[i].path, format, options, inference, kInferRecords);
  }
  return inference.Finish(options.infer_types);
}

// `type` with the field at `path[at..]` set to `hint` (added when missing).
static LogicalType HintField(const LogicalType& type, const std::vector<std::string>& path, idx_t at,
                             const LogicalType& hint, const std::string& full) {
  if (at == path.size()) return hint;
  if (type.id() == TypeId::LIST) {
    idx_t next = StringUtil::CIEquals(path[at], "element") ? at + 1 : at;
    return LogicalType::List(HintField(type.ListChild(), path, next, hint, full));
  }
  if (type.id() != TypeId::STRUCT && type.id() != TypeId::SQLNULL && type.id() != TypeId::INVALID) {
    throw BinderError("read_files() option schemaHints: " + full + " names a field of " + path[at - 1] + ", which is " +
                      TypeForMessage(type) + ", not a STRUCT; hint " + path[at - 1] + " itself, e.g. '" + path[at - 1] +
                      " STRUCT<" + path[at] + ": " + TypeForMessage(hint) + ">'");
  }
  child_list_t fields = type.id() == TypeId::STRUCT ? type.children() : child_list_t{};
  for (auto& [name, t] : fields) {
    if (StringUtil::CIEquals(name, path[at])) {
      t = HintField(t, path, at + 1, hint, full);
      return LogicalType::Struct(std::move(fields));
    }
  }
  fields.emplace_back(path[at], HintField(LogicalType(TypeId::SQLNULL), path, at + 1, hint, full));
  return LogicalType::Struct(std::move(fields));
}

// Hints override inferred types; 'a.b INT' sets field b of STRUCT column a.
static void ApplyHints(FileSchema& schema, const FileSchema& hints, const std::string& rescue_column) {
  for (idx_t i = 0; i < hints.size(); i++) {
    if (!rescue_column.empty() && StringUtil::CIEquals(hints.names[i], rescue_column)) continue;
    std::vector<std::string> path = HintPath(hints.names[i]);
    int64_t at = schema.Find(path[0]);
    if (at < 0) {
      schema.names.push_back(path[0]);
      schema.types.push_back(TypeId::SQLNULL);
      at = static_cast<int64_t>(schema.size() - 1);
    }
    schema.types[at] = HintField(schema.types[at], path, 1, hints.types[i], StringUtil::Join(path, "."));
  }
}

// Schema evolution of a streaming table's source (the first run inferred and
// stored `schema`): the files this run ingests are inferred, whole, and
// compared with it. Returns true when `schema` changed.
static bool EvolveSchema(FileSchema& schema, const std::vector<DiscoveredFile>& fresh, FileFormat format,
                         const ReadFilesOptions& options, const EvolutionOptions& evolution, const IngestionScope& scope) {
  SchemaEvolutionMode mode = evolution.mode;
  // A table that declares its columns cannot take new ones: as with schema =>,
  // the default is then to ignore them.
  if (mode == SchemaEvolutionMode::DEFAULT) {
    mode = scope.hints.empty() ? SchemaEvolutionMode::ADD_NEW_COLUMNS : SchemaEvolutionMode::NONE;
  }
  if (mode != SchemaEvolutionMode::ADD_NEW_COLUMNS && mode != SchemaEvolutionMode::FAIL_ON_NEW_COLUMNS) return false;
  bool changed = false;
  // With delta.enableTypeWidening on the streaming table, a type that Delta
  // widens during schema evolution (INT -> BIGINT, a wider DECIMAL, DATE ->
  // TIMESTAMP_NTZ) widens the source's schema and then the table's.
  bool widen = scope.snapshot && StringUtil::CIEquals(scope.snapshot->Property("delta.enableTypeWidening"), "true");
  // Every file of the run, whole: a field that only a later record or file
  // has must not slip past (the files are read in full anyway).
  for (idx_t i = 0; i < fresh.size(); i++) {
    SchemaInference inference(InferOptionsOf(options, evolution));
    InferFileColumns(fresh[i].path, format, options, inference, std::numeric_limits<idx_t>::max());
    FileSchema incoming = inference.Finish(options.infer_types, false);
    std::vector<SchemaChange> changes = DiffSchemas(schema, incoming);
    bool file_changes = false;
    for (auto& change : changes) {
      if (change.kind == SchemaChange::Kind::TYPE_CHANGE) {
        // Otherwise per value: rescued, or an error naming both types.
        if (widen && DeltaWidensOnEvolution(change.stored, MergeInferredTypes(change.stored, change.incoming))) {
          file_changes = true;
        }
        continue;
      }
      if (!options.rescue_column.empty() && StringUtil::CIEquals(change.path, options.rescue_column)) continue;
      if (mode == SchemaEvolutionMode::FAIL_ON_NEW_COLUMNS) {
        const char* what = change.kind == SchemaChange::Kind::NEW_COLUMN ? "a new column " : "a new nested field ";
        throw InvalidInputError(
            "read_files('" + options.path_argument + "'): " + fresh[i].path + " has " + what + change.path + " (" +
            TypeForMessage(FinishInferredType(change.incoming, options.infer_types)) + ") that the schema of streaming table " +
            scope.table + " lacks, and schemaEvolutionMode is 'failOnNewColumns'. Use schemaEvolutionMode => "
            "'addNewColumns' to add it, 'rescue' to keep it in _rescued_data, or 'none' to ignore it; or move the file away");
      }
      file_changes = true;
    }
    if (file_changes) {
      schema = AddNewFields(schema, incoming, widen);
      changed = true;
    }
  }
  return changed;
}

// The rows of the files, file by file and a batch of records at a time: the
// source holds one batch, never a whole file (function/table/file_readers.hpp).
class ReadFilesSource : public TableSource {
 public:
  ReadFilesSource(std::vector<DiscoveredFile> files, FileFormat format, ReadFilesOptions options, FileSchema schema,
                  std::shared_ptr<int64_t> counter, std::vector<idx_t> projected)
      : files_(std::move(files)),
        format_(format),
        options_(std::move(options)),
        schema_(std::move(schema)),
        counter_(std::move(counter)),
        projected_(std::move(projected)) {}

  bool Next(DataChunk& out) override {
    while (next_chunk_ >= batch_.ChunkCount()) {
      if (!reader_) {
        if (next_file_ >= files_.size()) return false;
        const std::string& path = files_[next_file_++].path;
        builder_ = std::make_unique<RecordBuilder>(schema_, options_.rescue_column, path, options_.function);
        reader_ = OpenFileRecords(path, format_, options_);
      }
      if (!reader_->Read(*builder_, kBatchRecords)) reader_.reset();
      batch_ = builder_->TakeRows();
      next_chunk_ = 0;
      *counter_ += static_cast<int64_t>(batch_.Count());
    }
    const DataChunk& chunk = batch_.Chunk(next_chunk_++);
    out.Reset();
    for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(chunk.data[projected_[c]], nullptr, chunk.size(), 0, 0);
    out.SetCardinality(chunk.size());
    return true;
  }
  std::string Name() const override { return "READ_FILES"; }

 private:
  // Records per batch: a few chunks, so a batch's rows stay small.
  static constexpr idx_t kBatchRecords = 8 * STANDARD_VECTOR_SIZE;

  std::vector<DiscoveredFile> files_;
  FileFormat format_;
  ReadFilesOptions options_;
  FileSchema schema_;
  std::shared_ptr<int64_t> counter_;
  std::vector<idx_t> projected_;  // output column i = row column projected_[i]
  idx_t next_file_ = 0;
  std::unique_ptr<RecordBuilder> builder_;
  std::unique_ptr<FileRecordReader> reader_;  // of files_[next_file_ - 1]
  ChunkCollection batch_;
  idx_t next_chunk_ = 0;
};

TableFunctionBinding BindReadFiles(ClientContext& context, const std::vector<Value>& arguments,
                                   const std::vector<std::string>& argument_names) {
  ReadFilesOptions options = ParseReadFilesOptions(arguments, argument_names);
  EvolutionOptions evolution = ParseEvolutionOptions(arguments, argument_names, options);
  return BindReadFiles(context, std::move(options), evolution);
}

TableFunctionBinding BindReadFiles(ClientContext& context, ReadFilesOptions options, const EvolutionOptions& evolution) {
  IngestionScope* scope = context.ingestion_scope;
  if (scope && options.rescue_column.empty()) options.rescue_column = scope->rescue_column;
  const std::string& source = options.path_argument;
  const ExternalAccessPolicy& policy = context.Database().AccessPolicy();
  for (auto& pattern : options.patterns) policy.CheckPattern(pattern, AccessMode::READ, "read_files");
  options.files = policy.Files();
  // A streaming table lists object storage incrementally between full listings.
  ListingResume resume;
  if (scope && options.incremental_listing &&
      !FullListingDue(scope->table + "\n" + scope->txn_prefix + "\n" + source, options.backfill_interval_ms)) {
    resume = [scope](const std::string& prefix_url) { return scope->LastIngestedFile(prefix_url); };
  }
  auto files = DiscoverFiles(options.patterns, resume);
  // A file found in an allowed directory may be a symlink that leads out of it.
  for (auto& f : files) policy.CheckPath(f.path, AccessMode::READ, "read_files");

  FileFormat format = options.format;
  if (format == FileFormat::UNKNOWN && !files.empty()) {
    format = FormatFromExtension(files[0].path);
    if (format == FileFormat::UNKNOWN) {
      throw BinderError(options.function + "('" + source + "'): cannot tell the format of " + files[0].path +
                        " from its name; pass format => 'json', 'csv' or 'parquet'");
    }
  }
  if (format == FileFormat::CSV && !files.empty() && (options.auto_header || options.auto_delimiter)) {
    SniffCsv(files[0].path, options);
  }
  FileSchema schema;
  bool stored = false;
  if (!options.schema.empty()) {
    schema = options.schema;
  } else if (scope && scope->StoredSchema(source, schema)) {
    stored = true;
  } else {
    if (files.empty()) {
      if (scope) {
        throw InvalidInputError("read_files('" + source + "'): no files yet to infer the schema of streaming table " +
                                scope->table + " from; add files there, or declare the columns with schema => 'id BIGINT, ...'");
      }
      throw IOError(options.function + "(): no file matches '" + source +
                    "'; check the path (relative paths start at the current directory)");
    }
    if (format == FileFormat::UNKNOWN) {
      throw BinderError(options.function + "('" + source + "'): pass format => 'json', 'csv' or 'parquet'");
    }
    schema = InferSchema(files, format, options, evolution);
    ApplyHints(schema, options.hints, options.rescue_column);
    if (scope) {
      ApplyHints(schema, scope->hints, options.rescue_column);
      scope->StoreSchema(source, schema);
    }
  }
  if (!scope && files.empty()) {
    throw IOError(options.function + "(): no file matches '" + source + "'; check the path (relative paths start at the current directory)");
  }
  if (scope) {
    std::vector<DiscoveredFile> fresh;
    for (auto& f : files) {
      std::optional<int64_t> size = scope->TxnVersion(FileAppId(f.id));
      if (!size) {
        fresh.push_back(f);
        continue;
      }
      // Ingested before: a file that grew or was rewritten since is never
      // silently skipped (docs/pipelines.md, "Files that change").
      std::optional<int64_t> mtime = scope->TxnVersion(FileMtimeAppId(f.id));
      if (*size == static_cast<int64_t>(f.size) && (!mtime || *mtime == f.mtime_ms)) continue;
      scope->changed_files.push_back({f, *size, mtime, options.allow_overwrites});
      if (options.allow_overwrites) fresh.push_back(f);
    }
    files = std::move(fresh);
    scope->new_files.insert(scope->new_files.end(), files.begin(), files.end());
  }
  if (!files.empty() && format == FileFormat::UNKNOWN) format = FormatFromExtension(files[0].path);
  if (!files.empty() && format == FileFormat::UNKNOWN) {
    throw BinderError(options.function + "('" + source + "'): pass format => 'json', 'csv' or 'parquet'");
  }
  if (stored && !files.empty() && EvolveSchema(schema, files, format, options, evolution, *scope)) {
    // Saved with the table's state before the commit that holds the rows.
    scope->StoreSchema(source, schema);
  }

  TableFunctionBinding binding;
  binding.names = schema.names;
  binding.types = schema.types;
  bool rescue = !options.rescue_column.empty() && schema.Find(options.rescue_column) < 0;
  if (!rescue) options.rescue_column.clear();
  if (rescue) {
    binding.names.push_back(options.rescue_column);
    binding.types.push_back(TypeId::VARCHAR);
  }
  auto types = binding.types;
  std::shared_ptr<int64_t> counter = scope ? scope->rows_read : std::make_shared<int64_t>(0);
  binding.factory = [files, format, options, schema, types, counter](const std::vector<idx_t>& projected) {
    return TableSourcePtr(std::make_unique<ReadFilesSource>(files, format, options, schema, counter, projected));
  };
  return binding;
}

}  // namespace lakestream
