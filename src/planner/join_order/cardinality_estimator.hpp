// Cardinality estimates for the join-order optimizer (join_order_optimizer.hpp).
//
// A relation's estimate starts from its table's row count in metadata (the
// Delta log's numRecords, DataTable::EstimatedRowCount) and shrinks by the
// selectivity of each filter conjunct: column = constant keeps
// 1 / distinct(column) (DataTable::EstimatedDistinctCount), IN k / distinct,
// an OR the sum of its branches, LIKE less the more literal characters its
// pattern has, a two-sided range on an integer or date
// column (x >= a AND x < b, BETWEEN) its width / distinct; anything else, or
// a column without statistics (a Delta table written elsewhere has none for
// strings), kDefaultSelectivity. Conjuncts combine with exponential backoff. A join predicate between two
// relations is an edge of the join graph whose selectivity is
// 1 / max(domain(a), domain(b)) for an equality (the key side of a
// key/foreign-key join holds each value once, so the domain is its unfiltered
// row count; a column whose statistics span fewer values, such as TPC-H's
// c_nationkey with 25, has that span as its domain, so a join on it is
// estimated as the many-to-many join it is) and kDefaultSelectivity otherwise. The estimate of a set of
// relations is the product of their estimates and of the selectivities of the
// edges inside it, so it does not depend on the order the set was built in.
#pragma once

#include <map>
#include <optional>
#include <utility>

#include "planner/logical_plan.hpp"

namespace lakestream {

// Rows a filter conjunct keeps when nothing better is known (DuckDB uses 0.2 too).
constexpr double kDefaultSelectivity = 0.2;
// Rows assumed when a source says nothing about its size (table functions, streams).
constexpr double kUnknownCardinality = 1000;

struct RelationEstimate {
  double cardinality = 1;  // rows it produces, after its filters
  double domain = 1;       // distinct values assumed for a join key of it: rows before filters
  // Tighter bounds for some columns of a scanned table (the span of their
  // min/max statistics, DataTable::EstimatedDistinctCount), never above domain.
  std::map<ColumnBinding, double> column_domains;
  // The scanned tables (table index -> storage, rows before filters) whose
  // other columns' counts are asked for only when a join or GROUP BY reads
  // them: a table in memory counts a column in a pass over it.
  std::map<idx_t, std::pair<DataTable*, double>> tables;
};

// The distinct values of `column` that `estimate` knows (column_domains, else
// its table's statistics), never above its table's rows.
std::optional<double> KnownDomain(const RelationEstimate& estimate, const ColumnBinding& column);

// Estimates for a plan used as one relation of a join graph. Never reads
// data, never throws (storage without metadata falls back to kUnknownCardinality).
RelationEstimate EstimateRelation(const LogicalOperator& op);

// `a.x = b.y` of two plain columns.
bool IsColumnEquality(const BoundExpression& e);

// Selectivity of `predicate` joining relations whose estimates are `a` and
// `b` (equality of columns: 1 / max(domain); anything else: kDefaultSelectivity).
double JoinSelectivity(const BoundExpression& predicate, const RelationEstimate& a, const RelationEstimate& b);

}  // namespace lakestream
