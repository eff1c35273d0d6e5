#include "planner/subquery/decorrelate.hpp"

#include "common/exception.hpp"
#include "planner/subquery/flatten_dependent_join.hpp"

namespace lakestream {

static void CollectProduced(const LogicalOperator& op, std::set<idx_t>& out) {
  for (auto& b : op.GetBindings()) out.insert(b.table_index);
  // An aggregate's group index is in its bindings only when it has groups.
  if (op.type == LogicalOperatorType::AGGREGATE) out.insert(op.table_index);
  for (auto& c : op.children) CollectProduced(*c, out);
}

std::set<idx_t> ProducedTableIndexes(const LogicalOperator& plan) {
  std::set<idx_t> out;
  CollectProduced(plan, out);
  return out;
}

bool ReadsOuterColumn(const BoundExpression& expr, const std::set<idx_t>& inner) {
  if (expr.type == BoundExpressionType::COLUMN_REF && !inner.count(expr.binding.table_index)) return true;
  for (auto& c : expr.children) {
    if (ReadsOuterColumn(*c, inner)) return true;
  }
  return false;
}

namespace {

class CorrelationPuller {
 public:
  explicit CorrelationPuller(std::set<idx_t> inner) : inner_(std::move(inner)) {}

  // Pulls the correlated predicates out of `op` (which may be replaced); they
  // come back over op's output columns.
  std::vector<BoundExprPtr> Pull(LogicalOperatorPtr& op, bool top_chain) {
    switch (op->type) {
      case LogicalOperatorType::FILTER: {
        auto pulled = Pull(op->children[0], top_chain);
        std::vector<BoundExprPtr> kept;
        for (auto& e : op->expressions) {
          if (Outer(*e)) {
            pulled.push_back(std::move(e));
          } else {
            kept.push_back(std::move(e));
          }
        }
        op->expressions = std::move(kept);
        if (op->expressions.empty()) {
          auto child = std::move(op->children[0]);
          op = std::move(child);
        }
        return pulled;
      }
      case LogicalOperatorType::ORDER: {
        auto pulled = Pull(op->children[0], top_chain);
        for (auto& o : op->orders) Refuse(*o.expression, "an outer column in the ORDER BY of a subquery");
        return pulled;
      }
      case LogicalOperatorType::PROJECTION: {
        auto pulled = Pull(op->children[0], top_chain);
        for (auto& e : op->expressions) {
          Refuse(*e, "an outer column in the SELECT list of a subquery (compare it in the subquery's WHERE instead)");
        }
        for (auto& p : pulled) Reexport(*p, *op);
        return pulled;
      }
      case LogicalOperatorType::AGGREGATE: return PullAggregate(*op, top_chain);
      case LogicalOperatorType::JOIN: return PullJoin(*op);
      case LogicalOperatorType::LIMIT: {
        auto pulled = Pull(op->children[0], false);
        if (!pulled.empty()) {
          throw NotImplementedError("correlated subqueries with LIMIT/OFFSET (a top-N per outer row); use an "
                                    "aggregate (max/min) or a window function instead");
        }
        return pulled;
      }
      case LogicalOperatorType::UNION:
        for (auto& c : op->children) {
          if (!Pull(c, false).empty()) throw NotImplementedError("correlated subqueries over UNION (an outer column in a UNION branch)");
        }
        return {};
      case LogicalOperatorType::GET:
        for (auto& f : op->table_filters) Refuse(*f, "an outer column in a scan filter");
        return {};
      case LogicalOperatorType::CHUNK_GET:
        for (auto& row : op->value_rows) {
          for (auto& e : row) Refuse(*e, "an outer column in a VALUES list of a subquery");
        }
        return {};
      case LogicalOperatorType::SOURCE:
      case LogicalOperatorType::STREAM_GET: return {};
      case LogicalOperatorType::WINDOW:
      case LogicalOperatorType::SET_OPERATION:
      case LogicalOperatorType::UNNEST:
      case LogicalOperatorType::RECURSIVE_CTE:
        // Predicates cannot move past these unchanged: the general method.
        if (SubtreeOuter(*op)) throw NotImplementedError("correlated subqueries with an outer column below a window, set operation or UNNEST");
        return {};
    }
    return {};
  }

  const LogicalOperator* ungrouped_aggregate = nullptr;

 private:
  bool Outer(const BoundExpression& e) const { return ReadsOuterColumn(e, inner_); }

  bool SubtreeOuter(LogicalOperator& op) const {
    bool found = false;
    VisitOperatorExpressions(op, [&](BoundExprPtr& e) { found = found || Outer(*e); });
    for (auto& c : op.children) found = found || SubtreeOuter(*c);
    return found;
  }

  void Refuse(const BoundExpression& e, const std::string& what) const {
    if (Outer(e)) throw NotImplementedError("correlated subqueries with " + what);
  }

  // Makes the inner columns `pred` reads outputs of `projection`, and points
  // `pred` at them.
  void Reexport(BoundExpression& pred, LogicalOperator& projection) {
    VisitColumnRefs(pred, [&](BoundExpression& ref) {
      if (!inner_.count(ref.binding.table_index)) return;
      idx_t position = projection.expressions.size();
      for (idx_t i = 0; i < projection.expressions.size(); i++) {
        auto& e = projection.expressions[i];
        if (e->type == BoundExpressionType::COLUMN_REF && e->binding == ref.binding) {
          position = i;
          break;
        }
      }
      if (position == projection.expressions.size()) {
        projection.expressions.push_back(MakeBindingRef(ref.binding, ref.return_type, ref.name));
      }
      ref.binding = {projection.table_index, position};
    });
  }

  std::vector<BoundExprPtr> PullAggregate(LogicalOperator& op, bool top_chain) {
    auto pulled = Pull(op.children[0], false);
    for (auto& g : op.expressions) Refuse(*g, "an outer column in the GROUP BY of a subquery");
    for (auto& a : op.aggregates) {
      // Arguments, FILTER (WHERE ...), ORDER BY inside the call.
      for (auto* e : a.Expressions()) {
        if (*e) Refuse(**e, "an outer column inside an aggregate of a subquery");
      }
    }
    if (pulled.empty()) return pulled;
    bool had_groups = !op.expressions.empty();
    for (auto& p : pulled) {
      // Only inner = outer passes an aggregate: the inner side becomes a group.
      bool equality = p->type == BoundExpressionType::FUNCTION && p->function.name == "=" && p->children.size() == 2;
      int inner_side = -1;
      if (equality) {
        bool a_outer = Outer(*p->children[0]), b_outer = Outer(*p->children[1]);
        bool a_inner = ReadsInner(*p->children[0]), b_inner = ReadsInner(*p->children[1]);
        if (a_inner && !a_outer && b_outer && !b_inner) inner_side = 0;
        if (b_inner && !b_outer && a_outer && !a_inner) inner_side = 1;
      }
      if (inner_side < 0) {
        throw NotImplementedError("correlated subqueries with an aggregate over a correlation other than "
                                  "inner = outer (" + p->ToString() + ")");
      }
      auto& side = p->children[inner_side];
      LogicalType type = side->return_type;
      idx_t group = op.expressions.size();
      op.expressions.push_back(std::move(side));
      side = MakeBindingRef({op.table_index, group}, type);
    }
    if (!had_groups) {
      if (!top_chain) {
        throw NotImplementedError("correlated subqueries with an aggregate without GROUP BY below a join or LIMIT");
      }
      ungrouped_aggregate = &op;
    }
    return pulled;
  }

  bool ReadsInner(const BoundExpression& e) const {
    if (e.type == BoundExpressionType::COLUMN_REF && inner_.count(e.binding.table_index)) return true;
    for (auto& c : e.children) {
      if (ReadsInner(*c)) return true;
    }
    return false;
  }

  std::vector<BoundExprPtr> PullJoin(LogicalOperator& op) {
    bool inner_join = op.join_type == LogicalJoinType::INNER || op.join_type == LogicalJoinType::CROSS;
    auto pulled = Pull(op.children[0], false);
    auto right = Pull(op.children[1], false);
    if (!right.empty() && !inner_join) {
      throw NotImplementedError("correlated subqueries with an outer column on the inner side of an outer, semi or "
                                "anti join");
    }
    for (auto& r : right) pulled.push_back(std::move(r));
    if (op.mark_condition) Refuse(*op.mark_condition, "an outer column in a nested IN subquery's comparison");
    std::vector<BoundExprPtr> kept;
    for (auto& e : op.expressions) {
      if (!Outer(*e)) {
        kept.push_back(std::move(e));
      } else if (inner_join) {
        pulled.push_back(std::move(e));
      } else {
        throw NotImplementedError("correlated subqueries with an outer column in an outer, semi or anti join's "
                                  "condition (a subquery nested in a subquery that reads the outermost query)");
      }
    }
    op.expressions = std::move(kept);
    if (op.join_type == LogicalJoinType::INNER && op.expressions.empty()) op.join_type = LogicalJoinType::CROSS;
    return pulled;
  }

  std::set<idx_t> inner_;
};

}  // namespace

DecorrelatedPlan PullUpCorrelations(LogicalOperatorPtr plan) {
  CorrelationPuller puller(ProducedTableIndexes(*plan));
  DecorrelatedPlan result;
  result.conditions = puller.Pull(plan, true);
  result.plan = std::move(plan);
  result.ungrouped_aggregate = puller.ungrouped_aggregate;
  return result;
}

}  // namespace lakestream
