#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/aggregate_function.hpp"
#include "transaction/client_context.hpp"
#include "planner/binder.hpp"
#include "planner/subquery/plan_subqueries.hpp"

namespace lakestream {

static bool ContainsAggregate(const ParsedExpression& expr) {
  if (expr.window) {
    // sum(x) OVER (...) is a window function, but its arguments and keys may hold aggregates.
    for (auto& p : expr.window->partitions) {
      if (ContainsAggregate(*p)) return true;
    }
    for (auto& o : expr.window->orders) {
      if (ContainsAggregate(*o.expression)) return true;
    }
  } else if (expr.type == ExpressionType::FUNCTION && IsAggregateFunction(StringUtil::Lower(expr.function_name))) {
    return true;
  }
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
  // BindContext::ExpressionKey, to match ORDER BY and GROUP BY expressions;
  // set for * columns, computed when first needed for the others (ItemKey).
  std::string key;
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
  if (expr.window) {
    // QUALIFY rank() OVER (ORDER BY total DESC) = 1 may name aliases in the window too.
    for (auto& p : copy->window->partitions) p = ExpandSelectAliases(*p, items, scope);
    for (auto& o : copy->window->orders) o.expression = ExpandSelectAliases(*o.expression, items, scope);
  }
  return copy;
}

// Binds one SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... ORDER BY
// ... LIMIT, a phase at a time, into
//   [LIMIT] <- [ORDER] <- [DISTINCT] <- PROJECTION <- [FILTER (HAVING)] <-
//   [AGGREGATE] <- [FILTER (WHERE)] <- FROM
// with a final PROJECTION dropping ORDER BY columns that are not selected.
class SelectNodeBinder {
 public:
  SelectNodeBinder(Binder& binder, const QueryNode& node) : binder_(binder), node_(node) {}

  BoundQuery Bind() {
    BindFrom();
    BindWhere();
    plan_ = binder_.BindPendingGenerators(node_, std::move(plan_), scope_);
    ExpandSelectList();
    if (IsAggregateQuery()) BindGroups();
    window_.window_index = binder_.NextTableIndex();
    window_.node = &node_;
    WithWindows([&] { BindSelectList(); });
    BindHaving();
    WithWindows([&] {
      BindQualify();
      BindOrderBy();
    });
    return BuildPlan();
  }

 private:
  // ORDER BY key: a column of the projection, visible or hidden.
  struct OrderTarget {
    idx_t column;
    bool descending;
    bool nulls_first;
  };

  void BindFrom() {
    if (node_.from) {
      plan_ = binder_.BindTableRef(*node_.from, scope_);
      return;
    }
    plan_ = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
    plan_->table_index = binder_.NextTableIndex();
    plan_->collection = MakeSingleRow();
  }

  void BindWhere() {
    if (!node_.where) return;
    auto predicate = binder_.BindExpression(*node_.where, scope_, "WHERE");
    if (predicate->return_type.id() != TypeId::BOOLEAN) {
      if (predicate->return_type.id() != TypeId::SQLNULL) {
        throw BinderError("WHERE clause must be a BOOLEAN expression, but " + node_.where->ToString() + " is " +
                          predicate->return_type.ToString());
      }
      predicate = AddCast(std::move(predicate), TypeId::BOOLEAN);
    }
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
    SplitConjunctions(std::move(predicate), filter->expressions);
    filter->children.push_back(std::move(plan_));
    plan_ = std::move(filter);
  }

  void ExpandSelectList() {
    for (auto& e : node_.select_list) {
      if (e->type == ExpressionType::STAR) {
        auto expanded = scope_.ExpandStar(e->names);
        CheckStarModifiers(*e, expanded);
        for (auto& [name, ref] : expanded) {
          if (Named(e->star_exclude, name)) continue;
          const ParsedExpression* replacement = nullptr;
          for (auto& r : e->children)
            if (StringUtil::CIEquals(r->alias, name)) replacement = r.get();
          if (replacement) {  // * REPLACE (expr AS name): the expression, under the column's name and place
            items_.push_back({replacement, nullptr, name, ""});
            continue;
          }
          std::string key = BindContext::ColumnKey(ref->binding);
          items_.push_back({nullptr, std::move(ref), name, std::move(key)});
        }
      } else {
        items_.push_back({e.get(), nullptr, DerivedName(*e), ""});
      }
    }
  }

  static bool Named(const std::vector<std::string>& names, const std::string& name) {
    for (auto& n : names)
      if (StringUtil::CIEquals(n, name)) return true;
    return false;
  }

  // Each name EXCLUDE or REPLACE gives must be one of the * columns.
  static void CheckStarModifiers(const ParsedExpression& star,
                                 const std::vector<std::pair<std::string, BoundExprPtr>>& expanded) {
    std::vector<std::string> columns;
    columns.reserve(expanded.size());
    for (auto& [name, ref] : expanded) columns.push_back(name);
    auto check = [&](const std::string& name, const char* clause) {
      if (Named(columns, name)) return;
      throw BinderError(std::string("* ") + clause + " names " + name + ", which is not a column of the *; the " +
                        "columns are " + StringUtil::Join(columns, ", "));
    };
    for (auto& name : star.star_exclude) check(name, "EXCLUDE");
    for (auto& r : star.children) check(r->alias, "REPLACE");
    if (!star.star_exclude.empty() && star.star_exclude.size() >= expanded.size()) {
      throw BinderError("* EXCLUDE leaves no column: it excludes all of " + StringUtil::Join(columns, ", "));
    }
  }

  bool IsAggregateQuery() const {
    bool aggregate_query = !node_.group_by.empty() || node_.group_by_all || node_.having || !node_.grouping_sets.empty();
    for (auto& item : items_) aggregate_query |= item.expr && ContainsAggregate(*item.expr);
    for (auto& o : node_.order_by) aggregate_query |= ContainsAggregate(*o.expression);
    if (node_.qualify) aggregate_query |= ContainsAggregate(*node_.qualify);
    return aggregate_query;
  }

  // A GROUP BY key: the parsed expression, or the bound column of a * item.
  using Group = std::pair<const ParsedExpression*, BoundExprPtr>;

  // The group of GROUP BY `g`: a select-list position or alias, or the expression itself.
  Group ResolveGroup(const ParsedExpression& g) {
    if (g.type == ExpressionType::CONSTANT && g.value.type().IsIntegral()) {
      int64_t k = g.value.AsBigint();
      if (k < 1 || k > static_cast<int64_t>(items_.size())) {
        throw BinderError("GROUP BY position " + std::to_string(k) + " is not in the select list (1 to " +
                          std::to_string(items_.size()) + ")");
      }
      auto& item = items_[k - 1];
      if (item.expr && ContainsAggregate(*item.expr)) {
        throw BinderError("GROUP BY position " + std::to_string(k) + " refers to an aggregate (" + item.name + ")");
      }
      if (item.expr) return {item.expr, nullptr};
      return {nullptr, item.expanded->Copy()};
    }
    if (g.type == ExpressionType::COLUMN_REF && g.names.size() == 1 && !scope_.Resolve(g.names, true)) {
      // GROUP BY a select-list alias.
      const ParsedExpression* aliased = nullptr;
      for (auto& item : items_) {
        if (item.expr && StringUtil::CIEquals(item.name, g.names[0])) aliased = item.expr;
      }
      if (aliased) return {aliased, nullptr};
    }
    return {&g, nullptr};
  }

  void BindGroups() {
    aggregate_.group_index = binder_.NextTableIndex();
    aggregate_.aggregate_index = binder_.NextTableIndex();
    std::vector<Group> groups;
    if (node_.group_by_all) {
      for (auto& item : items_) {
        if (!item.expr) {
          groups.emplace_back(nullptr, item.expanded->Copy());
        } else if (!ContainsAggregate(*item.expr) && item.expr->type != ExpressionType::CONSTANT) {
          groups.emplace_back(item.expr, nullptr);
        }
      }
    }
    for (auto& g : node_.group_by) groups.push_back(ResolveGroup(*g));
    for (auto& [parsed, bound] : groups) {
      if (parsed) {
        aggregate_.group_strings.push_back(scope_.ExpressionKey(*parsed));
        aggregate_.groups.push_back(binder_.BindExpression(*parsed, scope_, "GROUP BY"));
      } else {
        aggregate_.group_strings.push_back(BindContext::ColumnKey(bound->binding));
        aggregate_.groups.push_back(std::move(bound));
      }
    }
    // GROUPING SETS: positions in node_.group_by are positions in groups
    // (GROUP BY ALL is a plain GROUP BY, never combined with sets).
    for (auto& set : node_.grouping_sets) grouping_sets_.emplace_back(set.begin(), set.end());
    aggregate_.grouping_sets = !node_.grouping_sets.empty();
    for (auto& item : items_) {
      if (item.expr && !item.expr->alias.empty() && !ContainsAggregate(*item.expr)) {
        aggregate_.select_aliases.emplace_back(item.expr->alias, scope_.ExpressionKey(*item.expr));
      }
    }
    agg_ = &aggregate_;
  }

  void BindSelectList() {
    for (auto& item : items_) {
      names_.push_back(item.name);
      if (item.expr) {
        projections_.push_back(binder_.Bind(*item.expr, scope_, agg_, "SELECT"));
      } else if (!agg_) {
        projections_.push_back(std::move(item.expanded));
      } else {
        projections_.push_back(GroupColumnOfStar(item));
      }
    }
  }

  const std::string& ItemKey(idx_t i) {
    auto& item = items_[i];
    if (item.key.empty()) item.key = scope_.ExpressionKey(*item.expr);
    return item.key;
  }

  // SELECT * in an aggregate query: every column must be a group.
  BoundExprPtr GroupColumnOfStar(const SelectItem& item) {
    for (idx_t g = 0; g < aggregate_.group_strings.size(); g++) {
      if (aggregate_.group_strings[g] == item.key) {
        return MakeBindingRef({aggregate_.group_index, g}, aggregate_.groups[g]->return_type, item.name);
      }
    }
    throw BinderError("column \"" + item.name +
                      "\" (from *) must appear in the GROUP BY clause or be used in an aggregate function");
  }

  void BindHaving() {
    if (!node_.having) return;
    auto expanded = ExpandSelectAliases(*node_.having, items_, scope_);
    having_ = binder_.Bind(*expanded, scope_, agg_, "HAVING");
    if (having_->return_type.id() != TypeId::BOOLEAN) {
      throw BinderError("HAVING clause must be a BOOLEAN expression, but " + node_.having->ToString() + " is " +
                        having_->return_type.ToString());
    }
  }

  // Window functions are allowed while `bind` runs (SELECT, QUALIFY, ORDER BY).
  template <class F>
  void WithWindows(F bind) {
    binder_.window_state_ = &window_;
    try {
      bind();
    } catch (...) {
      binder_.window_state_ = nullptr;
      throw;
    }
    binder_.window_state_ = nullptr;
  }

  void BindQualify() {
    if (!node_.qualify) return;
    auto expanded = ExpandSelectAliases(*node_.qualify, items_, scope_);
    qualify_ = binder_.Bind(*expanded, scope_, agg_, "QUALIFY");
    if (window_.windows.empty()) {
      throw BinderError("QUALIFY filters on window functions, but the query has none; use WHERE (or HAVING after "
                        "GROUP BY) for " + node_.qualify->ToString());
    }
    if (qualify_->return_type.id() != TypeId::BOOLEAN) {
      throw BinderError("QUALIFY clause must be a BOOLEAN expression, but " + node_.qualify->ToString() + " is " +
                        qualify_->return_type.ToString());
    }
  }

  // ORDER BY: select-list positions, aliases or expressions; anything else
  // becomes a hidden projection column that is dropped after sorting.
  void BindOrderBy() {
    visible_ = projections_.size();
    for (auto& o : node_.order_by) {
      order_targets_.push_back({OrderColumn(*o.expression), o.descending, o.nulls_first.value_or(o.descending)});
    }
  }

  idx_t OrderColumn(const ParsedExpression& e) {
    constexpr idx_t kNone = static_cast<idx_t>(-1);
    if (e.type == ExpressionType::CONSTANT && e.value.type().IsIntegral()) {
      int64_t k = e.value.AsBigint();
      if (k < 1 || k > static_cast<int64_t>(visible_)) {
        throw BinderError("ORDER BY position " + std::to_string(k) + " is not in the select list (1 to " +
                          std::to_string(visible_) + ")");
      }
      return static_cast<idx_t>(k - 1);
    }
    idx_t target = kNone;
    if (e.type == ExpressionType::COLUMN_REF && e.names.size() == 1) {
      for (idx_t i = 0; i < visible_ && target == kNone; i++) {
        if (StringUtil::CIEquals(names_[i], e.names[0])) target = i;
      }
    }
    // The same expression as a select item, however its columns are qualified.
    std::string key = scope_.ExpressionKey(e);
    for (idx_t i = 0; i < visible_ && target == kNone; i++) {
      if (ItemKey(i) == key) target = i;
    }
    if (target != kNone) return target;
    if (node_.distinct) {
      throw BinderError("for SELECT DISTINCT, ORDER BY expressions must appear in the select list: " + e.ToString());
    }
    auto expanded = ExpandSelectAliases(e, items_, scope_);
    projections_.push_back(binder_.Bind(*expanded, scope_, agg_, "ORDER BY"));
    return projections_.size() - 1;
  }

  // Puts `op` on top of the plan.
  void Push(LogicalOperatorPtr op) {
    op->children.push_back(std::move(plan_));
    plan_ = std::move(op);
  }

  BoundQuery BuildPlan() {
    if (agg_) {
      auto aggregate_op = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
      aggregate_op->table_index = aggregate_.group_index;
      aggregate_op->aggregate_index = aggregate_.aggregate_index;
      aggregate_op->expressions = std::move(aggregate_.groups);
      aggregate_op->aggregates = std::move(aggregate_.aggregates);
      aggregate_op->grouping_sets = std::move(grouping_sets_);
      Push(std::move(aggregate_op));
      if (having_) {
        auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
        SplitConjunctions(std::move(having_), filter->expressions);
        Push(std::move(filter));
      }
    }
    if (!window_.windows.empty()) {
      auto window = std::make_unique<LogicalOperator>(LogicalOperatorType::WINDOW);
      window->table_index = window_.window_index;
      window->expressions = std::move(window_.inputs);
      window->windows = std::move(window_.windows);
      Push(std::move(window));
    }
    if (qualify_) {
      auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
      SplitConjunctions(std::move(qualify_), filter->expressions);
      Push(std::move(filter));
    }
    std::vector<LogicalType> types;
    types.reserve(projections_.size());
    for (auto& p : projections_) types.push_back(p->return_type);
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    projection->table_index = binder_.NextTableIndex();
    for (idx_t i = 0; i < projections_.size() && i < names_.size(); i++) projections_[i]->name = names_[i];
    projection->expressions = std::move(projections_);
    idx_t projection_index = projection->table_index;
    Push(std::move(projection));
    if (node_.distinct) {
      auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
      distinct->table_index = binder_.NextTableIndex();
      distinct->aggregate_index = binder_.NextTableIndex();
      for (idx_t i = 0; i < types.size(); i++) distinct->expressions.push_back(MakeBindingRef({projection_index, i}, types[i], names_[i]));
      projection_index = distinct->table_index;
      Push(std::move(distinct));
    }
    AddOrderLimitAndFinalProjection(projection_index, types);
    BoundQuery result;
    result.plan = std::move(plan_);
    result.names = std::move(names_);
    result.types = std::move(types);
    return result;
  }

  // ORDER BY and LIMIT over the projection, then the projection of the
  // visible columns when ORDER BY added hidden ones (`types` shrinks to them).
  void AddOrderLimitAndFinalProjection(idx_t projection_index, std::vector<LogicalType>& types) {
    if (!order_targets_.empty()) {
      auto order = std::make_unique<LogicalOperator>(LogicalOperatorType::ORDER);
      for (auto& t : order_targets_) {
        BoundOrder bo;
        bo.expression = MakeBindingRef({projection_index, t.column}, types[t.column]);
        bo.descending = t.descending;
        bo.nulls_first = t.nulls_first;
        order->orders.push_back(std::move(bo));
      }
      Push(std::move(order));
    }
    if (node_.limit || node_.offset) plan_ = BindLimit(binder_, node_, std::move(plan_));
    if (types.size() > visible_) {
      auto final_projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
      final_projection->table_index = binder_.NextTableIndex();
      for (idx_t i = 0; i < visible_; i++) {
        final_projection->expressions.push_back(MakeBindingRef({projection_index, i}, types[i], names_[i]));
      }
      Push(std::move(final_projection));
      types.resize(visible_);
    }
  }

  Binder& binder_;
  const QueryNode& node_;
  BindContext scope_;
  LogicalOperatorPtr plan_;
  std::vector<SelectItem> items_;
  AggregateBindState aggregate_;
  AggregateBindState* agg_ = nullptr;  // &aggregate_ in an aggregate query
  std::vector<std::vector<idx_t>> grouping_sets_;
  std::vector<BoundExprPtr> projections_;  // the select list, then hidden ORDER BY columns
  std::vector<std::string> names_;
  BoundExprPtr having_;
  WindowBindState window_;
  BoundExprPtr qualify_;
  std::vector<OrderTarget> order_targets_;
  idx_t visible_ = 0;  // the select list's width
};

BoundQuery Binder::BindSelectNode(const QueryNode& node) {
  auto rewritten = RewriteGenerators(node);  // explode(...) in the SELECT list (bind_unnest.cpp)
  BoundQuery bound = SelectNodeBinder(*this, rewritten ? *rewritten : node).Bind();
  PlanSubqueries(*this, bound.plan);  // subqueries used as values that need a join become one
  return bound;
}

}  // namespace lakestream
