// SQL cursors on the session's side (pg_cursor.hpp has their grammar): a
// cursor is a portal named as the cursor, whose rows are all computed at
// DECLARE.
#include <re2/re2.h>

#include <iterator>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "lakestream/columnar_table.hpp"

#include "pg_cursor.hpp"
#include "pg_format.hpp"
#include "pg_session_impl.hpp"

namespace lakestream::pg {

const QueryResult* Session::RowsOf(const Portal& portal) {
  if (!portal.fetch_from.empty()) {
    auto it = portals_.find(portal.fetch_from);
    return portal.move || it == portals_.end() ? nullptr : it->second.result.get();
  }
  return portal.result && portal.result->ColumnCount() > 0 && !portal.row_change ? portal.result.get() : nullptr;
}

void Session::CloseCursors(bool with_hold) {
  for (auto it = portals_.begin(); it != portals_.end();) {
    it = it->second.is_cursor && (with_hold || !it->second.hold) ? portals_.erase(it) : std::next(it);
  }
}

bool Session::RunCursorCommand(Portal& portal) {
  std::optional<CursorCommand> command = ParseCursorCommand(portal.sql);
  if (!command) return false;
  portal.ran = true;
  const std::string& name = command->name;
  switch (command->kind) {
    case CursorCommand::Kind::DECLARE: {
      if (!command->hold && tx_status_ == 'I') {
        throw SqlError("25P01", "DECLARE CURSOR can only be used in transaction blocks: BEGIN first, or declare it "
                                "WITH HOLD (psycopg: a named cursor outside autocommit, or withhold=True)");
      }
      if (portals_.count(name)) throw SqlError("42P03", "cursor \"" + name + "\" already exists; CLOSE " + name + " first");
      std::string kw = LeadingKeywords(command->query, 1);
      if (kw != "SELECT" && kw != "WITH" && kw != "VALUES" && kw != "TABLE" && kw != "FROM") {
        throw SqlError("42601", "DECLARE CURSOR takes a query (SELECT, WITH, VALUES, TABLE, FROM), not " + kw);
      }
      Portal cursor;
      cursor.sql = command->query;
      cursor.params = portal.params;
      cursor.is_cursor = true;
      cursor.hold = command->hold;
      if (command->binary) cursor.formats = {1};
      RunPortal(cursor);
      // Every row now: the statement lock is released, so other sessions and
      // this one's other statements run between FETCHes.
      cursor.result->RowCount();
      ThrowIfFailed(*cursor.result);
      portals_[name] = std::move(cursor);
      portal.tag = "DECLARE CURSOR";
      break;
    }
    case CursorCommand::Kind::FETCH:
    case CursorCommand::Kind::MOVE: {
      auto it = portals_.find(name);
      if (it == portals_.end() || !it->second.is_cursor) {
        if (tx_status_ == 'T') tx_status_ = 'E';
        throw SqlError("34000", "cursor \"" + name + "\" does not exist; DECLARE it first");
      }
      portal.fetch_from = name;
      portal.fetch_count = command->all ? 0 : command->count;
      portal.move = command->kind == CursorCommand::Kind::MOVE;
      return true;
    }
    case CursorCommand::Kind::CLOSE: {
      if (command->all) {
        CloseCursors(true);
        portal.tag = "CLOSE CURSOR ALL";
        break;
      }
      auto it = portals_.find(name);
      if (it == portals_.end() || !it->second.is_cursor) {
        if (tx_status_ == 'T') tx_status_ = 'E';
        throw SqlError("34000", "cursor \"" + name + "\" does not exist");
      }
      portals_.erase(it);
      portal.tag = "CLOSE CURSOR";
      break;
    }
  }
  portal.done = true;
  return true;
}

std::string Session::WithCursorView(const std::string& sql) {
  static const RE2 kName(R"((?i)\b(?:pg_catalog\s*\.\s*)?pg_cursors\b)");
  if (!RE2::PartialMatch(sql, kName)) return sql;
  std::vector<std::string_view> names;
  std::vector<std::string_view> statements;
  // std::vector<bool> has no data(): one byte per flag.
  std::unique_ptr<bool[]> holdable(new bool[portals_.size() + 1]);
  std::unique_ptr<bool[]> binary(new bool[portals_.size() + 1]);
  std::unique_ptr<bool[]> scrollable(new bool[portals_.size() + 1]);
  for (auto& [name, portal] : portals_) {
    if (!portal.is_cursor) continue;
    holdable[names.size()] = portal.hold;
    binary[names.size()] = portal.formats.size() == 1 && portal.formats[0] == 1;
    scrollable[names.size()] = false;
    names.emplace_back(name);
    statements.emplace_back(portal.sql);
  }
  ColumnarTable table;
  table.AddStrings("name", names.data(), nullptr, names.size());
  table.AddStrings("statement", statements.data(), nullptr, statements.size());
  table.AddBooleans("is_holdable", holdable.get(), nullptr, names.size());
  table.AddBooleans("is_binary", binary.get(), nullptr, names.size());
  table.AddBooleans("is_scrollable", scrollable.get(), nullptr, names.size());
  connection_->RegisterTable("__pg_cursors", std::move(table));
  std::string rewritten = sql;
  RE2::GlobalReplace(&rewritten, kName, "__pg_cursors");
  return rewritten;
}

}  // namespace lakestream::pg
