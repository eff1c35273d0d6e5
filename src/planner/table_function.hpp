// Binding a table function call in FROM: the function is looked up by name
// in the TableFunctionRegistry (function/table_function.hpp).
#pragma once

#include <string>
#include <vector>

#include "function/table_function.hpp"

namespace lakestream {

// Throws CatalogError for an unknown function (with a hint), BinderError for
// bad arguments, NotImplementedError for functions whose feature has not
// landed yet.
TableFunctionBinding BindTableFunctionCall(ClientContext& context, const std::string& name,
                                           const std::vector<Value>& arguments,
                                           const std::vector<std::string>& argument_names);

}  // namespace lakestream
