#include "planner/subquery/plan_subqueries.hpp"

#include "common/exception.hpp"
#include "expression/expression_executor.hpp"
#include "function/aggregate_function.hpp"
#include "planner/binder.hpp"
#include "planner/subquery/decorrelate.hpp"
#include "planner/subquery/flatten_dependent_join.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

static BoundExprPtr MakeNode(BoundExpressionType type, LogicalType return_type, std::vector<BoundExprPtr> children) {
  auto e = std::make_unique<BoundExpression>(type, std::move(return_type));
  e->children = std::move(children);
  return e;
}

static BoundExprPtr Not(BoundExprPtr e) {
  std::vector<BoundExprPtr> children;
  children.push_back(std::move(e));
  return MakeNode(BoundExpressionType::NOT, TypeId::BOOLEAN, std::move(children));
}

// Replaces every reference to `from` inside `expr` by a copy of `to`.
static void Substitute(BoundExprPtr& expr, const std::function<BoundExprPtr(const ColumnBinding&)>& lookup) {
  if (expr->type == BoundExpressionType::COLUMN_REF) {
    if (auto replacement = lookup(expr->binding)) expr = std::move(replacement);
    return;
  }
  for (auto& c : expr->children) Substitute(c, lookup);
}

// The value of an aggregate over no rows.
static Value EmptyAggregateValue(const BoundAggregate& aggregate) {
  const LogicalType& type = aggregate.signature.return_type;
  switch (aggregate.signature.kind) {
    case AggregateKind::COUNT:
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT_DISTINCT: return Value::BIGINT(0).CastAs(type);
    default: return Value(type);
  }
}

class SubqueryPlanner {
 public:
  explicit SubqueryPlanner(Binder& binder) : binder_(binder) {}

  void Plan(LogicalOperatorPtr& op) {
    for (auto& child : op->children) Plan(child);
    if (op->type == LogicalOperatorType::JOIN) {
      HoistInnerJoinSubqueries(op);
      if (op->type == LogicalOperatorType::JOIN) PlanOuterJoinCondition(*op);
    }
    if (op->type == LogicalOperatorType::FILTER) {
      PlanFilter(*op);
      if (op->expressions.empty()) {
        auto child = std::move(op->children[0]);
        op = std::move(child);
      }
    } else if (op->type == LogicalOperatorType::PROJECTION || op->type == LogicalOperatorType::WINDOW ||
               op->type == LogicalOperatorType::UNNEST) {
      // A window's expressions are its functions' inputs over the child's
      // rows, an UNNEST's the collection per child row: the join goes below.
      // (Both sit under the SELECT's projection, so its extra column never
      // reaches the result.)
      for (auto& e : op->expressions) Rewrite(e, *op);
    } else if (op->type == LogicalOperatorType::AGGREGATE) {
      // GROUP BY keys and aggregate arguments (FILTER too) are computed per input row.
      for (auto& e : op->expressions) Rewrite(e, *op);
      for (auto& a : op->aggregates) {
        for (auto* e : a.Expressions()) Rewrite(*e, *op);
      }
    }
  }

 private:
  static bool ContainsJoinSubquery(const BoundExpression& e) {
    if (NeedsJoin(e)) return true;
    for (auto& c : e.children) {
      if (ContainsJoinSubquery(*c)) return true;
    }
    return false;
  }

  // An inner join's ON conjuncts are filters over its rows: those holding a
  // subquery that must become a join move to a filter above it (planned as a
  // WHERE). An outer join's ON is not a filter: see PlanOuterJoinCondition.
  void HoistInnerJoinSubqueries(LogicalOperatorPtr& op) {
    if (op->join_type != LogicalJoinType::INNER && op->join_type != LogicalJoinType::CROSS) return;
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
    std::vector<BoundExprPtr> kept;
    for (auto& e : op->expressions) {
      if (ContainsJoinSubquery(*e)) {
        filter->expressions.push_back(std::move(e));
      } else {
        kept.push_back(std::move(e));
      }
    }
    op->expressions = std::move(kept);
    if (filter->expressions.empty()) return;
    if (op->expressions.empty()) op->join_type = LogicalJoinType::CROSS;
    filter->children.push_back(std::move(op));
    op = std::move(filter);
  }

  // An outer (or SEMI/ANTI) join's ON keeps its rows unmatched, not dropped,
  // so its subqueries cannot move above it. A correlated one reading the
  // columns of one side only is a value per row of that side: it becomes a
  // join on that side's input, as in a SELECT list over it. Uncorrelated IN
  // stays for the resolver (an IN list), whichever columns its probe reads.
  void PlanOuterJoinCondition(LogicalOperator& join) {
    for (auto& e : join.expressions) RewriteOnOneSide(e, join);
  }

  void RewriteOnOneSide(BoundExprPtr& expr, LogicalOperator& join) {
    for (auto& c : expr->children) RewriteOnOneSide(c, join);
    if (!NeedsJoin(*expr) || !expr->subquery->correlated) return;
    idx_t side = SideOf(*expr, join);
    // A stand-in operator whose input is that side, as Rewrite expects.
    LogicalOperator holder(LogicalOperatorType::FILTER);
    holder.children.push_back(std::move(join.children[side]));
    auto d = Decorrelate(*expr, holder);
    RewriteNode(expr, holder, std::move(d));
    join.children[side] = std::move(holder.children[0]);
  }

  // 0 or 1: the join side whose columns the subquery node reads (its probe
  // and the outer columns of its plan); columns from further out do not count.
  static idx_t SideOf(BoundExpression& node, const LogicalOperator& join) {
    std::set<idx_t> sides[2];
    for (idx_t s = 0; s < 2; s++) {
      for (auto& b : join.children[s]->GetBindings()) sides[s].insert(b.table_index);
    }
    bool reads[2] = {false, false};
    auto note = [&](BoundExpression& ref) {
      for (idx_t s = 0; s < 2; s++) reads[s] = reads[s] || sides[s].count(ref.binding.table_index) > 0;
    };
    for (auto& c : node.children) VisitColumnRefs(*c, note);
    std::set<idx_t> inner = ProducedTableIndexes(*node.subquery->plan);
    std::function<void(LogicalOperator&)> walk = [&](LogicalOperator& op) {
      VisitOperatorExpressions(op, [&](BoundExprPtr& e) {
        VisitColumnRefs(*e, [&](BoundExpression& ref) {
          if (!inner.count(ref.binding.table_index)) note(ref);
        });
      });
      for (auto& c : op.children) walk(*c);
    };
    walk(*node.subquery->plan);
    if (reads[0] && reads[1]) {
      throw NotImplementedError("a correlated subquery in an outer join's ON condition that reads columns of both "
                                "sides (" + node.ToString() + "); compute it in a subquery in FROM over the joined "
                                "rows, or join first and filter in WHERE");
    }
    return reads[1] ? 1 : 0;
  }

  static bool NeedsJoin(const BoundExpression& e) {
    if (e.type != BoundExpressionType::SUBQUERY || !e.subquery->plan) return false;
    return e.subquery->correlated || e.subquery_kind == SubqueryKind::IN || e.subquery_kind == SubqueryKind::NOT_IN;
  }

  void PlanFilter(LogicalOperator& op) {
    std::vector<BoundExprPtr> kept;
    for (auto& e : op.expressions) {
      if (NeedsJoin(*e)) {
        for (auto& c : e->children) Rewrite(c, op);  // the IN probe's own subqueries join first
        if (JoinConjunct(e, op)) continue;
      }
      Rewrite(e, op);
      kept.push_back(std::move(e));
    }
    op.expressions = std::move(kept);
  }

  // A WHERE conjunct EXISTS / NOT EXISTS / IN: a SEMI or ANTI join of the
  // filter's input; false when it needs the general rewrite.
  bool JoinConjunct(BoundExprPtr& expr, LogicalOperator& op) {
    BoundExpression& node = *expr;
    SubqueryKind kind = node.subquery_kind;
    bool probes = kind == SubqueryKind::IN || AnyComparison(kind);
    if (kind != SubqueryKind::EXISTS && kind != SubqueryKind::NOT_EXISTS && !probes) return false;
    auto d = Decorrelate(node, op);
    if (d.ungrouped_aggregate) {
      // One row per outer row whatever the correlation: not a plain semi join.
      RewriteNode(expr, op, std::move(d));
      return false;
    }
    auto join = MakeJoin(kind == SubqueryKind::NOT_EXISTS ? LogicalJoinType::ANTI : LogicalJoinType::SEMI, op, d);
    if (probes) {
      // One join key per value of a row: (a, b) IN (SELECT x, y ...) hashes on both.
      for (auto& match : MatchRow(node, Columns(*join, node))) join->expressions.push_back(std::move(match));
    }
    op.children[0] = std::move(join);
    return true;
  }

  // Replaces the SUBQUERY nodes of `expr` that need a join by what the join gives.
  void Rewrite(BoundExprPtr& expr, LogicalOperator& op) {
    for (auto& c : expr->children) Rewrite(c, op);
    if (!NeedsJoin(*expr)) return;
    auto d = Decorrelate(*expr, op);
    RewriteNode(expr, op, std::move(d));
  }

  void RewriteNode(BoundExprPtr& expr, LogicalOperator& op, DecorrelatedPlan d) {
    BoundExpression& node = *expr;
    SubqueryKind kind = node.subquery_kind;
    std::string name = node.name;
    if (kind == SubqueryKind::SCALAR || d.ungrouped_aggregate) {
      // A scalar subquery (and IN over a one-row aggregate, which is x = that row).
      auto empty = std::move(d.empty_value);
      const LogicalOperator* aggregate = d.ungrouped_aggregate;
      auto join = MakeJoin(LogicalJoinType::SINGLE, op, d);
      auto values = Columns(*join, node);
      for (idx_t i = 0; i < values.size(); i++) {
        auto empty_i = i == 0 ? std::move(empty) : EmptyValue(*join->children[1], aggregate, i);
        if (empty_i) values[i] = FixEmpty(std::move(values[i]), std::move(empty_i), *join);
      }
      BoundExprPtr value;
      if (kind == SubqueryKind::IN || kind == SubqueryKind::NOT_IN || AnyComparison(kind)) {
        value = Conjunction(MatchRow(node, std::move(values)));
        if (kind == SubqueryKind::NOT_IN) value = Not(std::move(value));
      } else {
        value = std::move(values[0]);
      }
      op.children[0] = std::move(join);
      if (kind == SubqueryKind::EXISTS || kind == SubqueryKind::NOT_EXISTS) {
        value = MakeConstant(Value::BOOLEAN(kind == SubqueryKind::EXISTS));
      }
      value->name = name;
      expr = std::move(value);
      return;
    }
    auto join = MakeJoin(LogicalJoinType::MARK, op, d);
    join->table_index = binder_.NextTableIndex();
    if (kind == SubqueryKind::IN || kind == SubqueryKind::NOT_IN || AnyComparison(kind)) {
      // A row compares pair by pair: NULL when no pair is false and one is NULL.
      join->mark_condition = Conjunction(MatchRow(node, Columns(*join, node)));
    }
    bool negated = kind == SubqueryKind::NOT_IN || kind == SubqueryKind::NOT_EXISTS;
    // EXPLAIN shows NOT (mark), not a double negation.
    BoundExprPtr mark = MakeBindingRef({join->table_index, 0}, TypeId::BOOLEAN, negated ? "mark" : name);
    op.children[0] = std::move(join);
    if (negated) mark = Not(std::move(mark));
    mark->name = name;
    expr = std::move(mark);
  }

  // The subquery's plan decorrelated: by pulling its correlated predicates
  // up where that works (equality correlations, the fast common case), else
  // by flattening the general dependent join (flatten_dependent_join.hpp).
  DecorrelatedPlan Decorrelate(BoundExpression& node, LogicalOperator& op) {
    LogicalOperatorPtr plan = std::move(node.subquery->plan);
    // EXISTS ignores what the rows hold and how many there are past one.
    bool existence = node.subquery_kind == SubqueryKind::EXISTS || node.subquery_kind == SubqueryKind::NOT_EXISTS;
    while (existence && plan->type == LogicalOperatorType::LIMIT && plan->limit != 0 && plan->offset == 0 &&
           !plan->limit_expression && !plan->offset_expression) {
      auto child = std::move(plan->children[0]);
      plan = std::move(child);
    }
    if (existence && plan->type == LogicalOperatorType::PROJECTION) {
      // Nor what it selects: EXISTS (SELECT o.x FROM ...) reads no outer
      // column, and EXISTS (SELECT * ...) carries no column to the join.
      auto child = std::move(plan->children[0]);
      plan = std::move(child);
    }
    LogicalOperator& input = *op.children[0];
    auto general = CopyLogicalPlan(*plan);
    try {
      auto d = PullUpCorrelations(std::move(plan));
      auto inner = d.plan->GetBindings();
      for (auto& c : d.conditions) MapOuterColumns(c, input, inner);
      if (d.ungrouped_aggregate) {
        d.empty_value = EmptyValue(*d.plan, d.ungrouped_aggregate);
        if (d.empty_value && !EmptyKey(d.conditions, *d.plan)) {
          throw NotImplementedError("an aggregate correlated other than by inner = outer");
        }
      }
      return d;
    } catch (const NotImplementedError&) {
      // Not a shape the pull-up handles: the general method.
    }
    auto inner = ProducedTableIndexes(*general);
    std::function<void(LogicalOperator&)> map = [&](LogicalOperator& sub) {
      VisitOperatorExpressions(sub, [&](BoundExprPtr& e) { MapOuterColumns(e, input, inner); });
      for (auto& c : sub.children) map(*c);
    };
    map(*general);
    return FlattenDependentJoin(binder_, std::move(general), input);
  }

  // Outer columns the filter's input does not produce: above an aggregate
  // (HAVING, a SELECT list with GROUP BY) a grouped column is read from the
  // aggregate's group output.
  static void MapOuterColumns(BoundExprPtr& condition, const LogicalOperator& input, std::vector<ColumnBinding> produced) {
    std::set<idx_t> none;
    MapOuterColumns(condition, input, none, std::move(produced));
  }

  static void MapOuterColumns(BoundExprPtr& condition, const LogicalOperator& input, const std::set<idx_t>& inner) {
    MapOuterColumns(condition, input, inner, {});
  }

  static void MapOuterColumns(BoundExprPtr& condition, const LogicalOperator& input, const std::set<idx_t>& inner,
                              std::vector<ColumnBinding> produced) {
    auto outer = input.GetBindings();
    produced.insert(produced.end(), outer.begin(), outer.end());
    const LogicalOperator* aggregate = &input;
    while (aggregate->type == LogicalOperatorType::FILTER || aggregate->type == LogicalOperatorType::ORDER) {
      aggregate = aggregate->children[0].get();
    }
    VisitColumnRefs(*condition, [&](BoundExpression& ref) {
      if (inner.count(ref.binding.table_index)) return;
      for (auto& b : produced) {
        if (b == ref.binding) return;
      }
      if (aggregate->type != LogicalOperatorType::AGGREGATE) return;  // a column further out (nested subqueries)
      for (idx_t g = 0; g < aggregate->expressions.size(); g++) {
        auto& group = aggregate->expressions[g];
        if (group->type == BoundExpressionType::COLUMN_REF && group->binding == ref.binding) {
          ref.binding = {aggregate->table_index, g};
          return;
        }
      }
      throw BinderError("column " + ref.name + " of the outer query is read by a subquery but is neither in its "
                        "GROUP BY nor inside an aggregate; add it to GROUP BY");
    });
  }

  LogicalOperatorPtr MakeJoin(LogicalJoinType type, LogicalOperator& op, DecorrelatedPlan& d) {
    auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
    join->join_type = type;
    join->expressions = std::move(d.conditions);
    join->children.push_back(std::move(op.children[0]));
    join->children.push_back(std::move(d.plan));
    return join;
  }

  // The subquery's columns as the join outputs them: the first, or one per
  // probe when a row is compared ((a, b) IN (SELECT x, y ...)).
  static std::vector<BoundExprPtr> Columns(const LogicalOperator& join, const BoundExpression& node) {
    auto bindings = join.children[1]->GetBindings();
    std::vector<BoundExprPtr> columns;
    idx_t count = std::max<idx_t>(1, node.children.size());
    for (idx_t i = 0; i < count; i++) columns.push_back(MakeBindingRef(bindings[i], node.subquery->types[i], node.name));
    return columns;
  }

  // probe_i = column_i (probe <op> column for op ANY), one per probe.
  std::vector<BoundExprPtr> MatchRow(BoundExpression& node, std::vector<BoundExprPtr> columns) {
    std::vector<BoundExprPtr> matches;
    for (idx_t i = 0; i < node.children.size(); i++) {
      matches.push_back(Compare(node, std::move(node.children[i]), std::move(columns[i])));
    }
    return matches;
  }

  // probe = column for IN / NOT IN, probe <op> column for op ANY.
  BoundExprPtr Compare(const BoundExpression& node, BoundExprPtr probe, BoundExprPtr column) {
    // The probe was cast to the type both sides compare in when bound.
    column = AddCast(std::move(column), probe->return_type);
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(probe));
    args.push_back(std::move(column));
    const char* op = AnyComparison(node.subquery_kind);
    return binder_.BindOperator(op ? op : "=", std::move(args), 0);
  }

  // What the subquery's first column is for an outer row without rows, when
  // an aggregate without GROUP BY tops it (count(*) + 1 -> 1); null when NULL.
  BoundExprPtr EmptyValue(const LogicalOperator& root, const LogicalOperator* aggregate, idx_t column = 0) {
    if (!aggregate) return nullptr;
    auto types = root.GetTypes();
    BoundExprPtr value = MakeBindingRef(root.GetBindings()[column], types[column]);
    const LogicalOperator* op = &root;
    while (op != aggregate) {
      if (op->type == LogicalOperatorType::PROJECTION) {
        Substitute(value, [&](const ColumnBinding& b) -> BoundExprPtr {
          return b.table_index == op->table_index ? op->expressions[b.column_index]->Copy() : nullptr;
        });
      } else if (op->type == LogicalOperatorType::FILTER) {
        // HAVING over the empty input: the subquery gives no row (NULL) unless it holds.
        auto when = op->expressions[0]->Copy();
        for (idx_t i = 1; i < op->expressions.size(); i++) {
          std::vector<BoundExprPtr> both;
          both.push_back(std::move(when));
          both.push_back(op->expressions[i]->Copy());
          when = MakeNode(BoundExpressionType::AND, TypeId::BOOLEAN, std::move(both));
        }
        std::vector<BoundExprPtr> parts;
        parts.push_back(std::move(when));
        LogicalType type = value->return_type;
        parts.push_back(std::move(value));
        parts.push_back(MakeConstant(Value(type)));
        value = MakeNode(BoundExpressionType::CASE, type, std::move(parts));
      }
      op = op->children[0].get();
    }
    Substitute(value, [&](const ColumnBinding& b) -> BoundExprPtr {
      if (b.table_index == aggregate->aggregate_index) return MakeConstant(EmptyAggregateValue(aggregate->aggregates[b.column_index]));
      if (b.table_index == aggregate->table_index) return MakeConstant(Value(aggregate->expressions[b.column_index]->return_type));
      return nullptr;
    });
    FunctionContext fctx;
    fctx.statement_start = binder_.Context().StatementStart();
    ExpressionExecutor executor(fctx);
    Value v;
    try {
      v = executor.EvaluateConstant(*value);
    } catch (const Exception&) {
      throw NotImplementedError("correlated scalar subqueries whose value over no rows raises an error (" +
                                value->ToString() + ")");
    }
    if (v.IsNull()) return nullptr;
    return MakeConstant(v.CastAs(types[0]));
  }

  // CASE WHEN <the join found no row> THEN empty ELSE value END, where a
  // correlation key of the subquery side (never NULL when matched) tells.
  static const BoundExpression* EmptyKey(const std::vector<BoundExprPtr>& conditions, const LogicalOperator& right_side) {
    auto right = right_side.GetBindings();
    for (auto& c : conditions) {
      for (auto& side : c->children) {
        if (side->type != BoundExpressionType::COLUMN_REF) continue;
        for (auto& b : right) {
          if (b == side->binding) return side.get();
        }
      }
    }
    return nullptr;
  }

  static BoundExprPtr FixEmpty(BoundExprPtr value, BoundExprPtr empty, const LogicalOperator& join) {
    const BoundExpression* key = EmptyKey(join.expressions, *join.children[1]);
    if (!key) throw InternalError("a correlated aggregate's empty value has no key to tell an empty group by");
    std::vector<BoundExprPtr> is_null;
    is_null.push_back(key->Copy());
    std::vector<BoundExprPtr> parts;
    parts.push_back(MakeNode(BoundExpressionType::IS_NULL, TypeId::BOOLEAN, std::move(is_null)));
    LogicalType type = value->return_type;
    parts.push_back(std::move(empty));
    parts.push_back(std::move(value));
    return MakeNode(BoundExpressionType::CASE, type, std::move(parts));
  }

  Binder& binder_;
};

void PlanSubqueries(Binder& binder, LogicalOperatorPtr& plan) {
  SubqueryPlanner planner(binder);
  planner.Plan(plan);
}

}  // namespace lakestream
