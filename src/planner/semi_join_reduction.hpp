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
// holds are a superset of the left rows', which is all a reducer needs.
// ReduceBuildSides puts a copy of it under the reducer; ShareReducerSources
// then, once columns are pruned, makes the relation and its copies readers
// of one materialization (MaterializedCTE), so it runs once: TPC-H Q21's
// lineitem-orders-supplier join feeds its outer query and both of its
// EXISTS / NOT EXISTS build sides, as DuckDB's delim join computes the
// outer side once for its subqueries. It is taken only when estimated at
// least kReductionRatio times smaller than what it reduces, reading at most
// kCopyReadRatio times the rows that reads (it is held in memory whole),
// and only when it gives the same rows each time it runs (scans, filters,
// projections, joins, ORDER BY of deterministic expressions without
// subqueries). MARK joins are left alone (IN's NULL rules read the right
// side's NULL keys), as are inner joins (the join-order optimizer already
// builds the smaller side).
#pragma once

#include <functional>
#include <map>
#include <utility>

#include "planner/logical_plan.hpp"

namespace lakestream {

constexpr double kReductionRatio = 4;
constexpr double kCopyReadRatio = 2;

LogicalOperatorPtr PushSemiJoins(LogicalOperatorPtr op);

// A reducer's relation and the copies of it the reducers read, each with
// the renumbering of its tables (copy's = renumber[relation's]).
struct ReducerShare {
  const LogicalOperator* source;
  std::vector<std::pair<LogicalOperator*, std::map<idx_t, idx_t>>> copies;
};

struct ReducedBuildSides {
  std::vector<ReducerShare> shares;
  idx_t next_index = 0;  // the first table index no operator uses
};

ReducedBuildSides ReduceBuildSides(LogicalOperator& plan);

// After column pruning: each relation of `reduced` becomes a CHUNK_GET over
// a MaterializedCTE whose plan is the relation (under a projection fixing
// its columns), and each copy another CHUNK_GET over it; the columns the
// plan read of them are renamed; the shared rows hold only the columns
// read above the relation or its copies. `finish` prepares the shared plan as the
// optimizer prepares a whole plan (pruning, join outputs). A relation
// inside another's stays copied.
// `references` counts the column references of a subtree (the optimizer's
// count, which knows that a UNION reads its children's columns by position).
using ReferenceCounter = std::function<std::map<ColumnBinding, idx_t>(LogicalOperator&)>;
void ShareReducerSources(LogicalOperator& plan, ReducedBuildSides& reduced, const ReferenceCounter& references,
                         const std::function<void(LogicalOperator&)>& finish);

}  // namespace lakestream
