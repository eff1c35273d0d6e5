// Binding of nested-data syntax: struct field paths on column names
// (`s.a.b`, `t.s.a`), field access after any expression, and lambda
// arguments of the higher-order functions (expression/lambda_function.hpp).
#include <map>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "expression/lambda_function.hpp"
#include "planner/binder.hpp"

namespace lakestream {

namespace {

BoundExprPtr ResolveOptional(const BindContext& scope, const std::vector<std::string>& names, bool& ambiguous) {
  try {
    return scope.Resolve(names, true);
  } catch (const BinderError&) {
    ambiguous = true;
    return nullptr;
  }
}

bool ContainsSubquery(const BoundExpression& e) {
  if (e.type == BoundExpressionType::SUBQUERY) return true;
  for (auto& c : e.children) {
    if (ContainsSubquery(*c)) return true;
  }
  return false;
}

}  // namespace

// Spark's rule: the longest prefix of the name that names a column (with or
// without its table) is the column, the rest are fields. Lambda parameters
// shadow columns.
BoundExprPtr Binder::BindNestedColumn(const ParsedExpression& expr, const BindContext& scope,
                                      AggregateBindState* aggregate, const char* clause) {
  const auto& names = expr.names;
  for (auto it = lambda_scopes_.rbegin(); it != lambda_scopes_.rend(); ++it) {
    for (idx_t p = 0; p < it->names.size(); p++) {
      if (!StringUtil::CIEquals(it->names[p], names[0])) continue;
      BoundExprPtr ref = MakeBindingRef({it->table_index, p}, it->types[p], it->names[p]);
      for (idx_t j = 1; j < names.size(); j++) ref = BindFieldAccess(std::move(ref), names[j]);
      return ref;
    }
  }
  if (names.size() < 2) return nullptr;
  bool ambiguous = false;
  if (ResolveOptional(scope, names, ambiguous) || ambiguous) return nullptr;
  for (idx_t k = names.size() - 1; k >= 1; k--) {
    std::vector<std::string> prefix(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(k));
    if (!ResolveOptional(scope, prefix, ambiguous)) {
      if (ambiguous) return nullptr;  // binding the whole name reports it
      continue;
    }
    ParsedExpression column(ExpressionType::COLUMN_REF, expr.location);
    column.names = prefix;
    BoundExprPtr bound = Bind(column, scope, aggregate, clause);
    for (idx_t j = k; j < names.size(); j++) bound = BindFieldAccess(std::move(bound), names[j]);
    bound->name = names.back();
    return bound;
  }
  return nullptr;
}

BoundExprPtr Binder::BindFieldAccess(BoundExprPtr child, const std::string& field) {
  TypeId id = child->return_type.id();
  if (id != TypeId::STRUCT && id != TypeId::MAP) {
    throw BinderError("Cannot read field \"" + field + "\" of " + child->ToString() + ": it is " +
                      child->return_type.ToString() + ", not a STRUCT or MAP" +
                      (id == TypeId::VARCHAR ? " (for JSON text use get_json_object(s, '$." + field + "') or s:" + field + ")" : ""));
  }
  std::vector<BoundExprPtr> children;
  children.push_back(std::move(child));
  children.push_back(MakeConstant(Value::VARCHAR(field)));
  auto e = BindOperator(id == TypeId::STRUCT ? "struct_extract" : "subscript", std::move(children), 0);
  e->name = field;
  return e;
}

BoundExprPtr Binder::BindLambdaFunction(const std::string& name, const ParsedExpression& expr, const BindContext& scope,
                                        AggregateBindState* aggregate, const char* clause) {
  if (name == "list_reduce" || name == "array_reduce") {
    // DuckDB's list_reduce(l, (acc, x) -> ...[, start]) is aggregate(l, start, merge);
    // without a start it folds from the first element: aggregate(list_slice(l, 2, len), l[0], merge)
    // (an empty list gives NULL where DuckDB raises an error).
    bool shape_ok = (expr.children.size() == 2 || expr.children.size() == 3) &&
                    expr.children[0]->type != ExpressionType::LAMBDA && expr.children[1]->type == ExpressionType::LAMBDA &&
                    (expr.children.size() == 2 || expr.children[2]->type != ExpressionType::LAMBDA);
    if (!shape_ok) throw BinderError(name + "() is called as " + name + "(list, (acc, x) -> ...[, start])");
    ParsedExpression rewritten(ExpressionType::FUNCTION, expr.location);
    rewritten.function_name = "aggregate";
    if (expr.children.size() == 3) {
      rewritten.children.push_back(expr.children[0]->Copy());
      rewritten.children.push_back(expr.children[2]->Copy());
    } else {
      auto constant = [&](int64_t v) {
        auto c = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, expr.location);
        c->value = Value::BIGINT(v);
        return c;
      };
      auto rest = std::make_unique<ParsedExpression>(ExpressionType::FUNCTION, expr.location);
      rest->function_name = "list_slice";
      rest->children.push_back(expr.children[0]->Copy());
      rest->children.push_back(constant(2));
      rest->children.push_back(constant(INT64_MAX));
      auto first = std::make_unique<ParsedExpression>(ExpressionType::SUBSCRIPT, expr.location);
      first->children.push_back(expr.children[0]->Copy());
      first->children.push_back(constant(0));
      rewritten.children.push_back(std::move(rest));
      rewritten.children.push_back(std::move(first));
    }
    rewritten.children.push_back(expr.children[1]->Copy());
    return BindLambdaFunction("aggregate", rewritten, scope, aggregate, clause);
  }
  static const std::map<std::string, LambdaFunctionKind> kKinds = {
      {"transform", LambdaFunctionKind::TRANSFORM},       {"list_transform", LambdaFunctionKind::TRANSFORM},
      {"array_transform", LambdaFunctionKind::TRANSFORM}, {"filter", LambdaFunctionKind::FILTER},
      {"list_filter", LambdaFunctionKind::FILTER},        {"array_filter", LambdaFunctionKind::FILTER},
      {"exists", LambdaFunctionKind::EXISTS},             {"forall", LambdaFunctionKind::FORALL},
      {"aggregate", LambdaFunctionKind::AGGREGATE},       {"reduce", LambdaFunctionKind::AGGREGATE},
      {"transform_values", LambdaFunctionKind::TRANSFORM_VALUES},
      {"transform_keys", LambdaFunctionKind::TRANSFORM_KEYS},
      {"map_filter", LambdaFunctionKind::MAP_FILTER}};
  auto found = kKinds.find(name);
  if (found == kKinds.end()) {
    throw BinderError(name + "() does not take a lambda; lambdas (x -> ...) are arguments of transform, filter, exists, "
                             "forall, aggregate, transform_values, transform_keys and map_filter");
  }
  LambdaFunctionKind kind = found->second;
  bool is_aggregate = kind == LambdaFunctionKind::AGGREGATE;
  bool on_map = kind == LambdaFunctionKind::TRANSFORM_VALUES || kind == LambdaFunctionKind::TRANSFORM_KEYS ||
                kind == LambdaFunctionKind::MAP_FILTER;
  const char* usage = is_aggregate ? "aggregate(array, start, (acc, x) -> acc + x[, acc -> result])"
                      : on_map     ? "(map, (k, v) -> ...)"
                                   : "(array, x -> ...) or (array, (x, i) -> ...)";
  idx_t plain_arguments = is_aggregate ? 2 : 1;
  idx_t lambda_count = expr.children.size() - plain_arguments;
  bool shape_ok = expr.children.size() > plain_arguments && lambda_count <= (is_aggregate ? 2u : 1u);
  for (idx_t i = 0; shape_ok && i < expr.children.size(); i++) {
    shape_ok = (expr.children[i]->type == ExpressionType::LAMBDA) == (i >= plain_arguments);
  }
  if (!shape_ok) throw BinderError(name + "() is called as " + name + usage);

  std::vector<BoundExprPtr> arguments;
  for (idx_t i = 0; i < plain_arguments; i++) arguments.push_back(Bind(*expr.children[i], scope, aggregate, clause));
  const LogicalType& collection = arguments[0]->return_type;
  if (collection.id() != (on_map ? TypeId::MAP : TypeId::LIST) && collection.id() != TypeId::SQLNULL) {
    throw BinderError(name + "() expects " + (on_map ? "a MAP" : "an ARRAY") + " as its first argument, got " +
                      collection.ToString() + " (" + name + usage + ")");
  }
  if (collection.id() == TypeId::SQLNULL) {
    arguments[0] = AddCast(std::move(arguments[0]), on_map ? LogicalType::Map(TypeId::VARCHAR, TypeId::VARCHAR)
                                                           : LogicalType::List(TypeId::VARCHAR));
  }
  const LogicalType& type = arguments[0]->return_type;
  LogicalType element = on_map ? LogicalType() : type.ListChild();

  // Binds one lambda with the given parameter types; captures become arguments.
  std::vector<BoundExprPtr> captures;
  auto bind_lambda = [&](const ParsedExpression& lambda, std::vector<LogicalType> types, idx_t min_params) {
    if (lambda.names.size() < min_params || lambda.names.size() > types.size()) {
      throw BinderError("the lambda " + lambda.ToString() + " of " + name + "() takes " +
                        (min_params == types.size() ? std::to_string(min_params)
                                                    : std::to_string(min_params) + " or " + std::to_string(types.size())) +
                        " parameters: " + name + usage);
    }
    types.resize(lambda.names.size());
    idx_t table = NextTableIndex();
    lambda_scopes_.push_back({lambda.names, types, table});
    BoundExprPtr body;
    try {
      body = Bind(*lambda.children[0], scope, aggregate, clause);
    } catch (...) {
      lambda_scopes_.pop_back();
      throw;
    }
    lambda_scopes_.pop_back();
    if (ContainsSubquery(*body)) throw NotImplementedError("subqueries inside a lambda (" + lambda.ToString() + ")");
    return std::make_pair(std::move(body), std::make_pair(table, types));
  };
  auto finish_lambda = [&](BoundExprPtr body, idx_t table, std::vector<LogicalType> types) {
    LambdaBody result;
    result.parameters = types.size();
    result.parameter_types = types;
    std::vector<ColumnBinding> captured;
    VisitColumnRefs(*body, [&](BoundExpression& ref) {
      if (ref.binding.table_index == table) {
        ref.column_index = ref.binding.column_index;
        return;
      }
      idx_t j = 0;
      while (j < captured.size() && !(captured[j] == ref.binding)) j++;
      if (j == captured.size()) {
        captured.push_back(ref.binding);
        result.capture_types.push_back(ref.return_type);
        captures.push_back(MakeBindingRef(ref.binding, ref.return_type, ref.name));
      }
      ref.column_index = types.size() + j;
    });
    result.body = std::shared_ptr<const BoundExpression>(std::move(body));
    return result;
  };

  std::vector<LambdaBody> lambdas;
  LogicalType return_type;
  const ParsedExpression& first = *expr.children[plain_arguments];
  if (is_aggregate) {
    LogicalType acc = arguments[1]->return_type;
    if (acc.id() == TypeId::SQLNULL) acc = element;
    auto bound = bind_lambda(first, {acc, element}, 2);
    LogicalType merged = MaxLogicalType(acc, bound.first->return_type);
    if (merged.id() == TypeId::INVALID) {
      throw BinderError("aggregate(): the merge lambda returns " + bound.first->return_type.ToString() +
                        " but the start value is " + acc.ToString() + "; CAST the start value to the type the merge returns");
    }
    if (merged != acc) {
      acc = merged;  // bind again with the wider accumulator (aggregate(arr, 0, (a, x) -> a + x) over DOUBLEs)
      bound = bind_lambda(first, {acc, element}, 2);
    }
    arguments[1] = AddCast(std::move(arguments[1]), acc);
    lambdas.push_back(finish_lambda(AddCast(std::move(bound.first), acc), bound.second.first, bound.second.second));
    return_type = acc;
    if (lambda_count == 2) {
      auto fin = bind_lambda(*expr.children[plain_arguments + 1], {acc}, 1);
      return_type = fin.first->return_type;
      lambdas.push_back(finish_lambda(std::move(fin.first), fin.second.first, fin.second.second));
    }
  } else if (on_map) {
    const LogicalType& key = type.ListChild().children()[0].second;
    const LogicalType& value = type.ListChild().children()[1].second;
    auto bound = bind_lambda(first, {key, value}, 2);
    LogicalType result = bound.first->return_type;
    if (kind == LambdaFunctionKind::MAP_FILTER && result.id() != TypeId::BOOLEAN) {
      throw BinderError("map_filter(): the lambda must return BOOLEAN, but " + first.ToString() + " is " + result.ToString());
    }
    if (result.id() == TypeId::SQLNULL) result = TypeId::VARCHAR;
    return_type = kind == LambdaFunctionKind::MAP_FILTER       ? type
                  : kind == LambdaFunctionKind::TRANSFORM_KEYS ? LogicalType::Map(result, value)
                                                               : LogicalType::Map(key, result);
    lambdas.push_back(finish_lambda(AddCast(std::move(bound.first), result), bound.second.first, bound.second.second));
  } else {
    bool indexed = kind == LambdaFunctionKind::TRANSFORM || kind == LambdaFunctionKind::FILTER;
    std::vector<LogicalType> params{element};
    if (indexed) params.emplace_back(TypeId::INTEGER);
    auto bound = bind_lambda(first, params, 1);
    LogicalType result = bound.first->return_type;
    if (kind != LambdaFunctionKind::TRANSFORM && result.id() != TypeId::BOOLEAN) {
      if (result.id() != TypeId::SQLNULL) {
        throw BinderError(name + "(): the lambda must return BOOLEAN, but " + first.ToString() + " is " + result.ToString());
      }
      result = TypeId::BOOLEAN;
    }
    if (result.id() == TypeId::SQLNULL) result = TypeId::VARCHAR;
    return_type = kind == LambdaFunctionKind::TRANSFORM ? LogicalType::List(result)
                  : kind == LambdaFunctionKind::FILTER  ? type
                                                        : LogicalType(TypeId::BOOLEAN);
    lambdas.push_back(finish_lambda(AddCast(std::move(bound.first), result), bound.second.first, bound.second.second));
  }
  std::vector<LogicalType> argument_types;
  argument_types.reserve(arguments.size() + captures.size());
  for (auto& a : arguments) argument_types.push_back(a->return_type);
  for (auto& c : captures) argument_types.push_back(c->return_type);
  auto fn = MakeLambdaFunction(kind, argument_types, std::move(lambdas), return_type);
  fn.name = name;
  auto e = std::make_unique<BoundExpression>(BoundExpressionType::FUNCTION, return_type);
  for (auto& a : arguments) e->children.push_back(std::move(a));
  for (auto& c : captures) e->children.push_back(std::move(c));
  e->function = std::move(fn);
  e->name = expr.ToString();
  return FoldConstant(std::move(e));
}

}  // namespace lakestream
