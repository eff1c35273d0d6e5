#include "planner/join_order/cardinality_estimator.hpp"

#include <algorithm>
#include <cmath>

#include "storage/data_table.hpp"

namespace lakestream {

static double Filtered(double rows, size_t conjuncts) {
  // Conjuncts are rarely independent: each after the first counts half as
  // much (exponential backoff), so ten filters do not predict zero rows.
  double estimate = rows;
  double selectivity = kDefaultSelectivity;
  for (size_t i = 0; i < conjuncts; i++) {
    estimate *= selectivity;
    selectivity = std::sqrt(selectivity);
  }
  return std::max(1.0, estimate);
}

static RelationEstimate Same(double rows) {
  rows = std::max(1.0, rows);
  return {rows, rows, {}};
}

RelationEstimate EstimateRelation(const LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::GET: {
      double rows = kUnknownCardinality;
      if (op.storage) {
        if (auto count = op.storage->EstimatedRowCount()) rows = static_cast<double>(*count);
      }
      rows = std::max(1.0, rows);
      RelationEstimate estimate{Filtered(rows, op.table_filters.size()), rows, {}};
      if (op.storage) {
        for (idx_t column : op.column_ids) {
          if (auto distinct = op.storage->EstimatedDistinctCount(column)) {
            estimate.column_domains[{op.table_index, column}] = std::max(1.0, std::min(*distinct, rows));
          }
        }
      }
      return estimate;
    }
    case LogicalOperatorType::CHUNK_GET:
      return Same(static_cast<double>(op.value_rows.empty() ? op.collection->Count() : op.value_rows.size()));
    case LogicalOperatorType::SOURCE:
    case LogicalOperatorType::STREAM_GET: return Same(kUnknownCardinality);
    case LogicalOperatorType::FILTER: {
      RelationEstimate child = EstimateRelation(*op.children[0]);
      child.cardinality = Filtered(child.cardinality, op.expressions.size());
      return child;
    }
    case LogicalOperatorType::PROJECTION:
    case LogicalOperatorType::WINDOW:  // one output row per input row
    case LogicalOperatorType::ORDER: return EstimateRelation(*op.children[0]);
    // Unnesting multiplies by list lengths the estimator cannot see, and a
    // recursive CTE's size is known only once it has run.
    case LogicalOperatorType::UNNEST:
    case LogicalOperatorType::RECURSIVE_CTE: return Same(kUnknownCardinality);
    case LogicalOperatorType::LIMIT: {
      RelationEstimate child = EstimateRelation(*op.children[0]);
      if (op.limit >= 0 && !op.limit_expression) child.cardinality = std::min(child.cardinality, std::max(1.0, static_cast<double>(op.limit)));
      return child;
    }
    case LogicalOperatorType::AGGREGATE: {
      if (op.expressions.empty()) return Same(1);
      return EstimateRelation(*op.children[0]);  // at most one group per row
    }
    case LogicalOperatorType::UNION: {
      double rows = 0;
      for (auto& c : op.children) rows += EstimateRelation(*c).cardinality;
      return Same(rows);
    }
    case LogicalOperatorType::SET_OPERATION: return Same(EstimateRelation(*op.children[0]).cardinality);
    case LogicalOperatorType::JOIN: {
      RelationEstimate left = EstimateRelation(*op.children[0]);
      RelationEstimate right = EstimateRelation(*op.children[1]);
      switch (op.join_type) {
        // A semi join keeps left rows, at most one per right row's key
        // when the right side is the smaller (TPC-H Q20's partsupp rows of
        // 'forest%' parts); the left's column domains still bound its keys.
        case LogicalJoinType::SEMI:
          left.cardinality = std::max(1.0, std::min(left.cardinality, right.cardinality));
          return left;
        // These keep every left row once (ANTI: at most).
        case LogicalJoinType::ANTI:
        case LogicalJoinType::MARK:
        case LogicalJoinType::SINGLE: return left;
        case LogicalJoinType::INNER:
        case LogicalJoinType::CROSS: {
          // As the join-order optimizer estimates one edge: the product,
          // times the most selective condition's selectivity.
          double selectivity = 1;
          for (auto& e : op.expressions) selectivity = std::min(selectivity, JoinSelectivity(*e, left, right));
          RelationEstimate joined = left;
          joined.cardinality = std::max(1.0, left.cardinality * right.cardinality * selectivity);
          joined.domain = std::max(left.domain, right.domain);
          joined.column_domains.insert(right.column_domains.begin(), right.column_domains.end());
          return joined;
        }
        default:
          // Outer joins: at least the preserved side, bounded by the larger input.
          return Same(std::max(left.cardinality, right.cardinality));
      }
    }
  }
  return Same(kUnknownCardinality);
}

static bool IsColumnEquality(const BoundExpression& e) {
  return e.type == BoundExpressionType::FUNCTION && e.function.name == "=" && e.children.size() == 2 &&
         e.children[0]->type == BoundExpressionType::COLUMN_REF && e.children[1]->type == BoundExpressionType::COLUMN_REF;
}

// The distinct values assumed for `column`, a column of relation a or b.
static double ColumnDomain(const BoundExpression& column, const RelationEstimate& a, const RelationEstimate& b) {
  for (const RelationEstimate* side : {&a, &b}) {
    auto it = side->column_domains.find(column.binding);
    if (it != side->column_domains.end()) return it->second;
  }
  return std::max(a.domain, b.domain);
}

double JoinSelectivity(const BoundExpression& predicate, const RelationEstimate& a, const RelationEstimate& b) {
  if (IsColumnEquality(predicate)) {
    double left = ColumnDomain(*predicate.children[0], a, b);
    double right = ColumnDomain(*predicate.children[1], a, b);
    return 1.0 / std::max({left, right, 1.0});
  }
  if (predicate.type == BoundExpressionType::FUNCTION && predicate.function.name == "=") {
    // An equality of expressions (a.x + 1 = b.y): still a key match, if less sure.
    return std::max(1.0 / std::max({a.domain, b.domain, 1.0}), 1.0 / std::max(a.cardinality, b.cardinality));
  }
  return kDefaultSelectivity;
}

}  // namespace lakestream
