#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "execution/operator/physical_chunk_scan.hpp"
#include "function/aggregate_function.hpp"
#include "transaction/client_context.hpp"
#include "planner/binder.hpp"

namespace lakestream {

static bool ContainsAggregate(const ParsedExpression& expr) {
  if (expr.type == ExpressionType::FUNCTION && IsAggregateFunction(StringUtil::Lower(expr.function_name))) return true;
  for (auto& c : expr.children) {
    if (ContainsAggregate(*c)) return true;
  }
  return false;
}

static std::string DerivedName(const ParsedExpression& expr) {
  if (!expr.alias.empty()) return expr.alias;
  if (expr.type == ExpressionType::COLUMN_REF) return expr.names.back();
  return expr.ToString();
}

namespace {
struct SelectItem;
}

// HAVING and ORDER BY may name select-list aliases inside expressions
// (HAVING total >= 10): a copy of the expression with each such alias
// replaced by the aliased select expression. Names of FROM columns win.
static ExprPtr ExpandSelectAliases(const ParsedExpression& expr, const std::vector<SelectItem>& items, const BindContext& scope);

namespace {
struct SelectItem {
  const ParsedExpression* expr = nullptr;  // null for columns expanded from *
  BoundExprPtr expanded;
  std::string name;
};
}  // namespace

static ExprPtr ExpandSelectAliases(const ParsedExpression& expr, const std::vector<SelectItem>& items, const BindContext& scope) {
  if (expr.type == ExpressionType::COLUMN_REF && expr.names.size() == 1 && !scope.Resolve(expr.names, true)) {
    for (auto& item : items) {
      if (item.expr && !item.expr->alias.empty() && StringUtil::CIEquals(item.expr->alias, expr.names[0])) {
        auto copy = item.expr->Copy();
        copy->alias.clear();
        return copy;
      }
    }
  }
  auto copy = expr.Copy();
  if (expr.type == ExpressionType::SUBQUERY_SCALAR || expr.type == ExpressionType::SUBQUERY_EXISTS ||
      expr.type == ExpressionType::SUBQUERY_NOT_EXISTS) {
    return copy;
  }
  for (idx_t i = 0; i < expr.children.size(); i++) copy->children[i] = ExpandSelectAliases(*expr.children[i], items, scope);
  return copy;
}

BoundQuery Binder::BindSelectNode(const QueryNode& node) {
  BindContext scope;
  LogicalOperatorPtr plan;
  if (node.from) {
    plan = BindTableRef(*node.from, scope);
  } else {
    plan = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
    plan->table_index = NextTableIndex();
    plan->collection = MakeSingleRow();
  }
  if (node.where) {
    auto predicate = BindExpression(*node.where, scope, "WHERE");
    if (predicate->return_type.id() != TypeId::BOOLEAN) {
      if (predicate->return_type.id() != TypeId::SQLNULL) {
        throw BinderError("WHERE clause must be a BOOLEAN expression, but " + node.where->ToString() + " is " +
                          predicate->return_type.ToString());
      }
      predicate = AddCast(std::move(predicate), TypeId::BOOLEAN);
    }
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
    SplitConjunctions(std::move(predicate), filter->expressions);
    filter->children.push_back(std::move(plan));
    plan = std::move(filter);
  }

  std::vector<SelectItem> items;
  for (auto& e : node.select_list) {
    if (e->type == ExpressionType::STAR) {
      for (auto& [name, ref] : scope.ExpandStar(e->names)) items.push_back({nullptr, std::move(ref), name});
    } else {
      items.push_back({e.get(), nullptr, DerivedName(*e)});
    }
  }

  bool aggregate_query = !node.group_by.empty() || node.group_by_all || node.having;
  for (auto& item : items) aggregate_query |= item.expr && ContainsAggregate(*item.expr);
  for (auto& o : node.order_by) aggregate_query |= ContainsAggregate(*o.expression);

  AggregateBindState aggregate;
  AggregateBindState* agg = nullptr;
  if (aggregate_query) {
    aggregate.group_index = NextTableIndex();
    aggregate.aggregate_index = NextTableIndex();
    std::vector<std::pair<const ParsedExpression*, BoundExprPtr>> groups;  // parsed, or bound for * columns
    if (node.group_by_all) {
      for (auto& item : items) {
        if (!item.expr) {
          groups.emplace_back(nullptr, item.expanded->Copy());
        } else if (!ContainsAggregate(*item.expr) && item.expr->type != ExpressionType::CONSTANT) {
          groups.emplace_back(item.expr, nullptr);
        }
      }
    }
    for (auto& g : node.group_by) {
      if (g->type == ExpressionType::CONSTANT && g->value.type().IsIntegral()) {
        int64_t k = g->value.AsBigint();
        if (k < 1 || k > static_cast<int64_t>(items.size())) {
          throw BinderError("GROUP BY position " + std::to_string(k) + " is not in the select list (1 to " +
                            std::to_string(items.size()) + ")");
        }
        auto& item = items[k - 1];
        if (item.expr && ContainsAggregate(*item.expr)) {
          throw BinderError("GROUP BY position " + std::to_string(k) + " refers to an aggregate (" + item.name + ")");
        }
        if (item.expr) {
          groups.emplace_back(item.expr, nullptr);
        } else {
          groups.emplace_back(nullptr, item.expanded->Copy());
        }
        continue;
      }
      if (g->type == ExpressionType::COLUMN_REF && g->names.size() == 1 && !scope.Resolve(g->names, true)) {
        // GROUP BY a select-list alias.
        const ParsedExpression* aliased = nullptr;
        for (auto& item : items) {
          if (item.expr && StringUtil::CIEquals(item.name, g->names[0])) aliased = item.expr;
        }
        if (aliased) {
          groups.emplace_back(aliased, nullptr);
          continue;
        }
      }
      groups.emplace_back(g.get(), nullptr);
    }
    for (auto& [parsed, bound] : groups) {
      if (parsed) {
        aggregate.group_strings.push_back(StringUtil::Lower(parsed->ToString()));
        aggregate.groups.push_back(BindExpression(*parsed, scope, "GROUP BY"));
      } else {
        aggregate.group_strings.push_back(StringUtil::Lower(bound->name));
        aggregate.groups.push_back(std::move(bound));
      }
    }
    agg = &aggregate;
  }

  std::vector<BoundExprPtr> projections;
  std::vector<std::string> names;
  for (auto& item : items) {
    names.push_back(item.name);
    if (item.expr) {
      auto bound = Bind(*item.expr, scope, agg, "SELECT");
      projections.push_back(std::move(bound));
      continue;
    }
    if (!agg) {
      projections.push_back(std::move(item.expanded));
      continue;
    }
    // SELECT * in an aggregate query: every column must be a group.
    bool found = false;
    for (idx_t g = 0; g < aggregate.group_strings.size(); g++) {
      if (aggregate.group_strings[g] == StringUtil::Lower(item.name)) {
        projections.push_back(MakeBindingRef({aggregate.group_index, g}, aggregate.groups[g]->return_type, item.name));
        found = true;
        break;
      }
    }
    if (!found) {
      throw BinderError("column \"" + item.name + "\" (from *) must appear in the GROUP BY clause or be used in an aggregate function");
    }
  }
  BoundExprPtr having;
  if (node.having) {
    auto expanded = ExpandSelectAliases(*node.having, items, scope);
    having = Bind(*expanded, scope, agg, "HAVING");
    if (having->return_type.id() != TypeId::BOOLEAN) {
      throw BinderError("HAVING clause must be a BOOLEAN expression, but " + node.having->ToString() + " is " +
                        having->return_type.ToString());
    }
  }

  // ORDER BY: select-list positions, aliases or expressions; anything else
  // becomes a hidden projection column that is dropped after sorting.
  struct OrderTarget {
    idx_t column;
    bool descending;
    bool nulls_first;
  };
  std::vector<OrderTarget> order_targets;
  idx_t visible = projections.size();
  for (auto& o : node.order_by) {
    const ParsedExpression& e = *o.expression;
    idx_t target = static_cast<idx_t>(-1);
    if (e.type == ExpressionType::CONSTANT && e.value.type().IsIntegral()) {
      int64_t k = e.value.AsBigint();
      if (k < 1 || k > static_cast<int64_t>(visible)) {
        throw BinderError("ORDER BY position " + std::to_string(k) + " is not in the select list (1 to " +
                          std::to_string(visible) + ")");
      }
      target = static_cast<idx_t>(k - 1);
    } else {
      if (e.type == ExpressionType::COLUMN_REF && e.names.size() == 1) {
        for (idx_t i = 0; i < visible && target == static_cast<idx_t>(-1); i++) {
          if (StringUtil::CIEquals(names[i], e.names[0])) target = i;
        }
      }
      std::string key = StringUtil::Lower(e.ToString());
      for (idx_t i = 0; i < visible && target == static_cast<idx_t>(-1); i++) {
        if (items[i].expr && StringUtil::Lower(items[i].expr->ToString()) == key) target = i;
      }
      if (target == static_cast<idx_t>(-1)) {
        if (node.distinct) {
          throw BinderError("for SELECT DISTINCT, ORDER BY expressions must appear in the select list: " + e.ToString());
        }
        auto expanded = ExpandSelectAliases(e, items, scope);
        projections.push_back(Bind(*expanded, scope, agg, "ORDER BY"));
        target = projections.size() - 1;
      }
    }
    order_targets.push_back({target, o.descending, o.nulls_first.value_or(o.descending)});
  }

  if (agg) {
    auto aggregate_op = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
    aggregate_op->table_index = aggregate.group_index;
    aggregate_op->aggregate_index = aggregate.aggregate_index;
    aggregate_op->expressions = std::move(aggregate.groups);
    aggregate_op->aggregates = std::move(aggregate.aggregates);
    aggregate_op->children.push_back(std::move(plan));
    plan = std::move(aggregate_op);
    if (having) {
      auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
      SplitConjunctions(std::move(having), filter->expressions);
      filter->children.push_back(std::move(plan));
      plan = std::move(filter);
    }
  }
  std::vector<LogicalType> types;
  types.reserve(projections.size());
  for (auto& p : projections) types.push_back(p->return_type);
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = NextTableIndex();
  for (idx_t i = 0; i < projections.size(); i++) {
    if (i < names.size()) projections[i]->name = names[i];
  }
  projection->expressions = std::move(projections);
  projection->children.push_back(std::move(plan));
  idx_t projection_index = projection->table_index;
  plan = std::move(projection);

  if (node.distinct) {
    auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
    distinct->table_index = NextTableIndex();
    distinct->aggregate_index = NextTableIndex();
    for (idx_t i = 0; i < types.size(); i++) distinct->expressions.push_back(MakeBindingRef({projection_index, i}, types[i], names[i]));
    projection_index = distinct->table_index;
    distinct->children.push_back(std::move(plan));
    plan = std::move(distinct);
  }
  if (!order_targets.empty()) {
    auto order = std::make_unique<LogicalOperator>(LogicalOperatorType::ORDER);
    for (auto& t : order_targets) {
      BoundOrder bo;
      bo.expression = MakeBindingRef({projection_index, t.column}, types[t.column]);
      bo.descending = t.descending;
      bo.nulls_first = t.nulls_first;
      order->orders.push_back(std::move(bo));
    }
    order->children.push_back(std::move(plan));
    plan = std::move(order);
  }
  if (node.limit || node.offset) {
    auto limit = std::make_unique<LogicalOperator>(LogicalOperatorType::LIMIT);
    limit->limit = BindLimitValue(*this, node.limit.get(), "LIMIT");
    limit->offset = std::max<int64_t>(0, BindLimitValue(*this, node.offset.get(), "OFFSET"));
    limit->children.push_back(std::move(plan));
    plan = std::move(limit);
  }
  if (types.size() > visible) {
    auto final_projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    final_projection->table_index = NextTableIndex();
    for (idx_t i = 0; i < visible; i++) {
      final_projection->expressions.push_back(MakeBindingRef({projection_index, i}, types[i], names[i]));
    }
    final_projection->children.push_back(std::move(plan));
    plan = std::move(final_projection);
    types.resize(visible);
  }
  BoundQuery result;
  result.plan = std::move(plan);
  result.names = std::move(names);
  result.types = std::move(types);
  return result;
}

}  // namespace lakestream
