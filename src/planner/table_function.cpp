#include "planner/table_function.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

TableFunctionBinding BindTableFunctionCall(ClientContext& context, const std::string& name,
                                           const std::vector<Value>& arguments,
                                           const std::vector<std::string>& argument_names) {
  auto& registry = TableFunctionRegistry::Instance();
  if (TableFunctionBind bind = registry.Find(name)) return bind(context, StringUtil::Lower(name), arguments, argument_names);
  std::string message = "Table Function with name " + name + " does not exist!";
  std::string hint = StringUtil::ClosestMatch(name, registry.SuggestedNames());
  if (!hint.empty()) message += " Did you mean \"" + hint + "\"?";
  throw CatalogError(message);
}

}  // namespace lakestream
