// Window functions as the binder resolves them (planner/bind_window.cpp) and
// the window operator evaluates them (execution/operator/physical_window.*).
//
// A WINDOW operator evaluates a list of input expressions over its child's
// rows (arguments, PARTITION BY and ORDER BY keys, frame bounds); each
// BoundWindow names its inputs by position in that list, so equal keys
// shared by several windows are evaluated once and the optimizer sees every
// column the operator reads as an ordinary expression.
#pragma once

#include <string>
#include <vector>

#include "function/aggregate_function.hpp"
#include "parser/ast.hpp"

namespace lakestream {

enum class WindowKind : uint8_t {
  ROW_NUMBER,
  RANK,
  DENSE_RANK,
  PERCENT_RANK,
  CUME_DIST,
  NTILE,        // arguments: [buckets]
  LAG,          // arguments: [value, offset, default]
  LEAD,         // arguments: [value, offset, default]
  FIRST_VALUE,  // arguments: [value]
  LAST_VALUE,   // arguments: [value]
  NTH_VALUE,    // arguments: [value, n]
  AGGREGATE,    // arguments: [value] (none for count(*)); `aggregate` says which
};

// The window-only function `lower_name` names, or false.
bool LookupWindowFunction(const std::string& lower_name, WindowKind& kind);

// Whether the function's value depends on the frame (the others read the
// partition and the row's position or peers only).
bool UsesFrame(WindowKind kind);

struct BoundWindowOrder {
  idx_t input = 0;  // the key's input expression
  bool descending = false;
  bool nulls_first = false;
};

// The frame, resolved: for ROWS an offset bound names an input holding the
// offset (a BIGINT >= 0); for RANGE it names an input holding the bound's
// value (the order key -/+ the offset, computed by the engine's own
// arithmetic) and range_key an input holding the key in that value's type.
struct BoundWindowFrame {
  bool range = true;
  WindowBoundary start = WindowBoundary::UNBOUNDED_PRECEDING;
  WindowBoundary end = WindowBoundary::CURRENT_ROW;
  idx_t start_input = 0;
  idx_t end_input = 0;
  idx_t range_key = 0;
};

struct BoundWindow {
  WindowKind kind = WindowKind::ROW_NUMBER;
  std::string name;  // as written, for EXPLAIN and errors
  LogicalType return_type;
  AggregateSignature aggregate{AggregateKind::COUNT_STAR, "", LogicalType(), LogicalType()};  // AGGREGATE
  std::vector<idx_t> arguments;
  std::vector<idx_t> partitions;
  std::vector<BoundWindowOrder> orders;
  BoundWindowFrame frame;
  bool ignore_nulls = false;  // FIRST_VALUE, LAST_VALUE, NTH_VALUE, LAG, LEAD
};

}  // namespace lakestream
