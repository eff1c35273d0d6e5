// Turns an optimised logical plan into physical operators, resolving every
// column binding into a position in the operator's input chunk.
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

PhysicalOperatorPtr CreatePhysicalPlan(LogicalOperator& op);

// Rewrites COLUMN_REFs of `expr` to positions in `bindings`.
void ResolveColumns(BoundExpression& expr, const std::vector<ColumnBinding>& bindings);

}  // namespace lakestream
