#include "main/builtin_table_functions.hpp"

#include <mutex>

#include "connector/kafka/read_kafka.hpp"
#include "function/table/table_functions.hpp"
#include "main/secret/secret_use.hpp"

namespace lakestream {

static void RegisterCoreTableFunctions(TableFunctionRegistry& registry) {
  auto range = [](ClientContext&, const std::string& name, const std::vector<Value>& arguments,
                  const std::vector<std::string>&) { return BindRange(name, arguments); };
  auto read_parquet = [](ClientContext&, const std::string&, const std::vector<Value>& arguments,
                         const std::vector<std::string>& argument_names) { return BindReadParquet(arguments, argument_names); };
  registry.Register("range", range);
  registry.Register("generate_series", range);
  registry.Register("read_parquet", read_parquet);
  registry.Register("parquet_scan", read_parquet, /*suggest=*/false);
  registry.Register("table_changes", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                        const std::vector<std::string>&) { return BindTableChanges(context, arguments); });
  registry.Register("read_files", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                     const std::vector<std::string>& argument_names) {
    return BindReadFiles(context, arguments, argument_names);
  });
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
