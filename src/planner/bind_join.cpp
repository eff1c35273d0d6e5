// JOIN binding: the kinds, ON / USING / NATURAL, and LATERAL right sides.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"
#include "planner/subquery/decorrelate.hpp"
#include "planner/subquery/flatten_dependent_join.hpp"

namespace lakestream {

static LogicalJoinType LogicalTypeOf(JoinType type) {
  switch (type) {
    case JoinType::INNER: return LogicalJoinType::INNER;
    case JoinType::CROSS: return LogicalJoinType::CROSS;
    // A RIGHT join is a LEFT join with the sides swapped; SELECT * still
    // lists the left table's columns first (the scope keeps the written order).
    case JoinType::LEFT:
    case JoinType::RIGHT: return LogicalJoinType::LEFT;
    case JoinType::FULL: return LogicalJoinType::FULL;
    case JoinType::SEMI: return LogicalJoinType::SEMI;
    case JoinType::ANTI: return LogicalJoinType::ANTI;
  }
  return LogicalJoinType::INNER;
}

// The columns a NATURAL join matches: visible (unqualified) names of the left
// side that the right side also has, in the left side's order.
static std::vector<std::string> NaturalColumns(const BindContext& left, const BindContext& right) {
  std::vector<std::string> columns;
  for (auto& [name, ref] : left.ExpandStar({})) {
    if (!right.Resolve({name}, true)) continue;
    bool seen = false;
    for (auto& c : columns) seen |= StringUtil::CIEquals(c, name);
    if (!seen) columns.push_back(name);
  }
  return columns;
}

LogicalOperatorPtr Binder::BindJoin(const TableRef& ref, BindContext& scope) {
  BindContext left_scope, right_scope;
  auto left = BindTableRef(*ref.left, left_scope);
  auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
  join->join_type = LogicalTypeOf(ref.join_type);
  LogicalOperatorPtr right;
  if (ref.right->type == TableRefType::SUBQUERY && ref.right->lateral) {
    if (ref.join_type == JoinType::RIGHT || ref.join_type == JoinType::FULL) {
      throw BinderError("LATERAL subquery " + ref.right->alias + " cannot be the right side of a RIGHT or FULL join: "
                        "it is computed per row of the tables before it; use LEFT JOIN LATERAL or CROSS JOIN LATERAL");
    }
    right = BindLateral(*ref.right, *left, left_scope, right_scope, join->expressions);
  } else {
    right = BindTableRef(*ref.right, right_scope);
  }
  BindContext both;
  both.Merge(left_scope);
  both.Merge(right_scope);
  if (ref.condition) {
    auto condition = BindExpression(*ref.condition, both, "JOIN ... ON");
    if (condition->return_type.id() != TypeId::BOOLEAN) {
      throw BinderError("JOIN condition must be a BOOLEAN expression, but " + ref.condition->ToString() + " is " +
                        condition->return_type.ToString());
    }
    SplitConjunctions(std::move(condition), join->expressions);
  }
  std::vector<std::string> using_columns = ref.natural ? NaturalColumns(left_scope, right_scope) : ref.using_columns;
  for (auto& column : using_columns) {
    auto l = left_scope.Resolve({column}, true);
    auto r = right_scope.Resolve({column}, true);
    if (!l || !r) {
      throw BinderError("Column \"" + column + "\" of JOIN ... USING is not in the " + (l ? "right" : "left") +
                        " side of the join; USING names columns both sides have (use ON to compare differently named columns)");
    }
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(l));
    args.push_back(std::move(r));
    join->expressions.push_back(BindOperator("=", std::move(args), ref.location));
  }
  if (join->join_type == LogicalJoinType::CROSS && !join->expressions.empty()) join->join_type = LogicalJoinType::INNER;
  if (ref.join_type == JoinType::RIGHT) {
    join->children.push_back(std::move(right));
    join->children.push_back(std::move(left));
  } else {
    join->children.push_back(std::move(left));
    join->children.push_back(std::move(right));
  }
  if (ref.join_type == JoinType::SEMI || ref.join_type == JoinType::ANTI) {
    scope.Merge(left_scope);  // only the left side's columns come out
    return join;
  }
  if (ref.join_type == JoinType::FULL && !using_columns.empty()) {
    return CoalesceUsingColumns(std::move(join), left_scope, right_scope, using_columns, scope, ref.location);
  }
  // USING merges the two columns into one, listed first by SELECT * (Spark,
  // DuckDB): the value of the side that survives the join (left, or right for
  // a RIGHT join). Each side's own column stays reachable qualified.
  BindEntry keys;  // no alias: only the bare names reach it
  const BindContext& surviving = ref.join_type == JoinType::RIGHT ? right_scope : left_scope;
  for (auto& column : using_columns) {
    auto key = surviving.Resolve({column});
    keys.names.push_back(column);
    keys.types.push_back(key->return_type);
    keys.bindings.push_back(key->binding);
  }
  for (auto& column : using_columns) {
    left_scope.MarkMerged(column);
    right_scope.MarkMerged(column);
  }
  if (!using_columns.empty()) scope.Add(std::move(keys));
  scope.Merge(left_scope);
  scope.Merge(right_scope);
  return join;
}

// Re-points `entry` at the projection's copies of its columns.
static BindEntry Remapped(const BindEntry& entry, const std::vector<ColumnBinding>& from, idx_t table_index, idx_t offset) {
  BindEntry out = entry;
  for (auto& b : out.bindings) {
    for (idx_t i = 0; i < from.size(); i++) {
      if (from[i] == b) {
        b = {table_index, offset + i};
        break;
      }
    }
  }
  return out;
}

LogicalOperatorPtr Binder::CoalesceUsingColumns(LogicalOperatorPtr join, const BindContext& left_scope,
                                                const BindContext& right_scope, const std::vector<std::string>& columns,
                                                BindContext& scope, uint32_t location) {
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = NextTableIndex();
  BindEntry keys;  // no alias: only the bare names reach it
  for (auto& column : columns) {
    std::vector<BoundExprPtr> args;
    args.push_back(left_scope.Resolve({column}));
    args.push_back(right_scope.Resolve({column}));
    auto merged = BindOperator("coalesce", std::move(args), location);
    merged->name = column;
    keys.names.push_back(column);
    keys.types.push_back(merged->return_type);
    keys.bindings.push_back({projection->table_index, projection->expressions.size()});
    projection->expressions.push_back(std::move(merged));
  }
  auto bindings = join->GetBindings();
  auto types = join->GetTypes();
  idx_t offset = projection->expressions.size();
  for (idx_t i = 0; i < bindings.size(); i++) projection->expressions.push_back(MakeBindingRef(bindings[i], types[i]));
  projection->children.push_back(std::move(join));
  BindContext sides;
  for (auto* side : {&left_scope, &right_scope}) {
    for (auto& entry : side->Entries()) sides.Add(Remapped(entry, bindings, projection->table_index, offset));
  }
  for (auto& column : columns) sides.MarkMerged(column);
  scope.Add(std::move(keys));
  scope.Merge(sides);
  return projection;
}

LogicalOperatorPtr Binder::BindLateral(const TableRef& ref, const LogicalOperator& left, const BindContext& left_scope,
                                       BindContext& scope, std::vector<BoundExprPtr>& conditions) {
  Binder sub(context_, this);
  sub.outer_scope_ = &left_scope;
  BoundQuery bound = sub.BindQuery(*ref.subquery);
  LogicalOperatorPtr plan = std::move(bound.plan);
  if (sub.correlated_) {
    // The pull-up of equality correlations where it applies; else (and for
    // an aggregate without GROUP BY, one row per left row) the general
    // dependent join.
    auto general = CopyLogicalPlan(*plan);
    DecorrelatedPlan d;
    try {
      d = PullUpCorrelations(std::move(plan));
      if (d.ungrouped_aggregate) d.plan = nullptr;
    } catch (const NotImplementedError&) {
      d.plan = nullptr;
    }
    if (!d.plan) d = FlattenDependentJoin(*this, std::move(general), left);
    plan = std::move(d.plan);
    for (auto& c : d.conditions) conditions.push_back(std::move(c));
  }
  BindEntry entry;
  entry.alias = ref.alias;
  entry.names = bound.names;
  if (ref.column_aliases.size() > bound.names.size()) {
    throw BinderError("Alias " + ref.alias + " names " + std::to_string(ref.column_aliases.size()) +
                      " columns but the LATERAL subquery has " + std::to_string(bound.names.size()));
  }
  for (idx_t i = 0; i < ref.column_aliases.size(); i++) entry.names[i] = ref.column_aliases[i];
  entry.types = bound.types;
  // The plan may output more columns now (the keys its predicates read): the entry keeps the subquery's own.
  auto bindings = plan->GetBindings();
  entry.bindings.assign(bindings.begin(), bindings.begin() + static_cast<std::ptrdiff_t>(bound.types.size()));
  scope.Add(std::move(entry));
  return plan;
}

}  // namespace lakestream
