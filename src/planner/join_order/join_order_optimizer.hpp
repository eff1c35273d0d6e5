// The cost-based join-order optimizer. Runs after filter pushdown (so
// single-table conjuncts already sit in the scans and every join predicate
// sits in the join whose inputs it spans) and before column pruning.
//
// Each maximal tree of INNER and CROSS joins is one join graph: its inputs
// (anything that is not an inner/cross join: scans, subqueries, and outer,
// semi or anti joins, which are barriers reordered only inside) are the
// relations, and the conjuncts of its joins the predicates. The graph is
// planned by plan_enumerator.hpp from the estimates of
// cardinality_estimator.hpp, and each predicate is put back on the lowest
// join that has all of its relations, so relations that predicates connect
// are never joined by a cross product.
//
// Reordering changes the order of a join's output columns, which is harmless
// where operators above name columns by binding. A join tree whose output is
// read by position (the root of a plan, a UNION input) keeps its order.
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

LogicalOperatorPtr ReorderJoins(LogicalOperatorPtr plan);

}  // namespace lakestream
