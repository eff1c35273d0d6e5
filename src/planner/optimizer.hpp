// Rewrites of the logical plan before it runs:
// - filter pushdown: WHERE conjuncts move into table scans and below joins;
//   conjuncts over both sides of a cross join become its join condition;
// - join order: inner/cross joins are reordered by cost (join_order/);
// - column pruning: scans read only the columns something references.
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

LogicalOperatorPtr OptimizePlan(LogicalOperatorPtr plan);

}  // namespace lakestream
