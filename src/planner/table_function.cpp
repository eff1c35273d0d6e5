#include "planner/table_function.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/table/table_functions.hpp"

namespace lakestream {

TableFunctionBinding BindTableFunctionCall(ClientContext& context, const std::string& name,
                                           const std::vector<Value>& arguments,
                                           const std::vector<std::string>& argument_names) {
  if (name == "range" || name == "generate_series") return BindRange(name, arguments);
  if (name == "table_changes") return BindTableChanges(context, arguments);
  if (name == "read_files") return BindReadFiles(context, arguments, argument_names);
  if (name == "read_kafka") return BindReadKafka(context, arguments, argument_names);
  if (name == "read_parquet" || name == "parquet_scan") return BindReadParquet(arguments, argument_names);
  std::vector<std::string> known = {"range", "generate_series", "read_parquet", "table_changes", "read_files", "read_kafka"};
  std::string message = "Table Function with name " + name + " does not exist!";
  std::string hint = StringUtil::ClosestMatch(name, known);
  if (!hint.empty()) message += " Did you mean \"" + hint + "\"?";
  throw CatalogError(message);
}

}  // namespace lakestream
