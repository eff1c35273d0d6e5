#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "common/string_util.hpp"
#include "expression/expression_executor.hpp"
#include "function/aggregate_function.hpp"
#include "function/scalar/user_function.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "planner/binder.hpp"
#include "catalog/catalog.hpp"

namespace lakestream {

// x op ANY|ALL (subquery): a comparison whose right side is the quantified subquery.
static bool IsQuantified(const ParsedExpression& expr) {
  return expr.children.size() == 2 && expr.children[1] &&
         (expr.children[1]->type == ExpressionType::SUBQUERY_ANY || expr.children[1]->type == ExpressionType::SUBQUERY_ALL);
}

static bool IsOrderComparison(ExpressionType type) {
  return type == ExpressionType::COMPARE_EQ || type == ExpressionType::COMPARE_NE || type == ExpressionType::COMPARE_LT ||
         type == ExpressionType::COMPARE_LE || type == ExpressionType::COMPARE_GT || type == ExpressionType::COMPARE_GE;
}

// x op ANY (a list or an array) parses as a call of the any()/some()
// aggregate (bool_or): refused by name unless it is that aggregate over one
// BOOLEAN.
void Binder::CheckAnyOverValues(const ParsedExpression& expr, const BindContext& scope, const char* clause) {
  const ParsedExpression& right = *expr.children[1];
  if (right.type != ExpressionType::FUNCTION || right.window || right.distinct || right.star_argument) return;
  if (!StringUtil::CIEquals(right.function_name, "any") && !StringUtil::CIEquals(right.function_name, "some")) return;
  bool values = right.ArgumentCount() != 1;
  if (!values) {
    try {
      values = Bind(*right.children[0], scope, nullptr, clause)->return_type.id() == TypeId::LIST;
    } catch (const Exception&) {
      return;  // binding the call says what is wrong
    }
  }
  if (values) {
    throw NotImplementedError("a comparison with ANY/SOME over a list or an array (" + expr.ToString() +
                              "); write x IN (...), array_contains(arr, x), exists(arr, e -> x < e), or "
                              "ANY (SELECT ...)");
  }
}

// The comparison that is true exactly when `type` is false (NULL stays NULL).
static ExpressionType NegateComparison(ExpressionType type) {
  switch (type) {
    case ExpressionType::COMPARE_EQ: return ExpressionType::COMPARE_NE;
    case ExpressionType::COMPARE_NE: return ExpressionType::COMPARE_EQ;
    case ExpressionType::COMPARE_LT: return ExpressionType::COMPARE_GE;
    case ExpressionType::COMPARE_LE: return ExpressionType::COMPARE_GT;
    case ExpressionType::COMPARE_GT: return ExpressionType::COMPARE_LE;
    case ExpressionType::COMPARE_GE: return ExpressionType::COMPARE_LT;
    default: throw InternalError("not a comparison operator for ALL (subquery)");
  }
}

// The SubqueryKind of x <type> ANY (subquery), type not COMPARE_EQ (that is IN).
static SubqueryKind AnyKind(ExpressionType type) {
  switch (type) {
    case ExpressionType::COMPARE_NE: return SubqueryKind::ANY_NE;
    case ExpressionType::COMPARE_LT: return SubqueryKind::ANY_LT;
    case ExpressionType::COMPARE_LE: return SubqueryKind::ANY_LE;
    case ExpressionType::COMPARE_GT: return SubqueryKind::ANY_GT;
    case ExpressionType::COMPARE_GE: return SubqueryKind::ANY_GE;
    default: throw BinderError("ANY / ALL (subquery) follows one of =, <>, <, <=, >, >=");
  }
}

static const char* OperatorFunctionName(ExpressionType type) {
  switch (type) {
    case ExpressionType::COMPARE_EQ: return "=";
    case ExpressionType::COMPARE_NE: return "<>";
    case ExpressionType::COMPARE_LT: return "<";
    case ExpressionType::COMPARE_LE: return "<=";
    case ExpressionType::COMPARE_GT: return ">";
    case ExpressionType::COMPARE_GE: return ">=";
    case ExpressionType::COMPARE_DISTINCT_FROM: return "is_distinct_from";
    case ExpressionType::COMPARE_NOT_DISTINCT_FROM: return "is_not_distinct_from";
    case ExpressionType::ADD: return "+";
    case ExpressionType::SUBTRACT: return "-";
    case ExpressionType::MULTIPLY: return "*";
    case ExpressionType::DIVIDE: return "/";
    case ExpressionType::MODULO: return "%";
    case ExpressionType::CONCAT: return "||";
    case ExpressionType::NEGATE: return "negate";
    case ExpressionType::LIKE: return "like";
    case ExpressionType::NOT_LIKE: return "not_like";
    case ExpressionType::ILIKE: return "ilike";
    case ExpressionType::NOT_ILIKE: return "not_ilike";
    default: return nullptr;
  }
}

// A constant, or a scalar subquery (a constant once the plan runs: it used to
// be run while binding, so it takes part in the same literal coercions).
static bool IsLiteralLike(const BoundExpression& e) {
  return e.IsConstant() || (e.type == BoundExpressionType::SUBQUERY && e.subquery_kind == SubqueryKind::SCALAR);
}

BoundExprPtr Binder::FoldConstant(BoundExprPtr expr) {
  if (expr->type == BoundExpressionType::CONSTANT || !expr->IsFoldable()) return expr;
  FunctionContext fctx;
  fctx.statement_start = context_.StatementStart();
  ExpressionExecutor executor(fctx);
  auto name = expr->name;
  Value value;
  try {
    value = executor.EvaluateConstant(*expr);
  } catch (const ConversionError&) {
    // An overflow or a bad cast may sit in a branch no row takes (CASE WHEN
    // false THEN 2147483647 * 2 ...): left unfolded, it raises only if a row
    // reaches it when the plan runs.
    return expr;
  } catch (const InvalidInputError&) {
    return expr;  // the same for bad function input (split_part(s, ',', 0))
  }
  auto folded = MakeConstant(std::move(value));
  folded->name = name;
  return folded;
}

BoundExprPtr Binder::FoldNow(BoundExprPtr expr) {
  if (expr->type == BoundExpressionType::CONSTANT || !expr->IsFoldable()) return expr;
  FunctionContext fctx;
  fctx.statement_start = context_.StatementStart();
  ExpressionExecutor executor(fctx);
  auto name = expr->name;
  auto folded = MakeConstant(executor.EvaluateConstant(*expr));
  folded->name = name;
  return folded;
}

BoundExprPtr Binder::ResolveColumn(const std::vector<std::string>& names, const BindContext& scope) {
  if (auto ref = scope.Resolve(names, true)) return ref;
  for (Binder* b = this; b; b = b->parent_) {
    if (!b->outer_scope_) continue;
    // Ambiguous there throws, naming the column, as it would in that query.
    if (auto outer = b->outer_scope_->Resolve(names, true)) {
      // A correlated reference: every query from here out to b reads an
      // outer column (planner/subquery/ turns them into joins).
      for (Binder* c = this; c; c = c->parent_) {
        c->correlated_ = true;
        if (c == b) break;
      }
      return outer;
    }
  }
  return scope.Resolve(names);  // throws the usual "not found" error with hints
}

BoundExprPtr Binder::BindOperator(const std::string& name, std::vector<BoundExprPtr> children, uint32_t location,
                                  const std::vector<std::string>* argument_names) {
  // A string literal next to a typed value takes that value's type (id = '3', d > '2024-01-01').
  static const char* kCoercing[] = {"=", "<>", "!=", "<", "<=", ">", ">=", "is_distinct_from", "is_not_distinct_from",
                                    "+", "-", "*", "/", "%"};
  bool coercing = false;
  for (const char* op : kCoercing) coercing |= name == op;
  if (coercing && children.size() == 2) {
    for (int side = 0; side < 2; side++) {
      auto& lit = children[side];
      auto& other = children[1 - side];
      if (IsLiteralLike(*lit) && lit->return_type.id() == TypeId::VARCHAR && other->return_type.id() != TypeId::VARCHAR &&
          other->return_type.id() != TypeId::SQLNULL) {
        lit = AddCast(std::move(lit), other->return_type);
      }
    }
  }
  std::vector<LogicalType> types;
  std::vector<const Value*> constants;
  std::vector<std::string> names;
  for (idx_t i = 0; i < children.size(); i++) {
    auto& c = children[i];
    types.push_back(c->return_type);
    constants.push_back(c->IsConstant() ? &c->value : nullptr);
    names.push_back(argument_names ? (*argument_names)[i] : c->name);
  }
  BoundScalarFunction fn = ScalarFunctionRegistry::Get().Bind(name, types, constants, names);
  auto expr = std::make_unique<BoundExpression>(BoundExpressionType::FUNCTION, fn.return_type);
  for (idx_t i = 0; i < children.size(); i++) {
    LogicalType target = i < fn.argument_types.size() ? fn.argument_types[i] : children[i]->return_type;
    expr->children.push_back(AddCast(std::move(children[i]), target));
  }
  expr->function = std::move(fn);
  return FoldConstant(std::move(expr));
}

BoundExprPtr Binder::BindExpression(const ParsedExpression& expr, const BindContext& scope, const char* clause) {
  return Bind(expr, scope, nullptr, clause);
}

static BoundExprPtr MakeBoolean(BoundExpressionType type, std::vector<BoundExprPtr> children) {
  auto e = std::make_unique<BoundExpression>(type, TypeId::BOOLEAN);
  e->children = std::move(children);
  return e;
}

// Generated SQL often spells a list as `x = 1 OR x = 2 OR ...` with
// thousands of terms; bound as x IN (1, 2, ...) it is one node probed by
// binary search rather than a comparison (and its scratch vectors) per term.
// Null when `operands` is not such a list.
static BoundExprPtr EqualityListAsInList(std::vector<BoundExprPtr>& operands) {
  if (operands.size() < 3) return nullptr;
  const BoundExpression* probe = nullptr;
  for (auto& e : operands) {
    if (e->type != BoundExpressionType::FUNCTION || e->function.name != "=" || e->children.size() != 2) return nullptr;
    const BoundExpression& column = *e->children[0];
    const BoundExpression& constant = *e->children[1];
    if (column.type != BoundExpressionType::COLUMN_REF || !constant.IsConstant()) return nullptr;
    if (!(constant.return_type == column.return_type)) return nullptr;
    if (!probe) {
      probe = &column;
    } else if (!(column.binding == probe->binding) || column.column_index != probe->column_index ||
               !(column.return_type == probe->return_type)) {
      return nullptr;
    }
  }
  auto in_list = std::make_unique<BoundExpression>(BoundExpressionType::IN_LIST, TypeId::BOOLEAN);
  in_list->children.push_back(std::move(operands[0]->children[0]));
  for (auto& e : operands) in_list->children.push_back(std::move(e->children[1]));
  return in_list;
}

static BoundExprPtr RequireBoolean(BoundExprPtr e, const char* what) {
  if (e->return_type.id() == TypeId::BOOLEAN) return e;
  if (e->return_type.id() == TypeId::SQLNULL) return AddCast(std::move(e), TypeId::BOOLEAN);
  throw BinderError(std::string(what) + " must be a BOOLEAN expression, but " + e->ToString() + " is " +
                    e->return_type.ToString() + "; compare it with something, e.g. " + e->ToString() + " > 0");
}

BoundExprPtr Binder::Bind(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                          const char* clause) {
  if (StackNearlyExhausted()) throw BinderError(NestedTooDeeplyMessage(std::string("an expression in ") + (clause ? clause : "the statement") + " is too deep"));
  if (aggregate) {
    // An expression that is a GROUP BY expression reads the group column,
    // however its columns are qualified (tab1.col0 for GROUP BY col0).
    std::string key = scope.ExpressionKey(expr);
    for (idx_t g = 0; g < aggregate->group_strings.size(); g++) {
      if (aggregate->group_strings[g] == key) {
        auto ref = MakeBindingRef({aggregate->group_index, g}, aggregate->groups[g]->return_type, expr.ToString());
        if (expr.type == ExpressionType::COLUMN_REF) ref->name = expr.names.back();
        return ref;
      }
    }
  }
  auto bind_child = [&](const ParsedExpression& child) { return Bind(child, scope, aggregate, clause); };
  switch (expr.type) {
    case ExpressionType::CONSTANT: {
      auto c = MakeConstant(expr.value);
      c->name = expr.ToString();
      return c;
    }
    case ExpressionType::COLUMN_REF: {
      if (auto nested = BindNestedColumn(expr, scope, aggregate, clause)) return nested;
      auto ref = ResolveColumn(expr.names, scope);
      // A column of an outer query is one value per group (per outer row):
      // only this query's own columns must be grouped.
      if (aggregate && scope.Resolve(expr.names, true)) {
        throw BinderError("column \"" + StringUtil::Join(expr.names, ".") +
                          "\" must appear in the GROUP BY clause or be used in an aggregate function "
                          "(e.g. add it to GROUP BY, or use any_value(" + expr.names.back() + "))");
      }
      return ref;
    }
    case ExpressionType::STAR:
      throw BinderError("* can only be used in the SELECT list or inside count(*)");
    case ExpressionType::FIELD_ACCESS: {
      auto e = BindFieldAccess(bind_child(*expr.children[0]), expr.names[0]);
      e->name = expr.names[0];
      return e;
    }
    case ExpressionType::SUBSCRIPT: {
      std::vector<BoundExprPtr> children;
      for (auto& c : expr.children) children.push_back(bind_child(*c));
      auto e = BindOperator("subscript", std::move(children), expr.location);
      e->name = expr.ToString();
      return e;
    }
    case ExpressionType::LAMBDA:
      throw BinderError("a lambda (" + expr.ToString() + ") can only be an argument of transform, filter, exists, "
                        "forall, aggregate, transform_values, transform_keys or map_filter");
    case ExpressionType::FUNCTION: return BindFunction(expr, scope, aggregate, clause);
    case ExpressionType::CAST: {
      auto child = bind_child(*expr.children[0]);
      if (!CastIsPossible(child->return_type, expr.cast_type)) {
        throw BinderError("Cannot cast " + child->ToString() + " of type " + child->return_type.ToString() + " to " +
                          expr.cast_type.ToString() + ": no conversion exists");
      }
      auto cast = AddCast(std::move(child), expr.cast_type, expr.try_cast, true);
      cast->name = expr.ToString();
      return cast;
    }
    case ExpressionType::CASE: return BindCase(expr, scope, aggregate, clause);
    case ExpressionType::AND:
    case ExpressionType::OR: {
      std::vector<BoundExprPtr> children;
      for (auto& c : expr.children) children.push_back(RequireBoolean(bind_child(*c), expr.type == ExpressionType::AND ? "AND operand" : "OR operand"));
      BoundExprPtr e = expr.type == ExpressionType::OR ? EqualityListAsInList(children) : nullptr;
      if (!e) {
        e = MakeBoolean(expr.type == ExpressionType::AND ? BoundExpressionType::AND : BoundExpressionType::OR,
                        std::move(children));
      }
      e->name = expr.ToString();
      return FoldConstant(std::move(e));
    }
    case ExpressionType::NOT: {
      std::vector<BoundExprPtr> children;
      children.push_back(RequireBoolean(bind_child(*expr.children[0]), "NOT operand"));
      auto e = MakeBoolean(BoundExpressionType::NOT, std::move(children));
      e->name = expr.ToString();
      return FoldConstant(std::move(e));
    }
    case ExpressionType::IS_NULL:
    case ExpressionType::IS_NOT_NULL: {
      std::vector<BoundExprPtr> children;
      children.push_back(bind_child(*expr.children[0]));
      auto e = MakeBoolean(expr.type == ExpressionType::IS_NULL ? BoundExpressionType::IS_NULL : BoundExpressionType::IS_NOT_NULL,
                           std::move(children));
      e->name = expr.ToString();
      return FoldConstant(std::move(e));
    }
    case ExpressionType::IS_TRUE:
    case ExpressionType::IS_FALSE:
    case ExpressionType::IS_NOT_TRUE:
    case ExpressionType::IS_NOT_FALSE: {
      bool want = expr.type == ExpressionType::IS_TRUE || expr.type == ExpressionType::IS_NOT_TRUE;
      bool negated = expr.type == ExpressionType::IS_NOT_TRUE || expr.type == ExpressionType::IS_NOT_FALSE;
      std::vector<BoundExprPtr> children;
      children.push_back(RequireBoolean(bind_child(*expr.children[0]), "IS TRUE/FALSE operand"));
      children.push_back(MakeConstant(Value::BOOLEAN(want)));
      auto e = BindOperator(negated ? "is_distinct_from" : "is_not_distinct_from", std::move(children), expr.location);
      e->name = expr.ToString();
      return e;
    }
    case ExpressionType::IN_LIST:
    case ExpressionType::NOT_IN_LIST: {
      std::vector<BoundExprPtr> children;
      LogicalType common = TypeId::SQLNULL;
      for (auto& c : expr.children) {
        children.push_back(bind_child(*c));
      }
      // String literals in the list take the probe's type.
      for (idx_t i = 1; i < children.size(); i++) {
        if (IsLiteralLike(*children[i]) && children[i]->return_type.id() == TypeId::VARCHAR &&
            children[0]->return_type.id() != TypeId::VARCHAR && children[0]->return_type.id() != TypeId::SQLNULL) {
          children[i] = AddCast(std::move(children[i]), children[0]->return_type);
        }
      }
      for (auto& c : children) {
        LogicalType next = MaxLogicalType(common, c->return_type);
        if (next.id() == TypeId::INVALID) {
          throw BinderError("Cannot compare " + children[0]->return_type.ToString() + " with " + c->return_type.ToString() +
                            " in IN list " + expr.ToString() + "; cast one side explicitly");
        }
        common = next;
      }
      auto e = std::make_unique<BoundExpression>(BoundExpressionType::IN_LIST, TypeId::BOOLEAN);
      for (auto& c : children) e->children.push_back(AddCast(std::move(c), common));
      e->negated = expr.type == ExpressionType::NOT_IN_LIST;
      e->name = expr.ToString();
      return FoldConstant(std::move(e));
    }
    case ExpressionType::BETWEEN:
    case ExpressionType::NOT_BETWEEN: {
      std::vector<BoundExprPtr> low, high;
      low.push_back(bind_child(*expr.children[0]));
      low.push_back(bind_child(*expr.children[1]));
      high.push_back(bind_child(*expr.children[0]));
      high.push_back(bind_child(*expr.children[2]));
      std::vector<BoundExprPtr> both;
      both.push_back(BindOperator(">=", std::move(low), expr.location));
      both.push_back(BindOperator("<=", std::move(high), expr.location));
      auto e = MakeBoolean(BoundExpressionType::AND, std::move(both));
      if (expr.type == ExpressionType::NOT_BETWEEN) {
        std::vector<BoundExprPtr> inner;
        inner.push_back(std::move(e));
        e = MakeBoolean(BoundExpressionType::NOT, std::move(inner));
      }
      e->name = expr.ToString();
      return FoldConstant(std::move(e));
    }
    case ExpressionType::SUBQUERY_SCALAR:
    case ExpressionType::SUBQUERY_IN:
    case ExpressionType::SUBQUERY_NOT_IN:
    case ExpressionType::SUBQUERY_EXISTS:
    case ExpressionType::SUBQUERY_NOT_EXISTS: return BindSubquery(expr, scope, aggregate, clause);
    default: break;
  }
  if (IsQuantified(expr)) return BindSubquery(expr, scope, aggregate, clause);
  if (IsOrderComparison(expr.type) && expr.children.size() == 2) CheckAnyOverValues(expr, scope, clause);
  const char* op = OperatorFunctionName(expr.type);
  if (!op) throw NotImplementedError(std::string("expression type ") + ExpressionTypeToString(expr.type));
  std::vector<BoundExprPtr> children;
  for (auto& c : expr.children) children.push_back(bind_child(*c));
  auto e = BindOperator(op, std::move(children), expr.location);
  e->name = expr.ToString();
  return e;
}

BoundExprPtr Binder::BindCase(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                              const char* clause) {
  std::vector<BoundExprPtr> conditions, results;
  size_t n = expr.children.size();
  size_t pairs = expr.has_else ? (n - 1) / 2 : n / 2;
  for (size_t i = 0; i < pairs; i++) {
    conditions.push_back(RequireBoolean(Bind(*expr.children[2 * i], scope, aggregate, clause), "CASE WHEN condition"));
    results.push_back(Bind(*expr.children[2 * i + 1], scope, aggregate, clause));
  }
  BoundExprPtr else_expr = expr.has_else ? Bind(*expr.children.back(), scope, aggregate, clause) : MakeConstant(Value());
  LogicalType type = else_expr->return_type;
  for (auto& r : results) {
    LogicalType next = MaxLogicalType(type, r->return_type);
    if (next.id() == TypeId::INVALID) {
      throw BinderError("CASE branches have incompatible types " + type.ToString() + " and " + r->return_type.ToString() +
                        " in " + expr.ToString() + "; CAST one branch to the other's type");
    }
    type = next;
  }
  if (type.id() == TypeId::SQLNULL) type = TypeId::INTEGER;
  auto e = std::make_unique<BoundExpression>(BoundExpressionType::CASE, type);
  for (size_t i = 0; i < pairs; i++) {
    e->children.push_back(std::move(conditions[i]));
    e->children.push_back(AddCast(std::move(results[i]), type));
  }
  e->children.push_back(AddCast(std::move(else_expr), type));
  e->name = expr.ToString();
  return FoldConstant(std::move(e));
}

// stream_has_data('s') / SYSTEM$STREAM_HAS_DATA('s'): the stream is named
// here (a constant; LIVE.s in pipelines), its log is looked at when the
// expression runs (function/scalar/stream.cpp).
BoundExprPtr Binder::BindStreamHasData(const ParsedExpression& expr) {
  BindContext empty;
  if (expr.children.size() != 1) {
    throw BinderError(expr.function_name + "() takes one argument, the stream's name: " + expr.function_name + "('orders_stream')");
  }
  auto argument = Bind(*expr.children[0], empty, nullptr, "the argument of stream_has_data()");
  if (!argument->IsConstant() || argument->return_type.id() != TypeId::VARCHAR || argument->value.IsNull()) {
    throw BinderError(expr.function_name + "() takes the stream's name as a string constant, e.g. " + expr.function_name +
                      "('orders_stream')");
  }
  std::string stream_name = ResolveObjectName(context_, argument->value.GetString());  // 's', 'LIVE.s', 'sch.s'
  // A missing stream is a binding error, as for FROM s.
  StreamCatalogEntry& stream = context_.GetCatalog().GetStream(stream_name);
  std::vector<BoundExprPtr> children;
  children.push_back(MakeConstant(Value(stream.name)));
  auto e = BindOperator("stream_has_data", std::move(children), expr.location);
  e->name = expr.ToString();
  return e;
}

BoundExprPtr Binder::BindFunction(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                                  const char* clause) {
  std::string name = StringUtil::Lower(expr.function_name);
  if (expr.window) return BindWindow(expr, scope, aggregate, clause);
  WindowKind window_kind;
  if (LookupWindowFunction(name, window_kind)) {
    throw BinderError(name + "() is a window function and needs an OVER clause, e.g. " + name +
                      "(...) OVER (PARTITION BY ... ORDER BY ...)");
  }
  if (expr.ignore_nulls) {
    throw BinderError("IGNORE NULLS applies to window functions (first_value, last_value, nth_value, lag, lead) with "
                      "an OVER clause: " + expr.ToString());
  }
  if (name == "stream_has_data" || name == "system$stream_has_data") return BindStreamHasData(expr);
  if ((name == "current_schema" || name == "current_database" || name == "current_catalog") && expr.children.empty()) {
    auto e = MakeConstant(Value(name == "current_schema" ? CurrentSchema(context_) : DatabaseName(context_.Database())));
    e->name = expr.ToString();
    return e;
  }
  for (auto& c : expr.children) {
    if (c->type == ExpressionType::LAMBDA) return BindLambdaFunction(name, expr, scope, aggregate, clause);
  }
  if (IsGeneratorFunction(name) || name == "unnest") {
    throw BinderError(name + "() makes rows, not a value: use it alone as an item of the SELECT list (SELECT " + name +
                      "(arr) AS x FROM t) or as UNNEST(arr) in FROM (FROM t CROSS JOIN UNNEST(t.arr) AS u(x))");
  }
  if (IsAggregateFunction(name)) {
    if (!aggregate) {
      throw BinderError(std::string("aggregate function ") + name + "() is not allowed in " + clause +
                        (std::string(clause) == "WHERE" ? "; filter groups with HAVING instead" : ""));
    }
    WindowBindState* windows = window_state_;
    window_state_ = nullptr;  // sum(row_number() OVER ()) is refused as well
    struct Restore {
      Binder& b;
      WindowBindState* s;
      ~Restore() { b.window_state_ = s; }
    } restore{*this, windows};
    return BindAggregateCall(expr, scope, *aggregate);
  }
  if (expr.order_count > 0 || expr.has_filter) {
    throw BinderError(std::string(expr.has_filter ? "FILTER (WHERE ...)" : "ORDER BY inside a call") +
                      " applies to aggregate functions, and " + name + "() is not one; use CASE WHEN instead");
  }
  std::vector<BoundExprPtr> children;
  // Field names for struct(): a column's name or an alias; "" lets the function pick colN.
  std::vector<std::string> argument_names;
  for (auto& c : expr.children) {
    if (c->type == ExpressionType::STAR) {
      // struct(*) packs every column of the FROM clause.
      for (auto& [col_name, ref] : scope.ExpandStar(c->names)) {
        argument_names.push_back(col_name);
        children.push_back(std::move(ref));
      }
      continue;
    }
    auto child = Bind(*c, scope, aggregate, clause);
    std::string field;
    if (c->type == ExpressionType::COLUMN_REF) field = c->names.back();
    if (!c->alias.empty()) field = c->alias;
    argument_names.push_back(field);
    children.push_back(std::move(child));
  }
  if (expr.star_argument && name != "count") {
    for (auto& [col_name, ref] : scope.ExpandStar({})) {
      argument_names.push_back(col_name);
      children.push_back(std::move(ref));
    }
  }
  if (!ScalarFunctionRegistry::Get().Exists(name)) {
    auto user = context_.user_functions.find(name);
    if (user != context_.user_functions.end()) {
      auto e = BindUserFunctionCall(user->second, std::move(children));
      e->name = expr.ToString();
      return e;
    }
  }
  auto e = BindOperator(name, std::move(children), expr.location, &argument_names);
  e->name = expr.ToString();
  return e;
}

BoundExprPtr Binder::BindUserFunctionCall(const UserScalarFunction& function, std::vector<BoundExprPtr> children) {
  std::vector<LogicalType> types;
  types.reserve(children.size());
  for (auto& c : children) types.push_back(c->return_type);
  BoundScalarFunction fn = BindUserFunction(function, types);
  auto expr = std::make_unique<BoundExpression>(BoundExpressionType::FUNCTION, fn.return_type);
  for (idx_t i = 0; i < children.size(); i++) expr->children.push_back(AddCast(std::move(children[i]), fn.argument_types[i]));
  expr->function = std::move(fn);
  return FoldConstant(std::move(expr));
}

// (a, b, ...) IN (SELECT x, y, ...), NOT IN, = ANY, <> ALL: one probe per
// column, each cast to the type it and its column compare in; the join
// matches on every pair (planner/subquery/plan_subqueries.cpp), so a row
// compares as SQL's row comparison does: NULL when no pair is false and one
// is NULL.
BoundExprPtr Binder::BindRowMembership(const ParsedExpression& expr, const ParsedExpression& row, const BindContext& scope,
                                       AggregateBindState* aggregate, const char* clause,
                                       const std::vector<LogicalType>& columns,
                                       const std::function<BoundExprPtr(SubqueryKind, LogicalType)>& make_node) {
  if (row.children.size() != columns.size()) {
    throw BinderError("IN (subquery): the row on the left has " + std::to_string(row.children.size()) +
                      " values but the subquery returns " + std::to_string(columns.size()) +
                      " columns; select one column per value");
  }
  bool negated = expr.type == ExpressionType::SUBQUERY_NOT_IN || expr.type == ExpressionType::COMPARE_NE;
  auto e = make_node(negated ? SubqueryKind::NOT_IN : SubqueryKind::IN, TypeId::BOOLEAN);
  for (idx_t i = 0; i < columns.size(); i++) {
    auto probe = Bind(*row.children[i], scope, aggregate, clause);
    LogicalType common = MaxLogicalType(probe->return_type, columns[i]);
    if (common.id() == TypeId::INVALID) {
      throw BinderError("Cannot compare " + probe->return_type.ToString() + " (value " + std::to_string(i + 1) +
                        " of the row) with subquery column " + std::to_string(i + 1) + " of type " +
                        columns[i].ToString() + " in IN (subquery); cast one side explicitly");
    }
    e->children.push_back(AddCast(std::move(probe), common));
  }
  return e;
}

BoundExprPtr Binder::BindSubquery(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                                  const char* clause) {
  // Bound here; correlated ones and IN become joins once the query is bound
  // (planner/subquery/plan_subqueries.hpp), the others run when the plan
  // runs (execution/subquery_resolver.hpp), once per statement.
  Binder* outermost = this;
  while (outermost->parent_) outermost = outermost->parent_;
  outermost->bound_subquery_expression_ = true;
  // x op ANY|ALL (q): `expr` is the comparison, its right side holds q.
  bool quantified = IsQuantified(expr);
  const ParsedExpression& node = quantified ? *expr.children[1] : expr;
  Binder sub(context_, this);
  sub.outer_scope_ = &scope;
  BoundQuery query = sub.BindQuery(*node.subquery);
  auto subquery = std::make_shared<BoundSubquery>();
  subquery->plan = std::move(query.plan);
  subquery->types = query.types;
  subquery->correlated = sub.correlated_;
  auto make_node = [&](SubqueryKind kind, LogicalType type) {
    auto e = std::make_unique<BoundExpression>(BoundExpressionType::SUBQUERY, std::move(type));
    e->subquery_kind = kind;
    e->subquery = subquery;
    e->name = expr.ToString();
    return e;
  };
  if (expr.type == ExpressionType::SUBQUERY_EXISTS || expr.type == ExpressionType::SUBQUERY_NOT_EXISTS) {
    auto e = make_node(expr.type == ExpressionType::SUBQUERY_EXISTS ? SubqueryKind::EXISTS : SubqueryKind::NOT_EXISTS,
                       TypeId::BOOLEAN);
    e->name.clear();
    return e;
  }
  bool membership = expr.type == ExpressionType::SUBQUERY_IN || expr.type == ExpressionType::SUBQUERY_NOT_IN ||
                    (quantified && (node.type == ExpressionType::SUBQUERY_ANY) == (expr.type == ExpressionType::COMPARE_EQ) &&
                     (expr.type == ExpressionType::COMPARE_EQ || expr.type == ExpressionType::COMPARE_NE));
  const ParsedExpression* row = expr.type == ExpressionType::SUBQUERY_SCALAR ? nullptr : expr.children[0].get();
  bool row_probe = row && row->type == ExpressionType::FUNCTION && row->function_name == "row";
  if (query.types.size() != 1 || (row_probe && membership && query.types[0].id() != TypeId::STRUCT)) {
    if (row_probe && quantified && !membership) {
      throw NotImplementedError("a row compared with a subquery by " + std::string(OperatorFunctionName(expr.type)) +
                                (node.type == ExpressionType::SUBQUERY_ALL ? " ALL" : " ANY") +
                                " (rows support IN, NOT IN, = ANY and <> ALL)");
    }
    if (!row_probe || !membership) {
      throw BinderError("Subquery returns " + std::to_string(query.types.size()) +
                        " columns but is used as a single value; select exactly one column, or compare a row of as "
                        "many values with IN: (a, b) IN (SELECT x, y ...)");
    }
    return BindRowMembership(expr, *row, scope, aggregate, clause, query.types, make_node);
  }
  if (expr.type == ExpressionType::SUBQUERY_SCALAR) return make_node(SubqueryKind::SCALAR, query.types[0]);
  auto probe = Bind(*expr.children[0], scope, aggregate, clause);
  LogicalType common = MaxLogicalType(probe->return_type, query.types[0]);
  bool all = node.type == ExpressionType::SUBQUERY_ALL;
  if (common.id() == TypeId::INVALID) {
    std::string construct = quantified ? std::string(OperatorFunctionName(expr.type)) + (all ? " ALL" : " ANY") + " (subquery)"
                                       : "IN (subquery)";
    throw BinderError("Cannot compare " + probe->return_type.ToString() + " with subquery column of type " +
                      query.types[0].ToString() + " in " + construct + "; cast one side explicitly");
  }
  if (!quantified) {
    auto e = make_node(expr.type == ExpressionType::SUBQUERY_NOT_IN ? SubqueryKind::NOT_IN : SubqueryKind::IN,
                       TypeId::BOOLEAN);
    e->children.push_back(AddCast(std::move(probe), common));
    return e;
  }
  // x op ALL (S) is NOT (x <negated op> ANY (S)): false as soon as one row
  // fails the comparison, NULL when none fails but one compares with NULL.
  ExpressionType op = all ? NegateComparison(expr.type) : expr.type;
  if (op == ExpressionType::COMPARE_EQ) {  // = ANY is IN, <> ALL is NOT IN
    auto e = make_node(all ? SubqueryKind::NOT_IN : SubqueryKind::IN, TypeId::BOOLEAN);
    e->children.push_back(AddCast(std::move(probe), common));
    return e;
  }
  {
    // Refused now when the type has no such order, not when the plan runs.
    std::vector<BoundExprPtr> sides;
    sides.push_back(MakeConstant(Value(common)));
    sides.push_back(MakeConstant(Value(common)));
    BindOperator(OperatorFunctionName(op), std::move(sides), expr.location);
  }
  auto e = make_node(AnyKind(op), TypeId::BOOLEAN);
  e->children.push_back(AddCast(std::move(probe), common));
  if (!all) return e;
  e->name.clear();
  std::vector<BoundExprPtr> negated;
  negated.push_back(std::move(e));
  auto result = MakeBoolean(BoundExpressionType::NOT, std::move(negated));
  result->name = expr.ToString();
  return result;
}

}  // namespace lakestream
