// Subqueries used as values turned into joins, once a SELECT (or an UPDATE,
// DELETE or MERGE) is bound.
//
// A SUBQUERY node that is correlated, or an IN / NOT IN subquery, is replaced
// by a join of its operator's input with the subquery plan, decorrelated by
// pulling its equality correlations up (planner/subquery/decorrelate.hpp) or,
// where that does not apply, as a flattened dependent join joined back on the
// correlated columns IS NOT DISTINCT FROM (flatten_dependent_join.hpp). The
// operators: a filter (WHERE, HAVING, an inner join's ON moved above it), a
// projection (SELECT list, ORDER BY's hidden columns, UPDATE SET, MERGE's
// conditions and values), an aggregate (GROUP BY keys, arguments, FILTER), a
// window's and an UNNEST's inputs, and an outer / semi / anti join's ON (the
// join goes on the side whose columns the subquery reads):
//   * a filter conjunct EXISTS / IN  -> SEMI join (IN adds probe = column)
//   * a filter conjunct x op ANY     -> SEMI join on probe op column
//   * a filter conjunct NOT EXISTS   -> ANTI join
//   * NOT IN, x op ANY / ALL elsewhere, EXISTS / IN under OR, CASE, NOT or in
//     a SELECT list                  -> MARK join; the node reads the mark
//     (NOT IN is NOT mark: NULL, so false in WHERE, when the subquery holds
//     a NULL and no equal value, as SQL requires; x op ALL is bound as
//     NOT (x <negated op> ANY))
//   * a correlated scalar subquery   -> SINGLE join (a LEFT join that raises
//     when an outer row meets two rows); an aggregate without GROUP BY that
//     now groups by the correlation keys gives its empty-input value
//     (count(*) = 0) to outer rows without rows.
// Uncorrelated scalar, EXISTS and x op ANY subqueries stay SUBQUERY nodes:
// they run once (execution/subquery_resolver.hpp). A correlated one left
// anywhere else raises NotImplementedError when the plan runs.
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

class Binder;

// Rewrites the subqueries of `plan` (and of the plans below it) as above.
void PlanSubqueries(Binder& binder, LogicalOperatorPtr& plan);

}  // namespace lakestream
