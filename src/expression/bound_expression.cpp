#include "expression/bound_expression.hpp"
#include "common/cast.hpp"

#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "common/string_util.hpp"

namespace lakestream {

bool BoundExpression::IsFoldable() const {
  if (type == BoundExpressionType::COLUMN_REF || type == BoundExpressionType::SUBQUERY) return false;
  if (type == BoundExpressionType::FUNCTION && !function.deterministic) return false;
  for (auto& c : children) {
    if (!c->IsFoldable()) return false;
  }
  return true;
}

BoundExprPtr BoundExpression::Copy() const {
  if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep to copy"));
  auto copy = std::make_unique<BoundExpression>(type, return_type);
  for (auto& c : children) copy->children.push_back(c->Copy());
  copy->value = value;
  copy->binding = binding;
  copy->column_index = column_index;
  copy->function = function;
  copy->try_cast = try_cast;
  copy->negated = negated;
  copy->subquery_kind = subquery_kind;
  copy->subquery = subquery;
  copy->name = name;
  return copy;
}

void CollectBindingTables(const BoundExpression& expr, std::set<idx_t>& tables) {
  if (expr.type == BoundExpressionType::COLUMN_REF) tables.insert(expr.binding.table_index);
  for (auto& c : expr.children) CollectBindingTables(*c, tables);
}

bool BoundExpression::Equals(const BoundExpression& other) const {
  if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep to compare"));
  if (type != other.type || !(return_type == other.return_type) || children.size() != other.children.size()) return false;
  switch (type) {
    case BoundExpressionType::CONSTANT:
      if (value.IsNull() != other.value.IsNull() || value != other.value) return false;
      break;
    case BoundExpressionType::COLUMN_REF:
      if (!(binding == other.binding) || column_index != other.column_index) return false;
      break;
    case BoundExpressionType::FUNCTION:
      if (!function.deterministic || function.name != other.function.name ||
          function.argument_types != other.function.argument_types) {
        return false;
      }
      break;
    case BoundExpressionType::CAST:
      if (try_cast != other.try_cast) return false;
      break;
    case BoundExpressionType::IN_LIST:
      if (negated != other.negated) return false;
      break;
    case BoundExpressionType::SUBQUERY:
      if (subquery != other.subquery || subquery_kind != other.subquery_kind) return false;
      break;
    default:
      break;
  }
  for (size_t i = 0; i < children.size(); i++) {
    if (!children[i]->Equals(*other.children[i])) return false;
  }
  return true;
}

std::string BoundExpression::ToString() const {
  if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep to print"));
  switch (type) {
    case BoundExpressionType::CONSTANT: return value.ToSQLString();
    case BoundExpressionType::COLUMN_REF: return name.empty() ? "#" + std::to_string(column_index) : name;
    case BoundExpressionType::FUNCTION: {
      std::vector<std::string> args;
      for (auto& c : children) args.push_back(c->ToString());
      return function.name + "(" + StringUtil::Join(args, ", ") + ")";
    }
    case BoundExpressionType::CAST: return "CAST(" + children[0]->ToString() + " AS " + return_type.ToString() + ")";
    case BoundExpressionType::CASE: return "CASE ...";
    case BoundExpressionType::AND: return "(" + children[0]->ToString() + " AND " + children[1]->ToString() + ")";
    case BoundExpressionType::OR: return "(" + children[0]->ToString() + " OR " + children[1]->ToString() + ")";
    case BoundExpressionType::NOT: return "NOT " + children[0]->ToString();
    case BoundExpressionType::IS_NULL: return children[0]->ToString() + " IS NULL";
    case BoundExpressionType::IS_NOT_NULL: return children[0]->ToString() + " IS NOT NULL";
    case BoundExpressionType::IN_LIST: return children[0]->ToString() + (negated ? " NOT IN (...)" : " IN (...)");
    case BoundExpressionType::SUBQUERY:
      switch (subquery_kind) {
        case SubqueryKind::SCALAR: return "(SUBQUERY)";
        case SubqueryKind::EXISTS: return "EXISTS(SUBQUERY)";
        case SubqueryKind::NOT_EXISTS: return "NOT EXISTS(SUBQUERY)";
        case SubqueryKind::IN: return children[0]->ToString() + " IN (SUBQUERY)";
        case SubqueryKind::NOT_IN: return children[0]->ToString() + " NOT IN (SUBQUERY)";
        default: return children[0]->ToString() + " " + AnyComparison(subquery_kind) + " ANY (SUBQUERY)";
      }
  }
  return "?";
}

const char* AnyComparison(SubqueryKind kind) {
  switch (kind) {
    case SubqueryKind::ANY_NE: return "<>";
    case SubqueryKind::ANY_LT: return "<";
    case SubqueryKind::ANY_LE: return "<=";
    case SubqueryKind::ANY_GT: return ">";
    case SubqueryKind::ANY_GE: return ">=";
    default: return nullptr;
  }
}

BoundExprPtr MakeConstant(Value value) {
  auto type = value.type();
  auto expr = std::make_unique<BoundExpression>(BoundExpressionType::CONSTANT, type);
  expr->value = std::move(value);
  return expr;
}

BoundExprPtr MakeColumnRef(idx_t index, LogicalType type, std::string name) {
  auto expr = std::make_unique<BoundExpression>(BoundExpressionType::COLUMN_REF, std::move(type));
  expr->column_index = index;
  expr->name = std::move(name);
  return expr;
}

BoundExprPtr MakeBindingRef(ColumnBinding binding, LogicalType type, std::string name) {
  auto expr = std::make_unique<BoundExpression>(BoundExpressionType::COLUMN_REF, std::move(type));
  expr->binding = binding;
  expr->name = std::move(name);
  return expr;
}

void VisitColumnRefs(BoundExpression& expr, const std::function<void(BoundExpression&)>& fn) {
  if (expr.type == BoundExpressionType::COLUMN_REF) fn(expr);
  for (auto& c : expr.children) VisitColumnRefs(*c, fn);
}

BoundExprPtr AddCast(BoundExprPtr expr, const LogicalType& target, bool try_cast, bool defer_failure) {
  if (expr->return_type == target) return expr;
  if (expr->IsConstant()) {
    Value v;
    bool cast = expr->value.TryCastAs(target, v);
    if (!cast && try_cast) {
      v = Value(target);
      cast = true;
    }
    // A failing cast of a constant stays a CAST node when deferred: it may
    // sit in a branch no row takes, and raises its error only if a row reaches it.
    if (!cast && (!defer_failure || !CastIsPossible(expr->return_type, target))) v = expr->value.CastAs(target);  // throws
    if (cast) {
      auto name = expr->name;
      auto c = MakeConstant(std::move(v));
      c->name = name;
      return c;
    }
  }
  auto cast = std::make_unique<BoundExpression>(BoundExpressionType::CAST, target);
  cast->try_cast = try_cast;
  cast->name = expr->name;
  cast->children.push_back(std::move(expr));
  return cast;
}

}  // namespace lakestream
