// Internal to src/function: DuckDB's function names that the Spark families
// lack, registered after every other family because some wrap what those
// registered (datediff('day', a, b) beside Spark's datediff(end, start),
// trunc(x) beside trunc(date, unit), len(list) beside len(text)).
#pragma once

#include <functional>
#include <string>

#include "function/scalar_function.hpp"

namespace lakestream {

// The bind registered so far under a name, or nullptr.
using BindLookup = std::function<const scalar_bind_t*(const std::string& name)>;

// translate, string_split, regexp_split_to_array, format, printf, md5, sha256,
// uuid, unicode, levenshtein, jaro_winkler_similarity, ... (string_more.cpp)
void RegisterStringMoreFunctions(ScalarFunctionRegistry& registry);
// sin, cos, ..., cbrt, gcd, lcm, factorial, isnan, random, setseed, trunc(x) (math_more.cpp)
void RegisterMathMoreFunctions(ScalarFunctionRegistry& registry, const BindLookup& find);
// strftime, strptime, epoch, age, time_bucket, date_diff, dayname, ... (date_more.cpp)
void RegisterDateMoreFunctions(ScalarFunctionRegistry& registry, const BindLookup& find);
// list_sum, list_aggregate, list_sort, list_contains, list_slice, range, ... (list_functions.cpp)
void RegisterListFunctions(ScalarFunctionRegistry& registry, const BindLookup& find);
// json_extract, json_value, json_keys, json_valid, json_object, ... (json_more.cpp)
void RegisterJsonMoreFunctions(ScalarFunctionRegistry& registry);

}  // namespace lakestream
