// The logical plan: what to compute, with columns named by ColumnBinding.
// The binder builds it, the optimizer (optimizer.hpp) rewrites it (filter
// pushdown, column pruning), and the physical planner turns it into
// operators, resolving bindings into chunk positions.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "expression/bound_expression.hpp"
#include "function/table_function.hpp"
#include "function/window/window_function.hpp"
#include "planner/bound_aggregate.hpp"

namespace lakestream {

struct TableCatalogEntry;
class DataTable;
class PhysicalOperator;

enum class LogicalOperatorType : uint8_t {
  GET,          // scan of a catalog table
  CHUNK_GET,    // materialised rows (VALUES, SELECT without FROM, view maintenance deltas)
  SOURCE,       // any other producer, built by a factory (table functions)
  FILTER,
  PROJECTION,
  AGGREGATE,
  JOIN,
  ORDER,
  LIMIT,
  UNION,
  STREAM_GET,   // the pending changes of a table stream, read when the plan runs
  SET_OPERATION,  // EXCEPT / INTERSECT [ALL] of two children (already cast to union_types)
  WINDOW,       // child's columns, then one per window function (at table_index)
  UNNEST,       // one row per element of expressions[0] (explode, UNNEST): the child's columns, then
                // [pos INTEGER] and the element (or key, value of a MAP), typed source_types
  RECURSIVE_CTE,  // WITH RECURSIVE: children [anchor, recursive term], iterated (physical_recursive_cte.hpp)
};

// SET_OPERATION: what survives of the left input given the right one.
enum class LogicalSetOperation : uint8_t { EXCEPT, INTERSECT };

// SEMI/ANTI output the left columns only; MARK the left columns and a
// BOOLEAN (binding {table_index, 0}) saying whether the left row found a
// match (see mark_condition); SINGLE is a LEFT join that raises when a left
// row meets two rows (a scalar subquery). RIGHT joins are LEFT joins with the
// children swapped.
enum class LogicalJoinType : uint8_t { INNER, LEFT, CROSS, FULL, SEMI, ANTI, MARK, SINGLE };

struct BoundOrder {
  BoundExprPtr expression;
  bool descending = false;
  bool nulls_first = false;
};

struct LogicalOperator {
  explicit LogicalOperator(LogicalOperatorType type_p) : type(type_p) {}

  LogicalOperatorType type;
  std::vector<std::unique_ptr<LogicalOperator>> children;

  // FILTER: conjuncts; PROJECTION: outputs; AGGREGATE: groups.
  std::vector<BoundExprPtr> expressions;
  idx_t table_index = 0;  // GET, CHUNK_GET, SOURCE, PROJECTION, UNION, AGGREGATE (groups)

  // GET
  TableCatalogEntry* table = nullptr;
  DataTable* storage = nullptr;  // the snapshot to scan (time travel may pick an older one)
  std::shared_ptr<DataTable> owned_storage;  // keeps a time-travel snapshot alive
  std::string table_name;
  std::vector<idx_t> column_ids;  // the columns read, in output order
  std::vector<BoundExprPtr> table_filters;
  bool emit_row_ids = false;

  // CHUNK_GET. When `value_rows` is not empty the rows are those
  // expressions (VALUES with a subquery), evaluated when the plan runs into
  // `collection`, which until then holds no rows, only the types.
  std::shared_ptr<ChunkCollection> collection;
  std::vector<std::vector<BoundExprPtr>> value_rows;
  // CHUNK_GET of a CTE a query reads more than once: `collection` is
  // materialized->rows, filled by running its plan once (MaterializedCTE).
  std::shared_ptr<struct MaterializedCTE> materialized;

  // STREAM_GET: the stream (table_name) and the columns it shows
  // (source_types); column_ids are the ones read.

  // SOURCE
  std::vector<LogicalType> source_types;
  std::function<TableSourcePtr(const std::vector<idx_t>& projected)> source_factory;

  // AGGREGATE
  idx_t aggregate_index = 0;
  std::vector<BoundAggregate> aggregates;
  // AGGREGATE with GROUPING SETS/ROLLUP/CUBE: positions in `expressions` of
  // each set (empty: plain GROUP BY of all of them).
  std::vector<std::vector<idx_t>> grouping_sets;

  // JOIN: left_keys[i] = right_keys[i]; then `residual` (may be null).
  LogicalJoinType join_type = LogicalJoinType::INNER;
  std::vector<BoundExprPtr> left_keys;
  std::vector<BoundExprPtr> right_keys;
  BoundExprPtr residual;
  // MARK: the mark is the three-valued OR of this over the pairs that pass
  // `expressions` (x IN (...): NULL when no pair is equal and one compared
  // with NULL); null: TRUE when any pair passes.
  BoundExprPtr mark_condition;
  // Which output columns anything above reads (set by the optimizer); the
  // join leaves the others unfilled. Empty: all are needed.
  std::vector<bool> left_needed;
  std::vector<bool> right_needed;

  // ORDER
  std::vector<BoundOrder> orders;

  // LIMIT (-1: none)
  int64_t limit = -1;
  int64_t offset = 0;
  // LIMIT (SELECT ...) / OFFSET (SELECT ...): set, limit/offset are taken
  // from them when the plan runs (execution/physical_planner.cpp).
  BoundExprPtr limit_expression;
  BoundExprPtr offset_expression;

  // WINDOW: `expressions` are its inputs over the child's rows
  std::vector<BoundWindow> windows;
  // WINDOW of one row_number(): when > 0, only the rows it numbers 1 to
  // window_top_n are produced (a FILTER above drops the others anyway; see
  // planner/top_n_window.hpp).
  int64_t window_top_n = 0;

  // UNNEST: explode_outer keeps a row for a NULL or empty collection (NULL
  // element); posexplode adds the 0-based position before the element.
  bool unnest_outer = false;
  bool unnest_position = false;

  // UNION, SET_OPERATION: output types (children are already cast to them)
  std::vector<LogicalType> union_types;
  // SET_OPERATION: rows compare as IS NOT DISTINCT FROM; set_all keeps
  // duplicates (EXCEPT ALL: max(m - n, 0) copies, INTERSECT ALL: min(m, n)).
  LogicalSetOperation set_operation = LogicalSetOperation::EXCEPT;
  bool set_all = false;

  // RECURSIVE_CTE (also union_types, table_index; table_name: the CTE). The
  // recursive term reads the rows the last iteration added through CHUNK_GETs
  // over `collection`, the working table. UNION (not ALL) keeps only rows not
  // seen before.
  bool recursive_distinct = false;

  std::vector<ColumnBinding> GetBindings() const;
  std::vector<LogicalType> GetTypes() const;
  std::string ToString(int indent = 0) const;
};

using LogicalOperatorPtr = std::unique_ptr<LogicalOperator>;

// A deep copy of `op` and its children (logical_plan_copy.cpp), for a plan
// that runs more than once (the recursive term of WITH RECURSIVE). Shared
// state (CHUNK_GET collections, snapshots, subqueries) stays shared. Every
// member of LogicalOperator must be copied there.
LogicalOperatorPtr CopyLogicalPlan(const LogicalOperator& op);

// Rows a plan computes once for several readers, as DuckDB materializes a
// CTE read more than once and computes a delim join's outer side once:
// every reader is a CHUNK_GET over `rows`, column i of `plan`'s output being
// {reader's table_index, i}. The physical planner makes the first reader it
// meets the owner of `plan`; the rows are computed when a reader is first
// pulled (execution/operator/physical_shared_scan.hpp). Made for a CTE a
// SELECT reads more than once (planner/bind_table_ref.cpp; only for a body
// that reads no outer column) and for the subtree the semi-join reduction
// would otherwise copy (planner/semi_join_reduction.hpp).
struct MaterializedCTE {
  std::string name;
  LogicalOperatorPtr plan;  // null once planned
  // `plan` went through OptimizePlan already (a subtree of an optimized
  // plan); a CTE's body is optimized on its own when planned.
  bool optimized = false;
  // The plan's estimated rows, kept when the physical planner takes the
  // plan: readers planned after it are estimated the same.
  double estimated_rows = -1;
  std::shared_ptr<ChunkCollection> rows;
  // Set by the physical planner at the first reader.
  std::shared_ptr<struct SharedScanRun> run;
};

// The plan of a subquery used as a value (BoundExpressionType::SUBQUERY).
struct BoundSubquery {
  LogicalOperatorPtr plan;  // null once run
  std::vector<LogicalType> types;  // its output columns
  // It reads columns of the query around it: it must become a join
  // (planner/subquery/plan_subqueries.hpp); it cannot run on its own.
  bool correlated = false;
  // The rows, once the plan has run (execution/subquery_resolver.hpp).
  std::shared_ptr<const ChunkCollection> rows;
};

// The table indexes of the columns `op` produces (its bindings): which side
// of a join an expression's tables can be pushed to.
std::set<idx_t> TablesOf(const LogicalOperator& op);
// Whether every table index of `a` is in `b`.
bool SubsetOf(const std::set<idx_t>& a, const std::set<idx_t>& b);

}  // namespace lakestream
