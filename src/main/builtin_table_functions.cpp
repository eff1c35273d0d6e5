#include "main/builtin_table_functions.hpp"

#include <mutex>

#include "common/exception.hpp"
#include "connector/kafka/read_kafka.hpp"
#include "function/table/table_functions.hpp"
#include "main/secret/secret_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "main/statement/summarize.hpp"

namespace lakestream {

// lakestream_settings(): name, value, description of every setting (DuckDB's duckdb_settings()).
static TableFunctionBinding BindSettings(ClientContext& context, const std::vector<Value>& arguments) {
  if (!arguments.empty()) throw BinderError("lakestream_settings() takes no arguments");
  TableFunctionBinding binding;
  binding.names = {"name", "value", "description"};
  binding.types = {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR};
  auto rows = std::make_shared<ChunkCollection>(binding.types);
  auto settings = ListSettings(context);
  DataChunk chunk;
  chunk.Initialize(binding.types);
  for (idx_t r = 0; r < settings.size(); r++) {
    for (idx_t c = 0; c < 3; c++) chunk.SetValue(c, r, Value(settings[r][c]));
  }
  chunk.SetCardinality(settings.size());
  rows->Append(chunk);
  binding.factory = [rows](const std::vector<idx_t>& projected) {
    return MakeCollectionSource(rows, projected, "SETTINGS");
  };
  return binding;
}

static void RegisterCoreTableFunctions(TableFunctionRegistry& registry) {
  auto range = [](ClientContext&, const std::string& name, const std::vector<Value>& arguments,
                  const std::vector<std::string>&) { return BindRange(name, arguments); };
  auto read_parquet = [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                         const std::vector<std::string>& argument_names) {
    return BindReadParquet(context, arguments, argument_names);
  };
  registry.Register("range", range);
  registry.Register("generate_series", range);
  registry.Register("read_parquet", read_parquet);
  registry.Register("parquet_scan", read_parquet, /*suggest=*/false);
  registry.Register("table_changes", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                        const std::vector<std::string>&) { return BindTableChanges(context, arguments); });
  registry.Register("lakestream_settings", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                              const std::vector<std::string>&) { return BindSettings(context, arguments); });
  registry.Register("summarize", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                    const std::vector<std::string>&) { return BindSummarize(context, arguments); });
  registry.Register("read_files", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                     const std::vector<std::string>& argument_names) {
    return BindReadFiles(context, arguments, argument_names);
  });
  for (const char* name : {"read_csv", "read_csv_auto"}) {
    registry.Register(name, [](ClientContext& context, const std::string& function, const std::vector<Value>& arguments,
                               const std::vector<std::string>& argument_names) {
      return BindReadCsv(context, function, arguments, argument_names);
    });
  }
  for (const char* name : {"read_json", "read_json_auto", "read_ndjson", "read_ndjson_auto"}) {
    registry.Register(name, [](ClientContext& context, const std::string& function, const std::vector<Value>& arguments,
                               const std::vector<std::string>& argument_names) {
      return BindReadJson(context, function, arguments, argument_names);
    });
  }
}

void RegisterBuiltinTableFunctions() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& registry = TableFunctionRegistry::Instance();
    RegisterCoreTableFunctions(registry);
    RegisterKafkaTableFunctions(registry);
    RegisterSecretTableFunctions(registry);
  });
}

}  // namespace lakestream
