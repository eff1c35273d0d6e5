// Binders of the built-in table functions; planner/table_function.cpp dispatches to them.
#pragma once

#include <string>
#include <vector>

#include "planner/table_function.hpp"

namespace lakestream {

TableFunctionBinding BindRange(const std::string& name, const std::vector<Value>& arguments);

}  // namespace lakestream
