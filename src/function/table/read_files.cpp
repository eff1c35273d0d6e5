// read_files('dir/' | 'dir/*.json' | ['a.csv', 'b.csv'], format => ..., ...):
// the rows of JSON, CSV or Parquet files (options: pipeline/read_files_options.hpp).
//
// The schema is declared (schema => '...'), or inferred from the first files
// (up to kInferFiles files, kInferRecords records each) and then adjusted by
// schemaHints. Inside a streaming table's refresh (an IngestionScope is set)
// only files the table has not ingested are read, the schema inferred on the
// first run is reused, and the files read are recorded in the scope so the
// executor commits their ingestion with their rows.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/table/table_functions.hpp"
#include "transaction/client_context.hpp"
#include "function/table/file_discovery.hpp"
#include "function/table/file_readers.hpp"
#include "function/table/ingestion_scope.hpp"

namespace lakestream {

static constexpr idx_t kInferFiles = 100;
static constexpr idx_t kInferRecords = 10000;

static FileSchema InferSchema(const std::vector<DiscoveredFile>& files, FileFormat format, const ReadFilesOptions& options) {
  SchemaInference inference;
  for (idx_t i = 0; i < files.size() && i < kInferFiles; i++) {
    InferFileColumns(files[i].path, format, options, inference, kInferRecords);
  }
  return inference.Finish(options.infer_types);
}

static void ApplyHints(FileSchema& schema, const FileSchema& hints, const std::string& rescue_column) {
  for (idx_t i = 0; i < hints.size(); i++) {
    if (!rescue_column.empty() && StringUtil::CIEquals(hints.names[i], rescue_column)) continue;
    int64_t at = schema.Find(hints.names[i]);
    if (at >= 0) {
      schema.types[at] = hints.types[i];
    } else {
      schema.names.push_back(hints.names[i]);
      schema.types.push_back(hints.types[i]);
    }
  }
}

TableFunctionBinding BindReadFiles(ClientContext& context, const std::vector<Value>& arguments,
                                   const std::vector<std::string>& argument_names) {
  ReadFilesOptions options = ParseReadFilesOptions(arguments, argument_names);
  IngestionScope* scope = context.ingestion_scope;
  if (scope && options.rescue_column.empty()) options.rescue_column = scope->rescue_column;
  const std::string& source = options.path_argument;
  const ExternalAccessPolicy& policy = context.Database().AccessPolicy();
  for (auto& pattern : options.patterns) policy.CheckPattern(pattern, AccessMode::READ, "read_files");
  auto files = DiscoverFiles(options.patterns);
  // A file found in an allowed directory may be a symlink that leads out of it.
  for (auto& f : files) policy.CheckPath(f.path, AccessMode::READ, "read_files");

  FileFormat format = options.format;
  if (format == FileFormat::UNKNOWN && !files.empty()) {
    format = FormatFromExtension(files[0].path);
    if (format == FileFormat::UNKNOWN) {
      throw BinderError("read_files('" + source + "'): cannot tell the format of " + files[0].path +
                        " from its name; pass format => 'json', 'csv' or 'parquet'");
    }
  }
  FileSchema schema;
  if (!options.schema.empty()) {
    schema = options.schema;
  } else if (!(scope && scope->StoredSchema(source, schema))) {
    if (files.empty()) {
      if (scope) {
        throw InvalidInputError("read_files('" + source + "'): no files yet to infer the schema of streaming table " +
                                scope->table + " from; add files there, or declare the columns with schema => 'id BIGINT, ...'");
      }
      throw IOError("read_files(): no file matches '" + source +
                    "'; check the path (relative paths start at the current directory)");
    }
    if (format == FileFormat::UNKNOWN) {
      throw BinderError("read_files('" + source + "'): pass format => 'json', 'csv' or 'parquet'");
    }
    schema = InferSchema(files, format, options);
    ApplyHints(schema, options.hints, options.rescue_column);
    if (scope) {
      ApplyHints(schema, scope->hints, options.rescue_column);
      scope->StoreSchema(source, schema);
    }
  }
  if (!scope && files.empty()) {
    throw IOError("read_files(): no file matches '" + source + "'; check the path (relative paths start at the current directory)");
  }
  if (scope) {
    std::vector<DiscoveredFile> fresh;
    for (auto& f : files) {
      if (!scope->TxnVersion(FileAppId(f.id))) fresh.push_back(f);
    }
    files = std::move(fresh);
    scope->new_files.insert(scope->new_files.end(), files.begin(), files.end());
  }
  if (!files.empty() && format == FileFormat::UNKNOWN) format = FormatFromExtension(files[0].path);
  if (!files.empty() && format == FileFormat::UNKNOWN) {
    throw BinderError("read_files('" + source + "'): pass format => 'json', 'csv' or 'parquet'");
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
    auto rows = std::make_shared<ChunkCollection>(types);
    for (auto& file : files) {
      RecordBuilder builder(schema, options.rescue_column, file.path);
      ReadFileRecords(file.path, format, options, builder);
      ChunkCollection part = builder.TakeRows();
      *counter += static_cast<int64_t>(part.Count());
      rows->Merge(std::move(part));
    }
    return MakeCollectionSource(std::shared_ptr<const ChunkCollection>(rows), projected, "READ_FILES");
  };
  return binding;
}

}  // namespace lakestream
