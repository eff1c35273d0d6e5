// Internal to src/function/scalar: the nested-value function families and
// the helpers they share. Semantics follow Spark SQL with ANSI mode off (see
// docs/sql-nested.md for where DuckDB differs).
#pragma once

#include <functional>
#include <vector>

#include "function/scalar/executor.hpp"

namespace lakestream {

// array(), map(), map_from_arrays, [] subscripts, element_at, struct_extract,
// size, map_keys/map_values (nested_access.cpp).
void RegisterNestedAccessFunctions(ScalarFunctionRegistry& registry);
// array_contains, array_position, array_distinct, sort_array, array_join,
// flatten, slice, array concat (nested_array.cpp).
void RegisterNestedArrayFunctions(ScalarFunctionRegistry& registry);
// concat(ARRAY, ...) and ARRAY || ARRAY (string.cpp dispatches here).
BoundScalarFunction BindArrayConcatFunction(const ScalarBindInput& input);
// get_json_object, json_tuple, from_json, schema_of_json (json_functions.cpp).
void RegisterJsonFunctions(ScalarFunctionRegistry& registry);

// A kernel evaluating `fn` on each row's argument values: for the nested
// functions whose work per row (sorting, deduplicating, building a map) is
// far above the cost of reading the row as Values. With `null_in_null_out`,
// a row with a NULL argument is NULL without calling `fn`.
using row_value_fn_t = std::function<Value(const std::vector<Value>& args)>;
scalar_kernel_t RowValueKernel(row_value_fn_t fn, bool null_in_null_out = true);

// Starts writing a LIST/MAP result vector from row 0: drops the elements of
// the previous chunk.
void ResetListResult(Vector& result);

}  // namespace lakestream
