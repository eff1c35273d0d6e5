// Two rewrites around the joins that keep the rows of their left side
// (SEMI, ANTI, LEFT, SINGLE), run by the optimizer (optimizer.cpp).
//
// PushSemiJoins, before join ordering: a SEMI or ANTI join whose condition
// reads, of its left input, only columns of one side of the inner join
// below it moves onto that side: (A JOIN B) SEMI R = (A SEMI R) JOIN B, the
// same for ANTI. An IN / EXISTS on orders written above lineitem JOIN orders
// JOIN customer then filters orders before the joins (TPC-H Q18), and the
// join-order optimizer sees the filtered relation.
//
// ReduceBuildSides, after join ordering: the right input of those joins is
// the one built into a hash table, and only its rows whose key some left row
// holds can matter (for LEFT and SINGLE too: a right row no left row meets is
// never emitted). When the left side's keys come from a relation estimated
// much smaller than the right input, the right input is first semi-joined
// with a copy of that relation (semi-join reduction; DuckDB's delim join does
// this for decorrelated subqueries), the semi join pushed below filters,
// projections, inner joins, the preserved side of outer joins and the GROUP
// BY of those keys. TPC-H Q17's and Q20's decorrelated aggregates then group
// only the rows of the parts the outer query kept, and Q4's and Q21's
// EXISTS build hash tables of the matching lineitems instead of all of them.
//
// The relation is any subtree on the left side that produces every key
// column (a scan of part, an inner join, the left side itself); the keys it
// holds are a superset of the left rows', which is all a reducer needs. The
// copy is planned again and runs once more: there is no shared
// materialisation. So it is taken only when it is estimated at least
// kReductionRatio times smaller than what it reduces and reads at most
// kCopyReadRatio times the rows that reads, and only when running it twice
// gives the same rows (scans, filters, projections, joins, ORDER BY of
// deterministic expressions without subqueries). MARK joins are left alone
// (IN's NULL rules read the right side's NULL keys), as are inner joins
// (the join-order optimizer already builds the smaller side).
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

constexpr double kReductionRatio = 4;
constexpr double kCopyReadRatio = 2;

LogicalOperatorPtr PushSemiJoins(LogicalOperatorPtr op);

void ReduceBuildSides(LogicalOperator& plan);

}  // namespace lakestream
