#include "result_renderer.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>


namespace lakestream {

std::optional<RenderMode> ParseRenderMode(std::string_view name) {
  if (name == "box") return RenderMode::BOX;
  if (name == "csv") return RenderMode::CSV;
  if (name == "json") return RenderMode::JSON;
  if (name == "line") return RenderMode::LINE;
  return std::nullopt;
}

const char* RenderModeName(RenderMode mode) {
  switch (mode) {
    case RenderMode::BOX: return "box";
    case RenderMode::CSV: return "csv";
    case RenderMode::JSON: return "json";
    case RenderMode::LINE: return "line";
  }
  return "box";
}

void RenderResult(const QueryResult& result, const RenderOptions& options, std::ostream& out) {
  switch (options.mode) {
    case RenderMode::BOX: RenderBox(result, options.max_width, options.max_rows, out); break;
    case RenderMode::CSV: RenderCsv(result, out); break;
    case RenderMode::JSON: RenderJson(result, out); break;
    case RenderMode::LINE: RenderLine(result, out); break;
  }
}

// ---- UTF-8 width ----

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// ---- Box ----

namespace {

// Control characters would break the one-line-per-row layout; show them the
// way a user would type them.
std::string EscapeControl(const std::string& s) {
  bool plain = std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (plain) return s;
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\x";
          out += hex[(c >> 4) & 0xF];
          out += hex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out;
}

enum class Align { LEFT, RIGHT, CENTER };

std::string Pad(const std::string& text, uint64_t width, Align align) {
  std::string cut = TruncateToWidth(text, width);
  uint64_t w = DisplayWidth(cut);
  uint64_t gap = width > w ? width - w : 0;
  uint64_t left = align == Align::RIGHT ? gap : align == Align::CENTER ? gap / 2 : 0;
  return std::string(left, ' ') + cut + std::string(gap - left, ' ');
}

std::string Repeat(const char* piece, uint64_t n) {
  std::string out;
  for (uint64_t i = 0; i < n; i++) out += piece;
  return out;
}

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Every row of the result, as (chunk, row in chunk), for the rows we show.
struct RowRef {
  std::shared_ptr<const ResultChunk> chunk;
  idx_t row;
};

std::vector<RowRef> SelectRows(const QueryResult& result, idx_t head, idx_t tail) {
  std::vector<RowRef> rows;
  idx_t total = result.RowCount();
  idx_t global = 0;
  for (idx_t i = 0; i < result.ChunkCount(); i++) {
    idx_t size = result.ChunkRowCount(i);
    // Only chunks with a shown row are converted to values.
    if (global >= head && global + size <= total - tail) {
      global += size;
      continue;
    }
    std::shared_ptr<const ResultChunk> chunk = result.GetChunk(i);
    for (idx_t r = 0; r < size; r++, global++) {
      if (global < head || global >= total - tail) rows.push_back({chunk, r});
    }
  }
  return rows;
}

bool IsNumeric(const ColumnType& type) {
  return type.kind == TypeKind::INTEGER || type.kind == TypeKind::BIGINT || type.kind == TypeKind::DOUBLE ||
         type.kind == TypeKind::DECIMAL;
}

// A column of the drawn table: a result column or the "…" stand-in for hidden ones.
struct BoxColumn {
  bool ellipsis = false;
  idx_t source = 0;
  uint64_t width = 0;
};

uint64_t TableWidth(const std::vector<BoxColumn>& cols) {
  uint64_t total = 1;
  for (auto& c : cols) total += c.width + 3;
  return total;
}

// Narrows the widest column by one cell at a time until the table fits or no
// column is wider than `floor`.
void Narrow(std::vector<BoxColumn>& cols, uint64_t max_width, uint64_t floor) {
  while (TableWidth(cols) > max_width) {
    BoxColumn* widest = nullptr;
    for (auto& c : cols) {
      if (!c.ellipsis && c.width > floor && (!widest || c.width > widest->width)) widest = &c;
    }
    if (!widest) return;
    uint64_t excess = TableWidth(cols) - max_width;
    uint64_t second = floor;
    for (auto& c : cols) {
      if (&c != widest && !c.ellipsis && c.width < widest->width) second = std::max(second, c.width);
    }
    // Jump straight down to the next-widest (or the excess) instead of one cell per loop.
    uint64_t step = std::max<uint64_t>(1, std::min(excess, widest->width - second));
    widest->width -= std::min(step, widest->width - floor);
  }
}

bool IsPlanResult(const QueryResult& result) {
  return result.ColumnCount() == 1 && result.RowCount() == 1 &&
         (result.Names()[0] == "physical_plan" || result.Names()[0] == "analyzed_plan") && !result.GetValue(0, 0).IsNull();
}

std::string PluralRows(idx_t n) { return std::to_string(n) + (n == 1 ? " row" : " rows"); }

}  // namespace

void RenderBox(const QueryResult& result, uint64_t max_width, uint64_t max_rows, std::ostream& out) {
  idx_t ncols = result.ColumnCount();
  if (ncols == 0) return;
  if (IsPlanResult(result)) {
    // EXPLAIN [ANALYZE]: the plan's tree as it is, one operator per line.
    std::string plan = result.GetValue(0, 0).ToString();
    out << plan << (plan.empty() || plan.back() != '\n' ? "\n" : "");
    return;
  }
  if (max_width < 8) max_width = 8;
  idx_t total_rows = result.RowCount();
  bool cut_rows = max_rows > 0 && total_rows > max_rows;
  idx_t head = cut_rows ? (max_rows + 1) / 2 : total_rows;
  idx_t tail = cut_rows ? max_rows / 2 : 0;
  auto rows = SelectRows(result, head, tail);

  // Text of every shown cell, computed once.
  std::vector<std::string> names(ncols), types(ncols);
  std::vector<std::vector<std::string>> cells(rows.size(), std::vector<std::string>(ncols));
  std::vector<BoxColumn> all(ncols);
  for (idx_t c = 0; c < ncols; c++) {
    names[c] = EscapeControl(result.Names()[c]);
    types[c] = Lower(result.ColumnTypes()[c].ToString());
    all[c].source = c;
    all[c].width = std::max<uint64_t>({1, DisplayWidth(names[c]), DisplayWidth(types[c])});
  }
  for (size_t r = 0; r < rows.size(); r++) {
    for (idx_t c = 0; c < ncols; c++) {
      const SqlValue& v = rows[r].chunk->GetValue(c, rows[r].row);
      cells[r][c] = v.IsNull() ? "NULL" : EscapeControl(v.ToString());
      all[c].width = std::max(all[c].width, DisplayWidth(cells[r][c]));
    }
  }

  // Fit the width: narrow long columns to a readable floor, then hide middle
  // columns, then narrow whatever is left as far as needed.
  std::vector<BoxColumn> cols = all;
  Narrow(cols, max_width, 20);
  if (TableWidth(cols) > max_width && ncols > 1) {
    std::vector<bool> keep(ncols, true);
    idx_t kept = ncols;
    auto build = [&]() {
      std::vector<BoxColumn> v;
      bool gap_added = false;
      for (idx_t c = 0; c < ncols; c++) {
        if (keep[c]) {
          v.push_back(all[c]);
          v.back().width = std::min<uint64_t>(all[c].width, 20);
        } else if (!gap_added) {
          v.push_back(BoxColumn{true, 0, 1});
          gap_added = true;
        }
      }
      return v;
    };
    // Remove from the middle outwards so the first and last columns stay.
    idx_t mid = ncols / 2;
    for (idx_t k = 0; kept > 1 && TableWidth(cols) > max_width; k++) {
      idx_t c = (k % 2 == 0) ? mid + k / 2 : mid - 1 - k / 2;
      if (c >= ncols) continue;
      if (keep[c]) {
        keep[c] = false;
        kept--;
      }
      cols = build();
    }
  }
  Narrow(cols, max_width, 1);
  idx_t shown_cols = 0;
  for (auto& c : cols) shown_cols += c.ellipsis ? 0 : 1;

  std::string footer = PluralRows(total_rows);
  if (cut_rows) footer += " (" + std::to_string(rows.size()) + " shown)";
  std::string footer_right;
  if (shown_cols < ncols) {
    footer_right = std::to_string(ncols) + " columns (" + std::to_string(shown_cols) + " shown)";
  }
  // The footer spans the whole table; widen the last column if it does not fit.
  uint64_t need = DisplayWidth(footer) + (footer_right.empty() ? 0 : 2 + DisplayWidth(footer_right));
  uint64_t inner = TableWidth(cols) - 4;
  if (need > inner) cols.back().width += need - inner, inner = need;

  auto border = [&](const char* left, const char* mid, const char* right) {
    std::string line = left;
    for (size_t i = 0; i < cols.size(); i++) {
      if (i) line += mid;
      line += Repeat("─", cols[i].width + 2);
    }
    return line + right + "\n";
  };
  auto row_line = [&](auto&& text_of, auto&& align_of) {
    std::string line = "│";
    for (auto& col : cols) line += " " + Pad(text_of(col), col.width, align_of(col)) + " │";
    return line + "\n";
  };
  auto center = [](const BoxColumn&) { return Align::CENTER; };

  std::string s = border("┌", "┬", "┐");
  s += row_line([&](const BoxColumn& c) { return c.ellipsis ? std::string("…") : names[c.source]; }, center);
  s += row_line([&](const BoxColumn& c) { return c.ellipsis ? std::string("…") : types[c.source]; }, center);
  s += border("├", "┼", "┤");
  auto value_align = [&](const BoxColumn& c) {
    return !c.ellipsis && IsNumeric(result.ColumnTypes()[c.source]) ? Align::RIGHT : Align::LEFT;
  };
  for (size_t r = 0; r < rows.size(); r++) {
    if (cut_rows && r == head) {
      s += row_line([](const BoxColumn&) { return std::string("⋮"); }, center);
    }
    s += row_line([&](const BoxColumn& c) { return c.ellipsis ? std::string("…") : cells[r][c.source]; }, value_align);
  }
  s += border("├", "┴", "┤");
  uint64_t gap = inner - DisplayWidth(footer) - DisplayWidth(footer_right);
  s += "│ " + footer + std::string(gap, ' ') + footer_right + " │\n";
  s += "└" + Repeat("─", inner + 2) + "┘\n";
  out << s;
}

// ---- CSV / JSON / line ----

void RenderCsv(const QueryResult& result, std::ostream& out) {
  idx_t ncols = result.ColumnCount();
  if (ncols == 0) return;
  std::string line;
  for (idx_t c = 0; c < ncols; c++) {
    if (c) line += ',';
    line += CsvField(result.Names()[c]);
  }
  out << line << '\n';
  for (idx_t i = 0; i < result.ChunkCount(); i++) {
    auto chunk = result.GetChunk(i);
    for (idx_t r = 0; r < chunk->RowCount(); r++) {
      line.clear();
      for (idx_t c = 0; c < ncols; c++) {
        if (c) line += ',';
        const SqlValue& v = chunk->GetValue(c, r);
        if (v.IsNull()) continue;
        std::string text = v.ToString();
        line += text.empty() ? "\"\"" : CsvField(text);
      }
      out << line << '\n';
    }
  }
}

void RenderJson(const QueryResult& result, std::ostream& out) {
  idx_t ncols = result.ColumnCount();
  if (ncols == 0) return;
  // Keys are encoded once; rows are written compactly like DuckDB's -json.
  std::vector<std::string> keys(ncols);
  for (idx_t c = 0; c < ncols; c++) {
    keys[c] = SqlValue::Varchar(result.Names()[c]).ToJson();
    keys[c] += ':';
  }
  std::string s = "[";
  bool first = true;
  for (idx_t i = 0; i < result.ChunkCount(); i++) {
    auto chunk = result.GetChunk(i);
    for (idx_t r = 0; r < chunk->RowCount(); r++) {
      if (!first) s += ",\n";
      first = false;
      s += '{';
      for (idx_t c = 0; c < ncols; c++) {
        if (c) s += ',';
        s += keys[c];
        s += chunk->GetValue(c, r).ToJson();
      }
      s += '}';
    }
    out << s;
    s.clear();
  }
  out << s << "]\n";
}

void RenderLine(const QueryResult& result, std::ostream& out) {
  idx_t ncols = result.ColumnCount();
  if (ncols == 0) return;
  uint64_t name_width = 0;
  for (auto& n : result.Names()) name_width = std::max(name_width, DisplayWidth(n));
  bool first = true;
  for (idx_t i = 0; i < result.ChunkCount(); i++) {
    auto chunk = result.GetChunk(i);
    for (idx_t r = 0; r < chunk->RowCount(); r++) {
      if (!first) out << '\n';
      first = false;
      for (idx_t c = 0; c < ncols; c++) {
        const auto& name = result.Names()[c];
        const SqlValue& v = chunk->GetValue(c, r);
        out << std::string(name_width - DisplayWidth(name), ' ') << name << " = " << v.ToString() << '\n';
      }
    }
  }
}

}  // namespace lakestream
