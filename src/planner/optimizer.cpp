#include "planner/optimizer.hpp"

#include "planner/common_subexpressions.hpp"
#include "planner/join_order/join_order_optimizer.hpp"
#include "planner/or_factoring.hpp"
#include "planner/semi_join_reduction.hpp"
#include "planner/top_n_window.hpp"

#include <map>
#include <set>

namespace lakestream {

static LogicalOperatorPtr WrapFilter(LogicalOperatorPtr op, std::vector<BoundExprPtr> filters) {
  if (filters.empty()) return op;
  auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
  filter->expressions = std::move(filters);
  filter->children.push_back(std::move(op));
  return filter;
}

// True when `filter` cannot be TRUE for a row whose columns of `tables` are
// all NULL: a comparison (or LIKE) with a bare column of them on one side is
// NULL then, and so is IS NOT NULL of one FALSE.
static bool RejectsNulls(const BoundExpression& filter, const std::set<idx_t>& tables) {
  auto of_tables = [&](const BoundExpression& e) {
    return e.type == BoundExpressionType::COLUMN_REF && tables.count(e.binding.table_index);
  };
  if (filter.type == BoundExpressionType::IS_NOT_NULL) return of_tables(*filter.children[0]);
  if (filter.type != BoundExpressionType::FUNCTION || filter.children.size() != 2) return false;
  static const std::set<std::string> kStrict = {"=", "<>", "!=", "<", "<=", ">", ">=", "like", "not_like", "ilike", "not_ilike"};
  if (!kStrict.count(filter.function.name)) return false;
  return of_tables(*filter.children[0]) || of_tables(*filter.children[1]);
}

// Outer-join simplification: a filter above an outer join that rejects the
// NULLs its padding brings removes the padded rows, so the join needs not
// make them. LEFT becomes INNER when a filter rejects NULL right columns;
// FULL becomes LEFT when one rejects NULL left columns (its right-only rows
// go), and INNER when both sides' are rejected. (A FULL join rejected only on
// its right side would be a RIGHT join: left as it is, as the swap would
// reorder its output columns.)
static void SimplifyOuterJoin(LogicalOperator& join, const std::vector<BoundExprPtr>& filters,
                              const std::set<idx_t>& left_tables, const std::set<idx_t>& right_tables) {
  if (join.join_type != LogicalJoinType::LEFT && join.join_type != LogicalJoinType::FULL) return;
  bool left_rejected = false, right_rejected = false;
  for (auto& f : filters) {
    left_rejected = left_rejected || RejectsNulls(*f, left_tables);
    right_rejected = right_rejected || RejectsNulls(*f, right_tables);
  }
  if (join.join_type == LogicalJoinType::LEFT) {
    if (right_rejected) join.join_type = LogicalJoinType::INNER;
  } else if (left_rejected) {
    join.join_type = right_rejected ? LogicalJoinType::INNER : LogicalJoinType::LEFT;
  }
}

static LogicalOperatorPtr Pushdown(LogicalOperatorPtr op, std::vector<BoundExprPtr> filters) {
  switch (op->type) {
    case LogicalOperatorType::FILTER: {
      // This filter's conjuncts first, then those from above: a subquery's
      // WHERE guards the outer one's (WHERE s <> 'abc' inside, CAST(s AS INT)
      // outside), as AND's short circuit runs its operands in order.
      std::vector<BoundExprPtr> merged = std::move(op->expressions);
      for (auto& e : filters) merged.push_back(std::move(e));
      FactorOrConjuncts(merged);
      return Pushdown(std::move(op->children[0]), std::move(merged));
    }
    case LogicalOperatorType::GET: {
      std::set<idx_t> mine = {op->table_index};
      std::vector<BoundExprPtr> rest;
      for (auto& f : filters) {
        std::set<idx_t> tables;
        CollectBindingTables(*f, tables);
        if (SubsetOf(tables, mine)) {
          op->table_filters.push_back(std::move(f));
        } else {
          rest.push_back(std::move(f));
        }
      }
      return WrapFilter(std::move(op), std::move(rest));
    }
    case LogicalOperatorType::JOIN: {
      auto left_tables = TablesOf(*op->children[0]);
      auto right_tables = TablesOf(*op->children[1]);
      SimplifyOuterJoin(*op, filters, left_tables, right_tables);
      std::vector<BoundExprPtr> left_filters, right_filters, above;
      bool inner = op->join_type == LogicalJoinType::INNER || op->join_type == LogicalJoinType::CROSS;
      // A FULL join keeps both sides' rows whatever ON says: nothing crosses it.
      bool full = op->join_type == LogicalJoinType::FULL;
      if (inner) {
        // ON conjuncts of an inner join are filters like any other.
        for (auto& e : op->expressions) filters.push_back(std::move(e));
        op->expressions.clear();
        FactorOrConjuncts(filters);
      } else {
        std::vector<BoundExprPtr> kept;
        for (auto& e : op->expressions) {
          std::set<idx_t> tables;
          CollectBindingTables(*e, tables);
          if (!full && !tables.empty() && SubsetOf(tables, right_tables)) {
            right_filters.push_back(std::move(e));
          } else {
            kept.push_back(std::move(e));
          }
        }
        op->expressions = std::move(kept);
      }
      for (auto& f : filters) {
        std::set<idx_t> tables;
        CollectBindingTables(*f, tables);
        if (!full && SubsetOf(tables, left_tables) && !tables.empty()) {
          left_filters.push_back(std::move(f));
        } else if (inner && SubsetOf(tables, right_tables) && !tables.empty()) {
          right_filters.push_back(std::move(f));
        } else if (inner) {
          op->expressions.push_back(std::move(f));
        } else {
          above.push_back(std::move(f));
        }
      }
      if (op->join_type == LogicalJoinType::CROSS && !op->expressions.empty()) op->join_type = LogicalJoinType::INNER;
      op->children[0] = Pushdown(std::move(op->children[0]), std::move(left_filters));
      op->children[1] = Pushdown(std::move(op->children[1]), std::move(right_filters));
      return WrapFilter(std::move(op), std::move(above));
    }
    default: {
      for (auto& child : op->children) child = Pushdown(std::move(child), {});
      return WrapFilter(std::move(op), std::move(filters));
    }
  }
}

using RefCounts = std::map<ColumnBinding, idx_t>;

static void CollectExpressionRefs(const BoundExpression& expr, RefCounts& refs) {
  if (expr.type == BoundExpressionType::COLUMN_REF) refs[expr.binding]++;
  for (auto& c : expr.children) CollectExpressionRefs(*c, refs);
}

static void CollectReferences(const LogicalOperator& op, RefCounts& refs) {
  for (auto& e : op.expressions) CollectExpressionRefs(*e, refs);
  for (auto& e : op.table_filters) CollectExpressionRefs(*e, refs);
  for (auto& a : op.aggregates) {
    for (const auto* e : a.Expressions()) CollectExpressionRefs(*e, refs);
  }
  for (auto& o : op.orders) CollectExpressionRefs(*o.expression, refs);
  if (op.residual) CollectExpressionRefs(*op.residual, refs);
  if (op.mark_condition) CollectExpressionRefs(*op.mark_condition, refs);
  if (op.type == LogicalOperatorType::UNION || op.type == LogicalOperatorType::SET_OPERATION ||
      op.type == LogicalOperatorType::RECURSIVE_CTE) {
    // A union passes every column of its children through by position.
    for (auto& c : op.children) {
      for (auto& b : c->GetBindings()) refs[b]++;
    }
  }
  for (auto& c : op.children) CollectReferences(*c, refs);
}

static void PruneColumns(LogicalOperator& op, const RefCounts& refs) {
  bool scan = op.type == LogicalOperatorType::GET || op.type == LogicalOperatorType::SOURCE ||
              op.type == LogicalOperatorType::STREAM_GET;
  if (scan && !op.column_ids.empty()) {
    std::vector<idx_t> kept;
    for (idx_t c : op.column_ids) {
      if (refs.count({op.table_index, c})) kept.push_back(c);
    }
    // count(*) reads no column, but the scan still has to produce rows.
    if (kept.empty()) kept.push_back(op.column_ids[0]);
    op.column_ids = std::move(kept);
  }
  for (auto& c : op.children) PruneColumns(*c, refs);
}

// A join's output column is needed when something other than the join's own
// condition reads it (the condition is evaluated on the join's inputs).
static void MarkJoinOutputs(LogicalOperator& op, const RefCounts& refs) {
  for (auto& c : op.children) MarkJoinOutputs(*c, refs);
  if (op.type != LogicalOperatorType::JOIN) return;
  RefCounts own;
  for (auto& e : op.expressions) CollectExpressionRefs(*e, own);
  if (op.mark_condition) CollectExpressionRefs(*op.mark_condition, own);
  auto needed = [&](const ColumnBinding& b) {
    auto total = refs.find(b);
    auto mine = own.find(b);
    return total != refs.end() && total->second > (mine == own.end() ? 0 : mine->second);
  };
  op.left_needed.clear();
  op.right_needed.clear();
  for (auto& b : op.children[0]->GetBindings()) op.left_needed.push_back(needed(b));
  for (auto& b : op.children[1]->GetBindings()) op.right_needed.push_back(needed(b));
}

LogicalOperatorPtr OptimizePlan(LogicalOperatorPtr plan) {
  plan = Pushdown(std::move(plan), {});
  plan = PushSemiJoins(std::move(plan));
  RewriteTopNWindows(*plan);
  plan = ReorderJoins(std::move(plan));
  ReducedBuildSides reduced = ReduceBuildSides(*plan);
  auto references = [](LogicalOperator& op) {
    RefCounts refs;
    CollectReferences(op, refs);
    for (auto& b : op.GetBindings()) refs[b]++;
    return refs;
  };
  PruneColumns(*plan, references(*plan));
  auto count = [](LogicalOperator& op) {
    RefCounts refs;
    CollectReferences(op, refs);
    return refs;
  };
  ShareReducerSources(*plan, reduced, count, [&](LogicalOperator& shared) {
    auto refs = references(shared);
    PruneColumns(shared, refs);
    MarkJoinOutputs(shared, refs);
  });
  EliminateCommonSubexpressions(*plan, reduced.next_index);
  MarkJoinOutputs(*plan, references(*plan));
  return plan;
}

}  // namespace lakestream
