// OR factoring on the conjuncts of a filter or an inner join's condition
// (rows pass only where the conjunction is TRUE), before pushdown:
//
//  1. A conjunct common to every branch of an OR moves out of it, in place:
//       (A AND B) OR (A AND C)  ->  A, (B OR C)
//     Kleene logic distributes, so this is exact for NULLs too. `A` is often
//     the join key (TPC-H Q19's p_partkey = l_partkey), which then becomes a
//     hash-join condition instead of part of a nested-loop predicate.
//  2. For each table that every remaining branch restricts on its own, the
//     OR of those restrictions is added after the OR (which stays):
//       (t.a = 1 AND u.b = 2) OR (t.a = 3 AND u.b = 4)
//     adds t.a = 1 OR t.a = 3 and u.b = 2 OR u.b = 4, which pushdown takes to
//     the scans. Sound: a row that passes the OR passes some branch, hence
//     that branch's restriction of each table. Only restrictions that cannot
//     raise an error are copied (comparisons, IN, IS NULL, LIKE of columns
//     and constants, lossless casts): evaluated earlier than the user wrote
//     them, they must not fail where the original would not have.
//
// Non-deterministic calls and subqueries are never copied or merged
// (BoundExpression::Equals). Idempotent: a derived conjunct already in the
// list is not added again.
#pragma once

#include <vector>

#include "expression/bound_expression.hpp"

namespace lakestream {

void FactorOrConjuncts(std::vector<BoundExprPtr>& conjuncts);

}  // namespace lakestream
