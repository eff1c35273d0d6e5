#include "planner/subquery/flatten_dependent_join.hpp"

#include <map>

#include "common/exception.hpp"
#include "function/aggregate_function.hpp"
#include "planner/binder.hpp"

namespace lakestream {

void VisitOperatorExpressions(LogicalOperator& op, const std::function<void(BoundExprPtr&)>& fn) {
  auto all = [&](std::vector<BoundExprPtr>& list) {
    for (auto& e : list) {
      if (e) fn(e);
    }
  };
  all(op.expressions);
  all(op.table_filters);
  for (auto& row : op.value_rows) all(row);
  for (auto& a : op.aggregates) {
    for (auto* e : a.Expressions()) {
      if (*e) fn(*e);
    }
  }
  all(op.left_keys);
  all(op.right_keys);
  if (op.residual) fn(op.residual);
  if (op.mark_condition) fn(op.mark_condition);
  for (auto& o : op.orders) fn(o.expression);
  if (op.limit_expression) fn(op.limit_expression);
  if (op.offset_expression) fn(op.offset_expression);
}

static void VisitPlan(LogicalOperator& op, const std::function<void(LogicalOperator&)>& fn) {
  fn(op);
  for (auto& c : op.children) VisitPlan(*c, fn);
}

LogicalOperatorPtr CopyWithFreshTables(const LogicalOperator& plan, const std::function<idx_t()>& next_index,
                                       std::map<idx_t, idx_t>& renumber) {
  auto copy = CopyLogicalPlan(plan);
  VisitPlan(*copy, [&](LogicalOperator& op) {
    auto add = [&](idx_t index) {
      if (!renumber.count(index)) renumber[index] = next_index();
    };
    for (auto& b : op.GetBindings()) add(b.table_index);
    if (op.type == LogicalOperatorType::AGGREGATE) {
      add(op.table_index);
      add(op.aggregate_index);
    }
  });
  VisitPlan(*copy, [&](LogicalOperator& op) {
    auto it = renumber.find(op.table_index);
    if (it != renumber.end()) op.table_index = it->second;
    if (op.type == LogicalOperatorType::AGGREGATE) op.aggregate_index = renumber.at(op.aggregate_index);
    VisitOperatorExpressions(op, [&](BoundExprPtr& e) {
      VisitColumnRefs(*e, [&](BoundExpression& ref) {
        auto found = renumber.find(ref.binding.table_index);
        if (found != renumber.end()) ref.binding.table_index = found->second;
      });
    });
  });
  return copy;
}

class DependentJoinFlattener {
 public:
  DependentJoinFlattener(Binder& binder, const LogicalOperator& outer) : binder_(binder), outer_(outer) {}

  DecorrelatedPlan Flatten(LogicalOperatorPtr plan) {
    CollectCorrelated(*plan);
    DecorrelatedPlan result;
    if (correlated_.empty()) {
      // Only columns from further out: the next level out flattens them.
      result.plan = std::move(plan);
      return result;
    }
    auto original = plan->GetBindings();
    auto original_types = plan->GetTypes();
    auto columns = Push(plan);
    // The subquery's columns first (callers read the first), then C.
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    projection->table_index = binder_.NextTableIndex();
    for (idx_t i = 0; i < original.size(); i++) projection->expressions.push_back(MakeBindingRef(original[i], original_types[i]));
    for (idx_t i = 0; i < columns.size(); i++) projection->expressions.push_back(MakeBindingRef(columns[i], types_[i]));
    projection->children.push_back(std::move(plan));
    for (idx_t i = 0; i < correlated_.size(); i++) {
      result.conditions.push_back(NotDistinct(MakeBindingRef(correlated_[i], types_[i], names_[i]),
                                              MakeBindingRef({projection->table_index, original.size() + i}, types_[i])));
    }
    result.plan = std::move(projection);
    return result;
  }

 private:
  using Columns = std::vector<ColumnBinding>;

  // C: the outer input's columns the subquery reads, in a fixed order.
  void CollectCorrelated(LogicalOperator& plan) {
    auto inner = ProducedTableIndexes(plan);
    auto outer_types = outer_.GetTypes();
    auto bindings = outer_.GetBindings();
    VisitPlan(plan, [&](LogicalOperator& op) {
      VisitOperatorExpressions(op, [&](BoundExprPtr& e) {
        VisitColumnRefs(*e, [&](BoundExpression& ref) {
          if (inner.count(ref.binding.table_index) || position_.count(ref.binding)) return;
          for (idx_t i = 0; i < bindings.size(); i++) {
            if (bindings[i] == ref.binding) {
              position_[ref.binding] = correlated_.size();
              correlated_.push_back(ref.binding);
              types_.push_back(outer_types[i]);
              names_.push_back(ref.name);
              return;
            }
          }
        });
      });
    });
  }

  bool ReadsCorrelated(const BoundExpression& e) const {
    if (e.type == BoundExpressionType::COLUMN_REF && position_.count(e.binding)) return true;
    for (auto& c : e.children) {
      if (ReadsCorrelated(*c)) return true;
    }
    return false;
  }

  bool OwnCorrelation(LogicalOperator& op) const {
    bool found = false;
    VisitOperatorExpressions(op, [&](BoundExprPtr& e) { found = found || ReadsCorrelated(*e); });
    return found;
  }

  bool HasCorrelation(LogicalOperator& op) const {
    if (OwnCorrelation(op)) return true;
    for (auto& c : op.children) {
      if (HasCorrelation(*c)) return true;
    }
    return false;
  }

  // Points the references to C inside `op`'s own expressions at `columns`.
  void Rewrite(LogicalOperator& op, const Columns& columns) const {
    VisitOperatorExpressions(op, [&](BoundExprPtr& e) { RewriteExpression(*e, columns); });
  }

  void RewriteExpression(BoundExpression& e, const Columns& columns) const {
    VisitColumnRefs(e, [&](BoundExpression& ref) {
      auto it = position_.find(ref.binding);
      if (it != position_.end()) ref.binding = columns[it->second];
    });
  }

  BoundExprPtr NotDistinct(BoundExprPtr a, BoundExprPtr b) {
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return binder_.BindOperator("is_not_distinct_from", std::move(args), 0);
  }

  // Turns `op` into the dependent join of D with it: the same output columns
  // (bindings unchanged) plus C, whose bindings are returned.
  Columns Push(LogicalOperatorPtr& op) {
    if (!HasCorrelation(*op)) {
      Columns columns;
      auto delim = MakeDelim(columns);
      auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
      join->join_type = LogicalJoinType::CROSS;
      join->children.push_back(std::move(op));
      join->children.push_back(std::move(delim));
      op = std::move(join);
      return columns;
    }
    switch (op->type) {
      case LogicalOperatorType::FILTER:
      case LogicalOperatorType::ORDER:
      case LogicalOperatorType::UNNEST: {
        auto columns = Push(op->children[0]);
        Rewrite(*op, columns);
        return columns;
      }
      case LogicalOperatorType::PROJECTION: {
        auto columns = Push(op->children[0]);
        Rewrite(*op, columns);
        Columns out;
        for (idx_t i = 0; i < columns.size(); i++) {
          out.push_back({op->table_index, op->expressions.size()});
          op->expressions.push_back(MakeBindingRef(columns[i], types_[i], names_[i]));
        }
        return out;
      }
      case LogicalOperatorType::AGGREGATE: return PushAggregate(op);
      case LogicalOperatorType::JOIN: return PushJoin(*op);
      case LogicalOperatorType::WINDOW: {
        auto columns = Push(op->children[0]);
        Rewrite(*op, columns);
        std::vector<idx_t> inputs;
        for (idx_t i = 0; i < columns.size(); i++) {
          inputs.push_back(op->expressions.size());
          op->expressions.push_back(MakeBindingRef(columns[i], types_[i], names_[i]));
        }
        for (auto& w : op->windows) w.partitions.insert(w.partitions.end(), inputs.begin(), inputs.end());
        return columns;
      }
      case LogicalOperatorType::LIMIT: return PushLimit(op);
      case LogicalOperatorType::UNION:
      case LogicalOperatorType::SET_OPERATION: {
        for (auto& child : op->children) {
          auto bindings = child->GetBindings();
          auto types = child->GetTypes();
          auto columns = Push(child);
          AppendColumns(child, bindings, types, columns);
        }
        Columns out;
        for (idx_t i = 0; i < correlated_.size(); i++) {
          out.push_back({op->table_index, op->union_types.size()});
          op->union_types.push_back(types_[i]);
        }
        return out;
      }
      case LogicalOperatorType::GET:
        throw NotImplementedError("correlated subqueries with an outer column in a scan filter");
      case LogicalOperatorType::CHUNK_GET: return PushValues(op);
      case LogicalOperatorType::RECURSIVE_CTE:
        throw NotImplementedError("correlated subqueries with an outer column inside WITH RECURSIVE");
      case LogicalOperatorType::SOURCE:
      case LogicalOperatorType::STREAM_GET: break;
    }
    throw NotImplementedError("correlated subqueries with an outer column in a table function's arguments");
  }

  // A UNION / set operation branch outputs what it did (`bindings`), then C,
  // by position.
  void AppendColumns(LogicalOperatorPtr& child, const Columns& bindings, const std::vector<LogicalType>& types,
                     const Columns& columns) {
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    projection->table_index = binder_.NextTableIndex();
    for (idx_t i = 0; i < bindings.size(); i++) projection->expressions.push_back(MakeBindingRef(bindings[i], types[i]));
    for (idx_t i = 0; i < columns.size(); i++) projection->expressions.push_back(MakeBindingRef(columns[i], types_[i], names_[i]));
    projection->children.push_back(std::move(child));
    child = std::move(projection);
  }

  // VALUES rows reading C: each row, once per value of D, as a UNION ALL
  // that keeps the VALUES' table index (so its columns keep their bindings).
  Columns PushValues(LogicalOperatorPtr& op) {
    auto types = op->collection->Types();
    auto values = std::make_unique<LogicalOperator>(LogicalOperatorType::UNION);
    values->table_index = op->table_index;
    values->union_types = types;
    for (auto& row : op->value_rows) {
      Columns delim_columns;
      auto delim = MakeDelim(delim_columns);
      auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
      projection->table_index = binder_.NextTableIndex();
      for (idx_t j = 0; j < row.size(); j++) {
        RewriteExpression(*row[j], delim_columns);
        projection->expressions.push_back(AddCast(std::move(row[j]), types[j]));
      }
      for (idx_t i = 0; i < delim_columns.size(); i++) {
        projection->expressions.push_back(MakeBindingRef(delim_columns[i], types_[i], names_[i]));
      }
      projection->children.push_back(std::move(delim));
      values->children.push_back(std::move(projection));
    }
    Columns out;
    for (idx_t i = 0; i < correlated_.size(); i++) {
      out.push_back({values->table_index, values->union_types.size()});
      values->union_types.push_back(types_[i]);
    }
    op = std::move(values);
    return out;
  }

  Columns PushAggregate(LogicalOperatorPtr& op) {
    auto columns = Push(op->children[0]);
    Rewrite(*op, columns);
    bool ungrouped = op->expressions.empty() && op->grouping_sets.empty();
    idx_t first = op->expressions.size();
    for (idx_t i = 0; i < columns.size(); i++) op->expressions.push_back(MakeBindingRef(columns[i], types_[i], names_[i]));
    for (auto& set : op->grouping_sets) {
      for (idx_t i = 0; i < columns.size(); i++) set.push_back(first + i);
    }
    Columns out;
    for (idx_t i = 0; i < columns.size(); i++) out.push_back({op->table_index, first + i});
    if (!ungrouped) return out;
    // Without GROUP BY the aggregate gave one row even over no input; per
    // value of C it now gives none where no row came. D LEFT JOIN it brings
    // those values back, with COUNT's 0 (the other aggregates are NULL there,
    // which the LEFT join gives). The projection takes the aggregate's old
    // index, so everything above reads it unchanged.
    idx_t old_aggregate_index = op->aggregate_index;
    op->aggregate_index = binder_.NextTableIndex();
    Columns delim_columns;
    auto delim = MakeDelim(delim_columns);
    auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
    join->join_type = LogicalJoinType::LEFT;
    for (idx_t i = 0; i < columns.size(); i++) {
      join->expressions.push_back(NotDistinct(MakeBindingRef(delim_columns[i], types_[i]), MakeBindingRef(out[i], types_[i])));
    }
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    projection->table_index = old_aggregate_index;
    for (idx_t a = 0; a < op->aggregates.size(); a++) {
      auto& aggregate = op->aggregates[a];
      const LogicalType& type = aggregate.signature.return_type;
      BoundExprPtr value = MakeBindingRef({op->aggregate_index, a}, type, aggregate.signature.name);
      AggregateKind kind = aggregate.signature.kind;
      if (kind == AggregateKind::COUNT || kind == AggregateKind::COUNT_STAR || kind == AggregateKind::COUNT_DISTINCT) {
        std::vector<BoundExprPtr> parts;
        auto is_null = std::make_unique<BoundExpression>(BoundExpressionType::IS_NULL, TypeId::BOOLEAN);
        is_null->children.push_back(value->Copy());
        parts.push_back(std::move(is_null));
        parts.push_back(MakeConstant(Value::BIGINT(0).CastAs(type)));
        parts.push_back(std::move(value));
        value = std::make_unique<BoundExpression>(BoundExpressionType::CASE, type);
        value->children = std::move(parts);
      }
      projection->expressions.push_back(std::move(value));
    }
    Columns projected;
    for (idx_t i = 0; i < columns.size(); i++) {
      projected.push_back({projection->table_index, projection->expressions.size()});
      projection->expressions.push_back(MakeBindingRef(delim_columns[i], types_[i], names_[i]));
    }
    join->children.push_back(std::move(delim));
    join->children.push_back(std::move(op));
    projection->children.push_back(std::move(join));
    op = std::move(projection);
    return projected;
  }

  Columns PushJoin(LogicalOperator& op) {
    bool left = HasCorrelation(*op.children[0]);
    bool right = HasCorrelation(*op.children[1]);
    bool condition = OwnCorrelation(op);
    if (op.join_type == LogicalJoinType::FULL) {
      throw NotImplementedError("correlated subqueries with an outer column in or below a FULL JOIN");
    }
    bool inner = op.join_type == LogicalJoinType::INNER || op.join_type == LogicalJoinType::CROSS;
    // The left side always carries C out (SEMI/ANTI/MARK output only it); the
    // right side needs its own when it reads C, or, for a join that keeps
    // unmatched left rows, when the condition does (so each C value only
    // meets its own rows).
    bool push_right = right || (!inner && condition);
    bool push_left = left || !push_right || !inner;
    Columns out;
    if (push_left && push_right) {
      auto l = Push(op.children[0]);
      auto r = Push(op.children[1]);
      Rewrite(op, l);
      for (idx_t i = 0; i < l.size(); i++) {
        op.expressions.push_back(NotDistinct(MakeBindingRef(l[i], types_[i]), MakeBindingRef(r[i], types_[i])));
      }
      out = l;
    } else if (push_left) {
      out = Push(op.children[0]);
      Rewrite(op, out);
    } else {
      out = Push(op.children[1]);
      Rewrite(op, out);
    }
    if (op.join_type == LogicalJoinType::CROSS && !op.expressions.empty()) op.join_type = LogicalJoinType::INNER;
    return out;
  }

  // LIMIT n OFFSET m per value of C: row_number() over (PARTITION BY C ORDER
  // BY the subquery's ORDER BY) in (m, m + n].
  Columns PushLimit(LogicalOperatorPtr& op) {
    if (op->limit_expression || op->offset_expression) {
      throw NotImplementedError("correlated subqueries with LIMIT/OFFSET given by a subquery; write a constant");
    }
    LogicalOperatorPtr child = std::move(op->children[0]);
    std::vector<BoundOrder> orders;
    if (child->type == LogicalOperatorType::ORDER) {
      orders = std::move(child->orders);
      auto below = std::move(child->children[0]);
      child = std::move(below);
    }
    auto columns = Push(child);
    auto window = std::make_unique<LogicalOperator>(LogicalOperatorType::WINDOW);
    window->table_index = binder_.NextTableIndex();
    BoundWindow row_number;
    row_number.kind = WindowKind::ROW_NUMBER;
    row_number.name = "row_number()";
    row_number.return_type = TypeId::BIGINT;
    for (idx_t i = 0; i < columns.size(); i++) {
      row_number.partitions.push_back(window->expressions.size());
      window->expressions.push_back(MakeBindingRef(columns[i], types_[i], names_[i]));
    }
    for (auto& o : orders) {
      RewriteExpression(*o.expression, columns);
      row_number.orders.push_back({window->expressions.size(), o.descending, o.nulls_first});
      window->expressions.push_back(std::move(o.expression));
    }
    // ROWS, so that peers get their own numbers (the frame does not matter to
    // row_number, but RANGE would need one order key).
    row_number.frame.range = false;
    window->windows.push_back(std::move(row_number));
    window->children.push_back(std::move(child));
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
    BoundExprPtr number = MakeBindingRef({window->table_index, 0}, TypeId::BIGINT, "row_number()");
    filter->expressions.push_back(Compare(">", number->Copy(), op->offset));
    if (op->limit >= 0) filter->expressions.push_back(Compare("<=", number->Copy(), op->offset + op->limit));
    filter->children.push_back(std::move(window));
    op = std::move(filter);
    return columns;
  }

  BoundExprPtr Compare(const std::string& name, BoundExprPtr a, int64_t b) {
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(MakeConstant(Value::BIGINT(b)));
    return binder_.BindOperator(name, std::move(args), 0);
  }

  // D: DISTINCT C over a copy of the outer input, renumbered so that its
  // bindings are its own. Sets `columns` to D's bindings of C.
  LogicalOperatorPtr MakeDelim(Columns& columns) {
    std::map<idx_t, idx_t> renumber;
    auto copy = CopyWithFreshTables(outer_, [&] { return binder_.NextTableIndex(); }, renumber);
    auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
    distinct->table_index = binder_.NextTableIndex();
    distinct->aggregate_index = binder_.NextTableIndex();
    columns.clear();
    for (idx_t i = 0; i < correlated_.size(); i++) {
      ColumnBinding b = correlated_[i];
      b.table_index = renumber.at(b.table_index);
      columns.push_back({distinct->table_index, i});
      distinct->expressions.push_back(MakeBindingRef(b, types_[i], names_[i]));
    }
    distinct->children.push_back(std::move(copy));
    return distinct;
  }

  Binder& binder_;
  const LogicalOperator& outer_;
  std::vector<ColumnBinding> correlated_;
  std::vector<LogicalType> types_;
  std::vector<std::string> names_;
  std::map<ColumnBinding, idx_t> position_;
};

DecorrelatedPlan FlattenDependentJoin(Binder& binder, LogicalOperatorPtr subquery, const LogicalOperator& outer_input) {
  DependentJoinFlattener flattener(binder, outer_input);
  return flattener.Flatten(std::move(subquery));
}

}  // namespace lakestream
