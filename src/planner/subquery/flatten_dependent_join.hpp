// The general decorrelation of "Unnesting Arbitrary Queries" (Neumann &
// Kemper): a dependent join of the outer query's input with a subquery,
// flattened by pushing it down the subquery's operators.
//
// The correlated columns C are the outer input's columns the subquery reads.
// Their duplicate-free set D (a DISTINCT over a copy of the outer input, the
// "delim get") is joined into the subquery where it first meets a correlated
// operator, and every operator above evaluates per value of C: an aggregate
// also groups by C (an aggregate without GROUP BY then gets one row per value
// of D, with count() = 0 where no row came: the COUNT bug), a window
// partitions by C, LIMIT/OFFSET becomes row_number() per C, UNION / EXCEPT /
// INTERSECT compare C with the rows, a VALUES list reading C becomes its rows
// over D (a UNION ALL), a join whose both sides read C matches
// C IS NOT DISTINCT FROM C. The result outputs the subquery's columns, then
// C; the caller joins it to the outer input on the returned conditions
// (outer.c IS NOT DISTINCT FROM result.c: a NULL outer value meets its own
// group), so each outer row keeps its multiplicity.
//
// The outer input runs once more per copy of D (the subquery's
// uncorrelated leaves and the COUNT bug's join each take one): the price of
// not having a shared materialisation of it.
//
// Shapes it cannot flatten raise NotImplementedError ("not supported yet:
// correlated subqueries with ..."): a correlated FULL join, LIMIT/OFFSET given
// by a subquery, an outer column under WITH RECURSIVE.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "planner/logical_plan.hpp"
#include "planner/subquery/decorrelate.hpp"

namespace lakestream {

class Binder;

// Flattens `subquery` (correlated with columns of `outer_input`, its only
// columns from further out left as they are) as above. `outer_input` is
// copied, never changed. Columns of `outer_input` the subquery reads must
// already name its outputs (a grouped outer query's group columns).
DecorrelatedPlan FlattenDependentJoin(Binder& binder, LogicalOperatorPtr subquery, const LogicalOperator& outer_input);

// Calls `fn` on every expression `op` itself holds (not its children's).
void VisitOperatorExpressions(LogicalOperator& op, const std::function<void(BoundExprPtr&)>& fn);

// A deep copy of `plan` whose tables take fresh indexes from `next_index`
// (`renumber` maps old to new), so that it can sit in one plan with the
// original: the delim get above, a semi-join reducer (semi_join_reduction.hpp).
LogicalOperatorPtr CopyWithFreshTables(const LogicalOperator& plan, const std::function<idx_t()>& next_index,
                                       std::map<idx_t, idx_t>& renumber);

}  // namespace lakestream
