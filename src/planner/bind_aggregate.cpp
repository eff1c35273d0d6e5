// Binding of aggregate calls: arguments, bind-time constants (a quantile's
// fraction, string_agg's separator), FILTER (WHERE ...), ORDER BY inside
// the call, WITHIN GROUP (ORDER BY ...) and grouping()/grouping_id().
//
// sum(x + c), sum(c + x) and sum(x - c) of an integer x and an integer
// literal c bind as sum(x) + c * count(x) (sum(x) - c * count(x)): one pass
// of sum(x) and count(x) serves every offset, as ClickBench's Q29 has 90 of
// them. Same type (BIGINT), same NULL for an empty or all-NULL group, same
// total (only a per-row overflow of x + c no longer fails).
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"

namespace lakestream {

static bool IsOrderedSetQuantile(const std::string& name) {
  return name == "percentile_cont" || name == "percentile_disc" || name == "quantile_cont" ||
         name == "quantile_disc" || name == "median";
}

namespace {

bool IsIntegerLiteral(const ParsedExpression& e) {
  return e.type == ExpressionType::CONSTANT && !e.value.IsNull() &&
         (e.value.type().id() == TypeId::INTEGER || e.value.type().id() == TypeId::BIGINT);
}

// Subqueries are bound once per occurrence; x is bound twice here.
bool HasSubquery(const ParsedExpression& e) {
  if (e.subquery) return true;
  for (const auto& c : e.children) {
    if (HasSubquery(*c)) return true;
  }
  return false;
}

ExprPtr Call(const char* name, const ParsedExpression& argument) {
  auto call = std::make_unique<ParsedExpression>(ExpressionType::FUNCTION, argument.location);
  call->function_name = name;
  call->children.push_back(argument.Copy());
  call->arg_names.emplace_back();
  return call;
}

ExprPtr Binary(ExpressionType type, ExprPtr left, ExprPtr right) {
  auto e = std::make_unique<ParsedExpression>(type, left->location);
  e->children.push_back(std::move(left));
  e->children.push_back(std::move(right));
  return e;
}

}  // namespace

// sum(x + c) as sum(x) + c * count(x) (the comment at the top), or nullptr.
ExprPtr Binder::SumOfOffset(const ParsedExpression& expr, const BindContext& scope) {
  if (!StringUtil::CIEquals(expr.function_name, "sum") || expr.distinct || expr.has_filter || expr.order_count > 0 ||
      expr.within_group || expr.star_argument || expr.window || expr.children.size() != 1) {
    return nullptr;
  }
  const ParsedExpression& arg = *expr.children[0];
  if ((arg.type != ExpressionType::ADD && arg.type != ExpressionType::SUBTRACT) || arg.children.size() != 2) return nullptr;
  int constant_at = IsIntegerLiteral(*arg.children[1]) ? 1 : -1;
  if (constant_at < 0 && arg.type == ExpressionType::ADD && IsIntegerLiteral(*arg.children[0])) constant_at = 0;
  if (constant_at < 0) return nullptr;
  const ParsedExpression& x = *arg.children[1 - constant_at];
  if (x.type == ExpressionType::CONSTANT || HasSubquery(x)) return nullptr;
  TypeId x_type = Bind(x, scope, nullptr, "an aggregate function's argument (aggregates cannot be nested)")->return_type.id();
  if (x_type != TypeId::INTEGER && x_type != TypeId::BIGINT) return nullptr;
  ExprPtr offset = Binary(ExpressionType::MULTIPLY, arg.children[constant_at]->Copy(), Call("count", x));
  return Binary(arg.type, Call("sum", x), std::move(offset));
}

BoundExprPtr Binder::BindAggregateCall(const ParsedExpression& expr, const BindContext& scope,
                                       AggregateBindState& aggregate) {
  if (ExprPtr rewritten = SumOfOffset(expr, scope)) return Bind(*rewritten, scope, &aggregate, "the SELECT list");
  std::string name = StringUtil::Lower(expr.function_name);
  std::string key = scope.ExpressionKey(expr);
  for (idx_t i = 0; i < aggregate.aggregate_strings.size(); i++) {
    if (aggregate.aggregate_strings[i] == key) {
      return MakeBindingRef({aggregate.aggregate_index, i}, aggregate.aggregates[i].signature.return_type,
                            expr.ToString());
    }
  }
  const char* nested = "an aggregate function's argument (aggregates cannot be nested)";
  size_t argument_count = expr.ArgumentCount();
  BoundAggregate bound;
  if (name == "grouping" || name == "grouping_id") {
    if (expr.order_count > 0 || expr.has_filter || expr.distinct) {
      throw BinderError(name + "() takes GROUP BY expressions only, without DISTINCT, ORDER BY or FILTER");
    }
    if (name == "grouping" && argument_count != 1) {
      throw BinderError("grouping() takes exactly one GROUP BY expression; use grouping_id(a, b, ...) for several");
    }
    for (size_t i = 0; i < argument_count; i++) {
      const ParsedExpression& arg = *expr.children[i];
      std::string arg_key = scope.ExpressionKey(arg);
      if (arg.type == ExpressionType::COLUMN_REF && arg.names.size() == 1 && !scope.Resolve(arg.names, true)) {
        for (auto& [alias, alias_key] : aggregate.select_aliases) {
          if (StringUtil::CIEquals(alias, arg.names[0])) arg_key = alias_key;
        }
      }
      idx_t g = 0;
      while (g < aggregate.group_strings.size() && aggregate.group_strings[g] != arg_key) g++;
      if (g == aggregate.group_strings.size()) {
        throw BinderError(name + "(): " + expr.children[i]->ToString() +
                          " is not a GROUP BY expression; its arguments must be expressions of GROUP BY");
      }
      bound.grouping_columns.push_back(g);
    }
    if (argument_count == 0) {
      for (idx_t g = 0; g < aggregate.groups.size(); g++) bound.grouping_columns.push_back(g);
    }
    if (bound.grouping_columns.size() > 63) throw BinderError(name + "() takes at most 63 expressions");
    bound.signature = AggregateSignature{AggregateKind::GROUPING, name, LogicalType(), TypeId::BIGINT};
  } else {
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < argument_count; i++) {
      const auto& c = expr.children[i];
      if (c->type == ExpressionType::STAR) continue;  // count(*) spelled with a STAR child
      args.push_back(Bind(*c, scope, nullptr, nested));
    }
    // Order keys: real keys, or for percentile_cont(p) WITHIN GROUP (ORDER BY x) the value x.
    std::vector<BoundExprPtr> keys;
    for (uint32_t k = 0; k < expr.order_count; k++) {
      keys.push_back(Bind(*expr.children[argument_count + k], scope, nullptr, nested));
    }
    bool descending_quantile = false;
    if (expr.within_group && IsOrderedSetQuantile(name)) {
      if (keys.size() != 1 || args.size() != (name == "median" ? 0 : 1)) {
        throw BinderError(name + "(fraction) WITHIN GROUP (ORDER BY x) takes one fraction and one ORDER BY expression");
      }
      descending_quantile = (expr.order_flags[0] & ParsedExpression::kOrderDesc) != 0;
      args.insert(args.begin(), std::move(keys[0]));
      keys.clear();
    } else if (expr.within_group && name != "listagg" && name != "string_agg" && name != "array_agg" &&
               name != "collect_list") {
      throw BinderError("WITHIN GROUP (ORDER BY ...) applies to percentile_cont, percentile_disc, listagg and "
                        "string_agg, not to " + name + "()");
    }
    std::vector<LogicalType> types;
    std::vector<std::optional<Value>> constants;
    for (auto& a : args) {
      types.push_back(a->return_type);
      BoundExprPtr folded = a->IsFoldable() ? FoldNow(a->Copy()) : nullptr;
      constants.push_back(folded && folded->IsConstant() ? std::optional<Value>(folded->value) : std::nullopt);
    }
    bool star = expr.star_argument || (args.empty() && name == "count");
    bound.signature = BindAggregate(name, types, constants, expr.distinct, star);
    bound.signature.descending = descending_quantile;
    if (!args.empty() && bound.signature.kind != AggregateKind::COUNT_STAR) {
      bound.argument = AddCast(std::move(args[0]), bound.signature.input_type);
    }
    if (bound.signature.second_type.id() != TypeId::INVALID) {
      bound.second = AddCast(std::move(args[1]), bound.signature.second_type);
    }
    // ORDER BY matters only to order-sensitive aggregates; elsewhere it is
    // accepted and has no effect (as in DuckDB and Postgres).
    if (bound.signature.OrderSensitive()) {
      for (idx_t k = 0; k < keys.size(); k++) {
        uint8_t flags = expr.order_flags[k];
        bound.order.push_back({keys[k]->return_type, (flags & ParsedExpression::kOrderDesc) != 0,
                               (flags & ParsedExpression::kOrderNullsFirst) != 0});
        bound.order_keys.push_back(std::move(keys[k]));
      }
    }
    if (expr.has_filter) {
      auto filter = Bind(*expr.children.back(), scope, nullptr, "FILTER (WHERE ...) of an aggregate");
      if (filter->return_type.id() == TypeId::SQLNULL) filter = AddCast(std::move(filter), TypeId::BOOLEAN);
      if (filter->return_type.id() != TypeId::BOOLEAN) {
        throw BinderError("FILTER (WHERE ...) of " + name + "() must be a BOOLEAN condition, but " +
                          expr.children.back()->ToString() + " is " + filter->return_type.ToString());
      }
      bound.filter = std::move(filter);
    }
  }
  idx_t index = aggregate.aggregates.size();
  LogicalType type = bound.signature.return_type;
  aggregate.aggregates.push_back(std::move(bound));
  aggregate.aggregate_strings.push_back(key);
  return MakeBindingRef({aggregate.aggregate_index, index}, type, expr.ToString());
}

}  // namespace lakestream
