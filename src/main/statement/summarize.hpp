// SUMMARIZE t / SUMMARIZE SELECT ... (DuckDB's): one row per column of the
// table or query with its type, min, max, approximate distinct count, mean,
// standard deviation, quartiles, non-NULL count and NULL percentage. The
// parser turns the statement into SELECT * FROM summarize('<query text>').
#pragma once

#include <vector>

#include "common/value.hpp"
#include "function/table_function.hpp"

namespace lakestream {

class ClientContext;

// summarize('<query>'): reads the query once (all statistics in one
// aggregate) while binding and returns its rows. Throws BinderError for a
// call with other arguments.
TableFunctionBinding BindSummarize(ClientContext& context, const std::vector<Value>& arguments);

}  // namespace lakestream
