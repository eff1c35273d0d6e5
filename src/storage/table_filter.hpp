// Filters a scan hands to storage so it can skip data that cannot match
// (Delta files by partition values and min/max/null-count statistics). Like
// DuckDB's TableFilter: storage knows columns, constants and statistics, not
// expressions; the execution layer converts the predicates it can
// (execution/operator/table_filter_conversion.hpp).
//
// A filter only ever removes data that cannot match: the scan's caller
// applies its full predicate to every row it gets anyway.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/value.hpp"

namespace lakestream {

enum class TableFilterType : uint8_t {
  COMPARE,      // column <comparison> constant
  IS_NULL,      // column IS NULL
  IS_NOT_NULL,  // column IS NOT NULL
  IN_LIST,      // column IN (constants)
  AND,          // every child
  OR,           // some child
  PREDICATE,    // any other test, only decidable when `columns` are constant
};

enum class FilterComparison : uint8_t { EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL };

// Columns are positions in the scan's column_ids (projected positions).
struct TableFilter {
  TableFilterType type = TableFilterType::AND;
  idx_t column = 0;                   // COMPARE, IS_NULL, IS_NOT_NULL, IN_LIST
  FilterComparison comparison = FilterComparison::EQUAL;  // COMPARE
  Value constant;                     // COMPARE (cast to the column's type when compared)
  std::vector<Value> constants;       // IN_LIST
  std::vector<TableFilter> children;  // AND, OR
  // PREDICATE: the columns it reads and a test of one row holding
  // values[i] in columns[i]; true when that row satisfies it. May throw:
  // a test that fails proves nothing.
  std::vector<idx_t> columns;
  std::function<bool(const std::vector<Value>& values)> predicate;

  static TableFilter Compare(idx_t column, FilterComparison comparison, Value constant);
  static TableFilter IsNull(idx_t column, bool is_null);
  static TableFilter InList(idx_t column, std::vector<Value> constants);
  static TableFilter Conjunction(TableFilterType type, std::vector<TableFilter> children);
  static TableFilter Predicate(std::vector<idx_t> columns, std::function<bool(const std::vector<Value>&)> test);
};

// What storage knows about one column over a set of rows (a file). Anything
// unknown stays unset and then proves nothing.
struct ColumnStatistics {
  LogicalType type;  // the column's type; min, max and constant have it
  // Every row holds `constant` (a partition column; NULL included).
  std::optional<Value> constant;
  // Bounds of the non-NULL values.
  std::optional<Value> min;
  std::optional<Value> max;
  std::optional<int64_t> null_count;
  std::optional<int64_t> row_count;
};

// The statistics of the column at a projected position.
using ColumnStatisticsLookup = std::function<ColumnStatistics(idx_t column)>;

// False only when no row described by `statistics` can satisfy `filter`.
bool FilterMayMatch(const TableFilter& filter, const ColumnStatisticsLookup& statistics);

}  // namespace lakestream
