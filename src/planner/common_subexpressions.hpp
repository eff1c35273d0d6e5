// Common subexpression elimination in projections and aggregates, run by
// the optimizer (optimizer.cpp) once the plan's shape is final.
//
// An expression a PROJECTION or AGGREGATE evaluates more than once per row
// (TPC-H Q1 sums l_extendedprice * (1 - l_discount) and that times
// (1 + l_tax)) is computed once, by a PROJECTION inserted below the
// operator, and every occurrence reads that column instead:
//
//   AGGREGATE sum(a * (1 - d)), sum(a * (1 - d) * (1 + t))
//   ->  AGGREGATE sum(#0), sum(#0 * (1 + t))
//         PROJECTION a * (1 - d) AS #0, t
//
// The projection also passes on the child's columns the operator still
// reads. The largest repeated expression is taken: (1 - d) above is part of
// the hoisted product and is not hoisted on its own.
//
// What is never hoisted:
//  * columns and constants (nothing to save), subqueries, and expressions
//    with a non-deterministic call (random(), now(), a user function with
//    side effects): each call must stay a call (expression/repeatable.hpp);
//  * occurrences the operator evaluates only on some rows: CASE branches
//    after the first WHEN, operands of AND/OR after the first (short
//    circuit), coalesce/if arguments after the first, IN-list members, an
//    aggregate's argument under FILTER (WHERE ...). The projection evaluates
//    every row, so hoisting one of those would raise errors (a division by
//    zero, a failing cast) for rows the query never evaluates it on. Such
//    occurrences are neither counted nor rewritten.
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

// Rewrites every PROJECTION and AGGREGATE of `plan` (children first) as
// above. New projections take table indexes from `next_table_index` (the
// first index no operator of the plan uses), which it advances.
void EliminateCommonSubexpressions(LogicalOperator& plan, idx_t& next_table_index);

}  // namespace lakestream
