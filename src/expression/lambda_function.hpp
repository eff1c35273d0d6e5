// Higher-order functions over arrays and maps: transform, filter, exists,
// forall, aggregate, transform_values, transform_keys, map_filter.
//
// The binder (planner/bind_nested.cpp) binds each lambda's body into an
// expression whose COLUMN_REFs already hold their positions in the chunk the
// kernel builds: the lambda's parameters first, then the columns of the
// outer query the body reads (its captures), which the function receives as
// extra arguments after its own. The kernel evaluates a body once per batch
// of up to STANDARD_VECTOR_SIZE elements of the flattened child vector (each
// capture repeated for the elements of its row), not once per element.
#pragma once

#include <memory>
#include <vector>

#include "expression/bound_expression.hpp"

namespace lakestream {

enum class LambdaFunctionKind : uint8_t {
  TRANSFORM,         // (arr, x -> y | (x, i) -> y) -> ARRAY<y>
  FILTER,            // (arr, x -> bool | (x, i) -> bool) -> arr
  EXISTS,            // (arr, x -> bool) -> BOOLEAN: TRUE if any, else NULL if any NULL, else FALSE
  FORALL,            // (arr, x -> bool) -> BOOLEAN: FALSE if any, else NULL if any NULL, else TRUE
  AGGREGATE,         // (arr, start, (acc, x) -> acc[, acc -> r])
  TRANSFORM_VALUES,  // (map, (k, v) -> v2)
  TRANSFORM_KEYS,    // (map, (k, v) -> k2): a NULL or repeated new key is an error
  MAP_FILTER,        // (map, (k, v) -> bool)
};

struct LambdaBody {
  std::shared_ptr<const BoundExpression> body;
  idx_t parameters = 0;                // how many of the chunk's first columns are parameters
  std::vector<LogicalType> parameter_types;
  std::vector<LogicalType> capture_types;  // the captures, in argument order
};

// `arguments`: the function's own argument types (the collection, and the
// start value of aggregate) followed by the captures of each lambda in order.
BoundScalarFunction MakeLambdaFunction(LambdaFunctionKind kind, std::vector<LogicalType> arguments,
                                       std::vector<LambdaBody> lambdas, LogicalType return_type);

}  // namespace lakestream
