#include "planner/logical_plan.hpp"

namespace lakestream {

static std::vector<BoundExprPtr> CopyExpressions(const std::vector<BoundExprPtr>& list) {
  std::vector<BoundExprPtr> out;
  out.reserve(list.size());
  for (auto& e : list) out.push_back(e ? e->Copy() : nullptr);
  return out;
}

static BoundExprPtr CopyExpression(const BoundExprPtr& e) { return e ? e->Copy() : nullptr; }

LogicalOperatorPtr CopyLogicalPlan(const LogicalOperator& op) {
  auto copy = std::make_unique<LogicalOperator>(op.type);
  for (auto& child : op.children) copy->children.push_back(CopyLogicalPlan(*child));
  copy->expressions = CopyExpressions(op.expressions);
  copy->table_index = op.table_index;
  copy->table = op.table;
  copy->storage = op.storage;
  copy->owned_storage = op.owned_storage;
  copy->table_name = op.table_name;
  copy->column_ids = op.column_ids;
  copy->table_filters = CopyExpressions(op.table_filters);
  copy->emit_row_ids = op.emit_row_ids;
  copy->collection = op.collection;
  copy->materialized = op.materialized;
  for (auto& row : op.value_rows) copy->value_rows.push_back(CopyExpressions(row));
  copy->source_types = op.source_types;
  copy->source_factory = op.source_factory;
  copy->aggregate_index = op.aggregate_index;
  for (auto& a : op.aggregates) {
    BoundAggregate aggregate;
    aggregate.signature = a.signature;
    aggregate.argument = CopyExpression(a.argument);
    aggregate.second = CopyExpression(a.second);
    aggregate.filter = CopyExpression(a.filter);
    aggregate.order_keys = CopyExpressions(a.order_keys);
    aggregate.order = a.order;
    aggregate.grouping_columns = a.grouping_columns;
    copy->aggregates.push_back(std::move(aggregate));
  }
  copy->grouping_sets = op.grouping_sets;
  copy->join_type = op.join_type;
  copy->left_keys = CopyExpressions(op.left_keys);
  copy->right_keys = CopyExpressions(op.right_keys);
  copy->residual = CopyExpression(op.residual);
  copy->mark_condition = CopyExpression(op.mark_condition);
  copy->left_needed = op.left_needed;
  copy->right_needed = op.right_needed;
  for (auto& o : op.orders) {
    BoundOrder order;
    order.expression = CopyExpression(o.expression);
    order.descending = o.descending;
    order.nulls_first = o.nulls_first;
    copy->orders.push_back(std::move(order));
  }
  copy->limit = op.limit;
  copy->offset = op.offset;
  copy->limit_expression = CopyExpression(op.limit_expression);
  copy->offset_expression = CopyExpression(op.offset_expression);
  copy->windows = op.windows;
  copy->window_top_n = op.window_top_n;
  copy->unnest_outer = op.unnest_outer;
  copy->unnest_position = op.unnest_position;
  copy->union_types = op.union_types;
  copy->set_operation = op.set_operation;
  copy->set_all = op.set_all;
  copy->recursive_distinct = op.recursive_distinct;
  return copy;
}

}  // namespace lakestream
