// Subqueries used as values turned into joins, once a SELECT is bound.
//
// In a WHERE/HAVING filter or a SELECT list, a SUBQUERY node that is
// correlated, or an IN / NOT IN subquery, is replaced by a join of the
// operator's input with the subquery plan, decorrelated by pulling its
// equality correlations up (planner/subquery/decorrelate.hpp) or, where that
// does not apply, as a flattened dependent join joined back on the
// correlated columns IS NOT DISTINCT FROM (flatten_dependent_join.hpp):
//   * a filter conjunct EXISTS / IN  -> SEMI join (IN adds probe = column)
//   * a filter conjunct NOT EXISTS   -> ANTI join
//   * NOT IN, and EXISTS / IN under OR, CASE, NOT or in a SELECT list
//                                    -> MARK join; the node reads the mark
//     (NOT IN is NOT mark: NULL, so false in WHERE, when the subquery holds
//     a NULL and no equal value, as SQL requires)
//   * a correlated scalar subquery   -> SINGLE join (a LEFT join that raises
//     when an outer row meets two rows); an aggregate without GROUP BY that
//     now groups by the correlation keys gives its empty-input value
//     (count(*) = 0) to outer rows without rows.
// Uncorrelated scalar and EXISTS subqueries stay SUBQUERY nodes: they run
// once (execution/subquery_resolver.hpp). So do subqueries elsewhere (ORDER
// BY, aggregate arguments); a correlated one left there raises
// NotImplementedError when the plan runs.
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

class Binder;

// Rewrites the subqueries of `plan` (and of the plans below it) as above.
void PlanSubqueries(Binder& binder, LogicalOperatorPtr& plan);

}  // namespace lakestream
