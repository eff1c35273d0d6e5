// An aggregate call as the binder resolves it: which aggregate kernel, over
// which argument. The logical plan's AGGREGATE node holds these; the hash
// aggregate (execution) and the view maintainers (ivm) evaluate them.
#pragma once

#include "expression/bound_expression.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

struct BoundAggregate {
  AggregateSignature signature;
  BoundExprPtr argument;  // null for count(*)
};

}  // namespace lakestream
