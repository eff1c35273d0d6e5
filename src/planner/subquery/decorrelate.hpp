// Decorrelation of a subquery's plan by pulling its correlated predicates up
// (the common shapes of "Unnesting Arbitrary Queries", Neumann & Kemper).
//
// A correlated subquery reads columns of the query around it ("outer"
// columns: bindings of tables its own plan does not produce). Every predicate
// that reads one is taken out of the plan and returned, rewritten over the
// plan's output columns: filters and inner-join conditions move up as they
// are; a projection also outputs the inner columns a pulled predicate reads;
// an aggregate groups by the inner side of a pulled `inner = outer` (so it
// computes one row per outer value at once). What is left is an uncorrelated
// plan the caller joins to the outer query on the returned predicates.
//
// Shapes that cannot be pulled up this way (an outer column in a SELECT list,
// under LIMIT, below an outer join's inner side, in a non-equality below an
// aggregate, in a UNION) raise NotImplementedError naming the shape.
#pragma once

#include <set>
#include <vector>

#include "planner/logical_plan.hpp"

namespace lakestream {

struct DecorrelatedPlan {
  LogicalOperatorPtr plan;
  // Predicates over plan's output and outer columns (all must hold).
  std::vector<BoundExprPtr> conditions;
  // The aggregate that had no GROUP BY and now groups by the correlation
  // keys: an outer row without matching rows gets no row from it, where the
  // subquery gave one (count(*) = 0). Only set when it sits at the top of
  // the plan under projections, filters and orders; null otherwise.
  const LogicalOperator* ungrouped_aggregate = nullptr;
  // The subquery's value over no rows when ungrouped_aggregate is set and it
  // is not NULL (count(*) + 1 -> 1); filled in by the subquery planner.
  BoundExprPtr empty_value;
};

// The table indexes `plan` produces (its own columns, at any depth).
std::set<idx_t> ProducedTableIndexes(const LogicalOperator& plan);

// True when `expr` reads a column of a table not in `inner`.
bool ReadsOuterColumn(const BoundExpression& expr, const std::set<idx_t>& inner);

// Pulls the correlated predicates out of `plan` (see above).
DecorrelatedPlan PullUpCorrelations(LogicalOperatorPtr plan);

}  // namespace lakestream
