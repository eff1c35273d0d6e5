#include "execution/subquery_resolver.hpp"

#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "execution/plan_executor.hpp"
#include "expression/expression_executor.hpp"
#include "function/scalar_function.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

class SubqueryResolver {
 public:
  explicit SubqueryResolver(ClientContext& context) : context_(context) {
    fctx_.statement_start = context.StatementStart();
    fctx_.client = &context;
  }

  // Replaces the SUBQUERY nodes inside `expr`; true when anything changed.
  bool Resolve(BoundExprPtr& expr) {
    if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep"));
    bool changed = false;
    for (auto& c : expr->children) changed |= Resolve(c);
    if (expr->type == BoundExpressionType::SUBQUERY) {
      expr = Materialize(*expr);
      return true;
    }
    if (changed) Fold(expr);
    return changed;
  }

  void ResolvePlan(LogicalOperator& op) {
    auto resolve_all = [&](std::vector<BoundExprPtr>& list) {
      for (auto& e : list) Resolve(e);
    };
    resolve_all(op.expressions);
    resolve_all(op.table_filters);
    resolve_all(op.left_keys);
    resolve_all(op.right_keys);
    if (op.residual) Resolve(op.residual);
    if (op.mark_condition) Resolve(op.mark_condition);
    if (op.limit_expression) Resolve(op.limit_expression);
    if (op.offset_expression) Resolve(op.offset_expression);
    for (auto& a : op.aggregates) {
      for (auto* e : a.Expressions()) Resolve(*e);
    }
    for (auto& o : op.orders) Resolve(o.expression);
    for (auto& row : op.value_rows) resolve_all(row);
    for (auto& child : op.children) ResolvePlan(*child);
  }

 private:
  // The subquery's rows, running its plan the first time.
  const ChunkCollection& RowsOf(BoundSubquery& subquery) {
    if (!subquery.rows) {
      if (subquery.correlated) {
        // Plan_subqueries turns the others into joins (WHERE, HAVING, SELECT
        // list, ORDER BY, GROUP BY, aggregate and window arguments, ON, DML).
        throw NotImplementedError("a correlated subquery in this place (such as the ORDER BY of a UNION or a LIMIT); "
                                  "compute the value in a subquery in FROM and refer to it");
      }
      if (!subquery.plan) throw InternalError("a subquery's plan was used up without keeping its rows");
      subquery.rows = std::make_shared<const ChunkCollection>(ExecutePlan(context_, std::move(subquery.plan)));
    }
    return *subquery.rows;
  }

  BoundExprPtr Materialize(BoundExpression& node) {
    const ChunkCollection& rows = RowsOf(*node.subquery);
    switch (node.subquery_kind) {
      case SubqueryKind::EXISTS:
      case SubqueryKind::NOT_EXISTS: {
        bool exists = rows.Count() > 0;
        return MakeConstant(Value::BOOLEAN(node.subquery_kind == SubqueryKind::EXISTS ? exists : !exists));
      }
      case SubqueryKind::SCALAR: {
        if (rows.Count() > 1) {
          throw InvalidInputError("More than one row returned by a subquery used as an expression; add LIMIT 1 or an aggregate");
        }
        auto c = MakeConstant(rows.Count() == 0 ? Value(node.subquery->types[0]) : rows.GetValue(0, 0));
        c->name = node.name;
        return c;
      }
      case SubqueryKind::IN:
      case SubqueryKind::NOT_IN: break;
      default: return MaterializeAny(node, rows);
    }
    // The probe was cast to the type both sides compare in when bound.
    LogicalType common = node.children[0]->return_type;
    auto e = std::make_unique<BoundExpression>(BoundExpressionType::IN_LIST, TypeId::BOOLEAN);
    e->children.push_back(std::move(node.children[0]));
    for (idx_t r = 0; r < rows.Count(); r++) e->children.push_back(MakeConstant(rows.GetValue(0, r).CastAs(common)));
    e->negated = node.subquery_kind == SubqueryKind::NOT_IN;
    e->name = node.name;
    if (e->children.size() == 1) {
      // x IN (empty set) is FALSE, even for NULL x.
      return MakeConstant(Value::BOOLEAN(e->negated));
    }
    Fold(e);
    return e;
  }

  // x op ANY (rows), the three-valued OR of x op y over the rows, as an
  // expression over x alone: x < ANY is x < max(y), x > ANY is x > min(y),
  // x <> ANY is x <> min(y) OR x <> max(y) (over the non-NULL y), each OR
  // NULL when a y is NULL. Types Value::Compare may not order as the
  // comparison does (nested ones) keep one comparison per distinct value.
  BoundExprPtr MaterializeAny(BoundExpression& node, const ChunkCollection& rows) {
    if (rows.Count() == 0) return Named(MakeConstant(Value::BOOLEAN(false)), node.name);  // even for a NULL x
    const LogicalType& common = node.children[0]->return_type;
    const std::string op = AnyComparison(node.subquery_kind);
    bool ordered = common.IsNumeric() || common.id() == TypeId::VARCHAR || common.id() == TypeId::DATE ||
                   common.id() == TypeId::TIMESTAMP || common.id() == TypeId::TIMESTAMP_NTZ ||
                   common.id() == TypeId::BOOLEAN || common.id() == TypeId::INTERVAL;
    bool has_null = false;
    std::vector<Value> values;  // ordered: {min, max}; else the distinct values
    for (idx_t r = 0; r < rows.Count(); r++) {
      Value v = rows.GetValue(0, r);
      if (v.IsNull()) {
        has_null = true;
        continue;
      }
      v = v.CastAs(common);
      if (!ordered) {
        bool seen = false;
        for (auto& w : values) seen = seen || w == v;
        if (!seen) values.push_back(std::move(v));
      } else if (values.empty()) {
        values = {v, v};
      } else {
        if (v.Compare(values[0]) < 0) values[0] = v;
        if (v.Compare(values[1]) > 0) values[1] = std::move(v);
      }
    }
    if (ordered && !values.empty()) {
      if (op == "<" || op == "<=") values.erase(values.begin());  // the max
      if (op == ">" || op == ">=") values.pop_back();              // the min
      if (values.size() == 2 && values[0] == values[1]) values.pop_back();
    }
    std::vector<BoundExprPtr> terms;
    terms.reserve(values.size() + 1);
    for (auto& v : values) terms.push_back(Comparison(op, node.children[0]->Copy(), MakeConstant(v)));
    if (has_null || terms.empty()) terms.push_back(MakeConstant(Value(LogicalType(TypeId::BOOLEAN))));
    BoundExprPtr result = std::move(terms[0]);
    for (idx_t i = 1; i < terms.size(); i++) {
      auto both = std::make_unique<BoundExpression>(BoundExpressionType::OR, TypeId::BOOLEAN);
      both->children.push_back(std::move(result));
      both->children.push_back(std::move(terms[i]));
      result = std::move(both);
    }
    Fold(result);
    return Named(std::move(result), node.name);
  }

  static BoundExprPtr Comparison(const std::string& op, BoundExprPtr left, BoundExprPtr right) {
    std::vector<LogicalType> types{left->return_type, right->return_type};
    BoundScalarFunction fn = ScalarFunctionRegistry::Get().Bind(op, types, {nullptr, nullptr}, {"", ""});
    auto e = std::make_unique<BoundExpression>(BoundExpressionType::FUNCTION, fn.return_type);
    BoundExprPtr sides[2] = {std::move(left), std::move(right)};
    for (idx_t i = 0; i < 2; i++) {
      // As Binder::BindOperator: a function may leave its argument types to the call.
      LogicalType target = i < fn.argument_types.size() ? fn.argument_types[i] : sides[i]->return_type;
      e->children.push_back(AddCast(std::move(sides[i]), target));
    }
    e->function = std::move(fn);
    return e;
  }

  static BoundExprPtr Named(BoundExprPtr e, const std::string& name) {
    e->name = name;
    return e;
  }

  // Folds `expr` when it has become constant, as the binder folds constants.
  void Fold(BoundExprPtr& expr) {
    if (expr->IsConstant()) return;
    if (expr->type == BoundExpressionType::CAST && expr->children[0]->IsConstant()) {
      // A constant is cast right away (AddCast), with the binder's errors.
      auto child = std::move(expr->children[0]);
      child->name = expr->name;
      expr = AddCast(std::move(child), expr->return_type, expr->try_cast, true);
      return;
    }
    if (!expr->IsFoldable()) return;
    auto name = expr->name;
    Value value;
    try {
      // A fresh executor: one keeps state per expression address, and the
      // nodes this resolver frees and makes may reuse an address.
      ExpressionExecutor executor(fctx_);
      value = executor.EvaluateConstant(*expr);
    } catch (const ConversionError&) {
      return;  // as in the binder: an error for when a row reaches it (a CASE branch may skip it)
    } catch (const InvalidInputError&) {
      return;
    }
    expr = MakeConstant(std::move(value));
    expr->name = name;
  }

  ClientContext& context_;
  FunctionContext fctx_;
};

}  // namespace

void ResolveSubqueries(ClientContext& context, LogicalOperator& plan) {
  SubqueryResolver resolver(context);
  resolver.ResolvePlan(plan);
}

BoundExprPtr ResolveSubqueries(ClientContext& context, BoundExprPtr expr) {
  SubqueryResolver resolver(context);
  resolver.Resolve(expr);
  return expr;
}

}  // namespace lakestream
