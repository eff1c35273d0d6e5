#include "expression/repeatable.hpp"

namespace lakestream {

bool IsRepeatable(const BoundExpression& expr) {
  if (expr.type == BoundExpressionType::SUBQUERY) return false;
  if (expr.type == BoundExpressionType::FUNCTION && !expr.function.deterministic) return false;
  for (auto& child : expr.children) {
    if (!IsRepeatable(*child)) return false;
  }
  return true;
}

}  // namespace lakestream
