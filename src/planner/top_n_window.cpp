#include "planner/top_n_window.hpp"

#include <limits>
#include <set>

namespace lakestream {

namespace {

bool IsRowNumber(const BoundExpression& e, const std::set<ColumnBinding>& row_number) {
  return e.type == BoundExpressionType::COLUMN_REF && row_number.count(e.binding) > 0;
}

bool IntegerConstant(const BoundExpression& e, int64_t& value) {
  if (e.type != BoundExpressionType::CONSTANT || e.value.IsNull()) return false;
  TypeId t = e.return_type.id();
  if (t != TypeId::BIGINT && t != TypeId::INTEGER) return false;
  value = e.value.AsBigint();
  return true;
}

// The largest row number `conjunct` lets through when it is rn = c, rn <= c,
// rn < c (or c = rn, c >= rn, c > rn); false for anything else.
bool RowNumberBound(const BoundExpression& conjunct, const std::set<ColumnBinding>& row_number, int64_t& bound) {
  if (conjunct.type != BoundExpressionType::FUNCTION || conjunct.children.size() != 2) return false;
  std::string op = conjunct.function.name;
  const BoundExpression* column = conjunct.children[0].get();
  const BoundExpression* constant = conjunct.children[1].get();
  if (!IsRowNumber(*column, row_number)) {
    std::swap(column, constant);
    if (op == ">=") {
      op = "<=";
    } else if (op == ">") {
      op = "<";
    } else if (op != "=") {
      return false;
    }
  }
  int64_t c = 0;
  if (!IsRowNumber(*column, row_number) || !IntegerConstant(*constant, c)) return false;
  if (op == "=" || op == "<=") {
    bound = c;
    return true;
  }
  if (op == "<" && c > std::numeric_limits<int64_t>::min()) {
    bound = c - 1;
    return true;
  }
  return false;
}

void RewriteFilter(LogicalOperator& filter) {
  std::vector<LogicalOperator*> projections;
  LogicalOperator* node = filter.children[0].get();
  while (node->type == LogicalOperatorType::PROJECTION) {
    projections.push_back(node);
    node = node->children[0].get();
  }
  if (node->type != LogicalOperatorType::WINDOW || node->windows.size() != 1 ||
      node->windows[0].kind != WindowKind::ROW_NUMBER || node->window_top_n != 0) {
    return;
  }
  // The bindings the row number goes by at the filter: the window's column,
  // then whatever projection columns pass it on unchanged.
  std::set<ColumnBinding> row_number = {{node->table_index, 0}};
  for (auto it = projections.rbegin(); it != projections.rend(); ++it) {
    std::set<ColumnBinding> above;
    for (idx_t i = 0; i < (*it)->expressions.size(); i++) {
      if (IsRowNumber(*(*it)->expressions[i], row_number)) above.insert({(*it)->table_index, i});
    }
    row_number = std::move(above);
  }
  if (row_number.empty()) return;
  int64_t limit = 0;
  for (auto& conjunct : filter.expressions) {
    int64_t bound = 0;
    if (RowNumberBound(*conjunct, row_number, bound) && bound >= 1 && (limit == 0 || bound < limit)) limit = bound;
  }
  if (limit > 0) node->window_top_n = limit;
}

}  // namespace

void RewriteTopNWindows(LogicalOperator& plan) {
  for (auto& child : plan.children) RewriteTopNWindows(*child);
  if (plan.type == LogicalOperatorType::FILTER) RewriteFilter(plan);
}

}  // namespace lakestream
