// Turns an optimised logical plan into physical operators, resolving every
// column binding into a position in the operator's input chunk. This is
// where a plan starts reading: the subqueries its expressions use as values
// run first (execution/subquery_resolver.hpp), and the streams it reads are
// read (stream/stream_reader.hpp).
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class ClientContext;

PhysicalOperatorPtr CreatePhysicalPlan(ClientContext& context, LogicalOperator& op);

// Rewrites COLUMN_REFs of `expr` to positions in `bindings`.
void ResolveColumns(BoundExpression& expr, const std::vector<ColumnBinding>& bindings);

}  // namespace lakestream
