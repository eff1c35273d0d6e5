// Which parts of a plan run on several threads, and how many threads.
//
// A pipeline runs in parallel when it is a chain of streaming operators
// (filters, projections, the probe side of hash joins) over a table scan that the table can split into
// morsels (DataTable::ParallelScan), ending in a sink that can merge what
// its copies gathered (a hash aggregate whose aggregates are Combinable()).
// Each worker gets its own copy of the chain, planned from a copy of the
// logical subtree, so nothing an operator keeps between chunks (expression
// executors, scratch vectors) is shared. Expressions with a non-deterministic
// function (now(), stream_has_data()) keep the whole pipeline on one thread.
#pragma once

#include "execution/operator/physical_table_scan.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class ClientContext;

// SET threads, else DatabaseOptions::threads, else the machine's cores (at least 1).
idx_t ThreadCount(ClientContext& context);

// True when `op` is FILTER/PROJECTION operators and JOINs (any kind) whose
// left (probe) side continues the chain, over one GET (without row ids),
// and every expression on the way is repeatable (expression/repeatable.hpp). A join's right (build)
// side may be anything: one copy builds it, once, for every worker.
bool ParallelSafeChain(const LogicalOperator& op);

// The table scan at the bottom of a physical chain of filters, projections
// and hash joins' probe sides; null when the chain holds anything else.
PhysicalTableScan* ChainScan(PhysicalOperator& op);
// Makes each hash join on `worker`'s chain (a copy of `main`'s) probe the
// build of the join at the same place in `main`'s chain.
void ShareJoinBuilds(PhysicalOperator& main, PhysicalOperator& worker);

}  // namespace lakestream
