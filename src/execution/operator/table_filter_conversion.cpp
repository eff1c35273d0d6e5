#include "execution/operator/table_filter_conversion.hpp"

#include <optional>
#include <set>

#include "expression/expression_executor.hpp"

namespace lakestream {

namespace {

std::optional<FilterComparison> ComparisonOf(const std::string& name) {
  if (name == "=") return FilterComparison::EQUAL;
  if (name == "<") return FilterComparison::LESS;
  if (name == "<=") return FilterComparison::LESS_EQUAL;
  if (name == ">") return FilterComparison::GREATER;
  if (name == ">=") return FilterComparison::GREATER_EQUAL;
  return std::nullopt;
}

// constant <op> column is column <flipped op> constant.
FilterComparison Flip(FilterComparison comparison) {
  switch (comparison) {
    case FilterComparison::LESS: return FilterComparison::GREATER;
    case FilterComparison::LESS_EQUAL: return FilterComparison::GREATER_EQUAL;
    case FilterComparison::GREATER: return FilterComparison::LESS;
    case FilterComparison::GREATER_EQUAL: return FilterComparison::LESS_EQUAL;
    case FilterComparison::EQUAL: return FilterComparison::EQUAL;
  }
  return comparison;
}

void CollectColumns(const BoundExpression& e, std::set<idx_t>& out) {
  if (e.type == BoundExpressionType::COLUMN_REF) out.insert(e.column_index);
  for (auto& c : e.children) CollectColumns(*c, out);
}

bool IsColumn(const BoundExpression& e, idx_t width) {
  return e.type == BoundExpressionType::COLUMN_REF && e.column_index < width;
}

// `expr` evaluated on one row that holds the given values in its columns:
// decides an arbitrary predicate for files where those columns are constant.
TableFilter MakePredicate(const BoundExpression& expr, const std::vector<LogicalType>& types, std::vector<idx_t> columns) {
  std::shared_ptr<const BoundExpression> owned = expr.Copy();
  auto test = [owned, types, columns](const std::vector<Value>& values) {
    DataChunk row;
    row.Initialize(types, 1);
    for (idx_t c = 0; c < types.size(); c++) row.SetValue(c, 0, Value(types[c]));
    for (idx_t i = 0; i < columns.size(); i++) row.SetValue(columns[i], 0, values[i]);
    row.SetCardinality(1);
    std::vector<sel_t> sel;
    return ExpressionExecutor().Select(*owned, row, sel) == 1;
  };
  return TableFilter::Predicate(std::move(columns), std::move(test));
}

std::optional<TableFilter> Convert(const BoundExpression& e, const std::vector<LogicalType>& types) {
  idx_t width = types.size();
  switch (e.type) {
    case BoundExpressionType::FUNCTION: {
      auto comparison = ComparisonOf(e.function.name);
      if (!comparison || e.children.size() != 2) break;
      const BoundExpression& left = *e.children[0];
      const BoundExpression& right = *e.children[1];
      if (IsColumn(left, width) && right.IsConstant()) {
        return TableFilter::Compare(left.column_index, *comparison, right.value);
      }
      if (left.IsConstant() && IsColumn(right, width)) {
        return TableFilter::Compare(right.column_index, Flip(*comparison), left.value);
      }
      break;
    }
    case BoundExpressionType::IS_NULL:
    case BoundExpressionType::IS_NOT_NULL:
      if (e.children.size() == 1 && IsColumn(*e.children[0], width)) {
        return TableFilter::IsNull(e.children[0]->column_index, e.type == BoundExpressionType::IS_NULL);
      }
      break;
    case BoundExpressionType::IN_LIST: {
      if (e.negated || e.children.empty() || !IsColumn(*e.children[0], width)) break;
      std::vector<Value> constants;
      for (idx_t i = 1; i < e.children.size(); i++) {
        if (!e.children[i]->IsConstant()) return std::nullopt;
        constants.push_back(e.children[i]->value);
      }
      return TableFilter::InList(e.children[0]->column_index, std::move(constants));
    }
    case BoundExpressionType::AND:
    case BoundExpressionType::OR: {
      std::vector<TableFilter> children;
      for (auto& c : e.children) {
        auto child = Convert(*c, types);
        // A conjunct that proves nothing can be left out; an OR branch cannot.
        if (!child) {
          if (e.type == BoundExpressionType::OR) return std::nullopt;
          continue;
        }
        children.push_back(std::move(*child));
      }
      if (children.empty()) return std::nullopt;
      return TableFilter::Conjunction(e.type == BoundExpressionType::AND ? TableFilterType::AND : TableFilterType::OR,
                                      std::move(children));
    }
    default: break;
  }
  // Anything else: decidable only where every column it reads is constant.
  std::set<idx_t> columns;
  CollectColumns(e, columns);
  if (columns.empty()) return std::nullopt;
  for (idx_t c : columns) {
    if (c >= width) return std::nullopt;
  }
  return MakePredicate(e, types, std::vector<idx_t>(columns.begin(), columns.end()));
}

}  // namespace

std::vector<TableFilter> ConvertToTableFilters(const std::vector<BoundExprPtr>& predicates,
                                               const std::vector<LogicalType>& types) {
  std::vector<TableFilter> filters;
  for (auto& p : predicates) {
    if (auto filter = Convert(*p, types)) filters.push_back(std::move(*filter));
  }
  return filters;
}

}  // namespace lakestream
