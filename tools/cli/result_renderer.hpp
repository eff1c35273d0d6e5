// Renders a QueryResult as text for the shell: box (DuckDB-style table), csv,
// json or line mode. Kept free of terminal and I/O state (the caller passes
// the width and the stream) so it can be unit-tested with hand-built results.
//
// Contract, per mode (a result with no columns renders nothing in any mode):
// - BOX: Unicode box drawing; a header row with the column names and a second
//   one with the lower-case type names; numbers right-aligned, everything else
//   left-aligned; NULL shown as NULL; control characters shown escaped (\n, \t)
//   so rows stay one line. The table never exceeds `max_width` display columns:
//   wide columns are first narrowed (values cut with "…"), then middle columns
//   are hidden behind a "…" column. More than `max_rows` rows shows the first
//   and last max_rows/2 rows around a "⋮" row. The footer always says
//   "N rows" / "1 row", plus "(M shown)" and "K columns (J shown)" when cut.
//   EXPLAIN's and EXPLAIN ANALYZE's result (one cell, column physical_plan or
//   analyzed_plan) is printed as its text instead: the plan's tree, one
//   operator per line.
// - CSV: header line, then one line per row, fields separated by ',', quoted
//   per RFC 4180 when they hold ',', '"', CR or LF (quotes doubled); NULL is an
//   empty field, an empty string is "" so the two stay distinguishable. Lines
//   end with "\n".
// - JSON: one array per result, one object per row, keys in column order:
//   [{"a":1,"b":"x"},\n{"a":2,"b":"y"}]\n   (an empty result prints []).
//   Values are encoded by SqlValue::ToJson (NULL -> null).
// - LINE: "name = value" per column, names right-aligned to the longest, with
//   a blank line between rows; NULL as NULL.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "lakestream/result.hpp"
#include "lakestream/tools.hpp"

namespace lakestream {

enum class RenderMode { BOX, CSV, JSON, LINE };

// "box", "csv", "json", "line" -> mode; anything else -> nullopt.
std::optional<RenderMode> ParseRenderMode(std::string_view name);
const char* RenderModeName(RenderMode mode);

struct RenderOptions {
  RenderMode mode = RenderMode::BOX;
  // Display columns available to a box table (the terminal width).
  uint64_t max_width = 120;
  // Rows a box table shows before it cuts the middle out (0 = no limit).
  uint64_t max_rows = 40;
};

// Renders `result` (which must not be an error) to `out`.
void RenderResult(const QueryResult& result, const RenderOptions& options, std::ostream& out);

// Single modes, for tests and callers that know what they want.
void RenderBox(const QueryResult& result, uint64_t max_width, uint64_t max_rows, std::ostream& out);
void RenderCsv(const QueryResult& result, std::ostream& out);
void RenderJson(const QueryResult& result, std::ostream& out);
void RenderLine(const QueryResult& result, std::ostream& out);

// Helpers exposed for tests (DisplayWidth and TruncateToWidth come from
// lakestream/tools.hpp).
// One CSV field with RFC 4180 quoting.
std::string CsvField(std::string_view text);

}  // namespace lakestream
