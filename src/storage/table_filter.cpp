#include "storage/table_filter.hpp"

namespace lakestream {

TableFilter TableFilter::Compare(idx_t column, FilterComparison comparison, Value constant) {
  TableFilter f;
  f.type = TableFilterType::COMPARE;
  f.column = column;
  f.comparison = comparison;
  f.constant = std::move(constant);
  return f;
}

TableFilter TableFilter::IsNull(idx_t column, bool is_null) {
  TableFilter f;
  f.type = is_null ? TableFilterType::IS_NULL : TableFilterType::IS_NOT_NULL;
  f.column = column;
  return f;
}

TableFilter TableFilter::InList(idx_t column, std::vector<Value> constants) {
  TableFilter f;
  f.type = TableFilterType::IN_LIST;
  f.column = column;
  f.constants = std::move(constants);
  return f;
}

TableFilter TableFilter::Conjunction(TableFilterType type, std::vector<TableFilter> children) {
  TableFilter f;
  f.type = type;
  f.children = std::move(children);
  return f;
}

TableFilter TableFilter::Predicate(std::vector<idx_t> columns, std::function<bool(const std::vector<Value>&)> test) {
  TableFilter f;
  f.type = TableFilterType::PREDICATE;
  f.columns = std::move(columns);
  f.predicate = std::move(test);
  return f;
}

static bool CompareHolds(int cmp, FilterComparison comparison) {
  switch (comparison) {
    case FilterComparison::EQUAL: return cmp == 0;
    case FilterComparison::LESS: return cmp < 0;
    case FilterComparison::LESS_EQUAL: return cmp <= 0;
    case FilterComparison::GREATER: return cmp > 0;
    case FilterComparison::GREATER_EQUAL: return cmp >= 0;
  }
  return true;
}

static bool AllNull(const ColumnStatistics& s) {
  return s.null_count && s.row_count && *s.null_count == *s.row_count;
}

// column <comparison> value over the column's statistics.
static bool CompareMayMatch(const ColumnStatistics& s, FilterComparison comparison, const Value& value) {
  if (value.IsNull()) return false;  // a comparison with NULL is never true
  if (s.constant) {
    if (s.constant->IsNull()) return false;
    Value c;
    if (!value.TryCastAs(s.type, c)) return true;
    return CompareHolds(s.constant->Compare(c), comparison);
  }
  if (AllNull(s)) return false;
  Value c;
  if (!value.TryCastAs(s.type, c)) return true;
  const auto& min = s.min;
  const auto& max = s.max;
  switch (comparison) {
    case FilterComparison::EQUAL: return !((min && c.Compare(*min) < 0) || (max && c.Compare(*max) > 0));
    case FilterComparison::LESS: return !(min && min->Compare(c) >= 0);
    case FilterComparison::LESS_EQUAL: return !(min && min->Compare(c) > 0);
    case FilterComparison::GREATER: return !(max && max->Compare(c) <= 0);
    case FilterComparison::GREATER_EQUAL: return !(max && max->Compare(c) < 0);
  }
  return true;
}

static bool PredicateMayMatch(const TableFilter& filter, const ColumnStatisticsLookup& statistics) {
  if (!filter.predicate || filter.columns.empty()) return true;
  std::vector<Value> values;
  values.reserve(filter.columns.size());
  for (idx_t column : filter.columns) {
    ColumnStatistics s = statistics(column);
    if (!s.constant) return true;  // the column varies: the test cannot be decided here
    values.push_back(*s.constant);
  }
  try {
    return filter.predicate(values);
  } catch (const std::exception&) {
    return true;
  }
}

bool FilterMayMatch(const TableFilter& filter, const ColumnStatisticsLookup& statistics) {
  switch (filter.type) {
    case TableFilterType::COMPARE: return CompareMayMatch(statistics(filter.column), filter.comparison, filter.constant);
    case TableFilterType::IS_NULL: {
      ColumnStatistics s = statistics(filter.column);
      if (s.constant) return s.constant->IsNull();
      return !(s.null_count && *s.null_count == 0);
    }
    case TableFilterType::IS_NOT_NULL: {
      ColumnStatistics s = statistics(filter.column);
      if (s.constant) return !s.constant->IsNull();
      return !AllNull(s);
    }
    case TableFilterType::IN_LIST: {
      ColumnStatistics s = statistics(filter.column);
      for (auto& v : filter.constants) {
        if (CompareMayMatch(s, FilterComparison::EQUAL, v)) return true;
      }
      return false;
    }
    case TableFilterType::AND:
      for (auto& child : filter.children) {
        if (!FilterMayMatch(child, statistics)) return false;
      }
      return true;
    case TableFilterType::OR:
      for (auto& child : filter.children) {
        if (FilterMayMatch(child, statistics)) return true;
      }
      return filter.children.empty();
    case TableFilterType::PREDICATE: return PredicateMayMatch(filter, statistics);
  }
  return true;
}

}  // namespace lakestream
