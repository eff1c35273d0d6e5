// Rewrites of the logical plan before it runs:
// - filter pushdown: WHERE conjuncts move into table scans and below joins;
//   conjuncts over both sides of a cross join become its join condition;
// - top-N windows: row_number() filtered to rn <= N keeps N rows per
//   partition instead of sorting them all (top_n_window.hpp);
// - join order: inner/cross joins are reordered by cost (join_order/);
// - column pruning: scans read only the columns something references;
// - common subexpressions of a projection or aggregate are computed once
//   (common_subexpressions.hpp).
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

LogicalOperatorPtr OptimizePlan(LogicalOperatorPtr plan);

}  // namespace lakestream
