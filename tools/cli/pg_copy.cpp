#include "pg_copy.hpp"

#include <algorithm>
#include <vector>

#include <re2/re2.h>

#include "lakestream/column_view.hpp"
#include "pg_format.hpp"

namespace lakestream::pg {

namespace {

// COPY's text format: tab between columns, \N for NULL, backslash escapes.
void AppendCopyEscaped(std::string_view text, std::string* out) {
  for (char c : text) {
    switch (c) {
      case '\\': out->append("\\\\"); break;
      case '\t': out->append("\\t"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      default: out->push_back(c);
    }
  }
}

[[noreturn]] void ThrowResultError(const QueryResult& result) {
  throw SqlError(SqlStateOf(result.GetErrorKind(), result.GetError()), result.GetError());
}

void BeginCopyOut(WireConnection& wire, idx_t columns) {
  wire.Begin('H');  // CopyOutResponse, text format
  wire.Bytes(std::string_view("\0", 1));
  wire.Int16(static_cast<int16_t>(columns));
  for (idx_t c = 0; c < columns; c++) wire.Int16(0);
  wire.End();
}

// Every remaining row of `result` as CopyData; the number sent.
int64_t SendCopyRows(WireConnection& wire, QueryResult& result) {
  idx_t columns = result.ColumnCount();
  int64_t rows_sent = 0;
  std::string line;
  std::string cell;
  while (result.FetchNext()) {
    std::vector<ColumnView> views;
    for (idx_t c = 0; c < columns; c++) views.emplace_back(result, c);
    for (idx_t r = 0; r < views[0].RowCount(); r++) {
      line.clear();
      for (idx_t c = 0; c < columns; c++) {
        if (c > 0) line.push_back('\t');
        if (!views[c].IsValid(r)) {
          line.append("\\N");
          continue;
        }
        cell.clear();
        AppendText(views[c], r, &cell);
        AppendCopyEscaped(cell, &line);
      }
      line.push_back('\n');
      wire.Begin('d');
      wire.Bytes(line);
      wire.End();
      rows_sent++;
      if (!wire.MaybeFlush()) throw ProtocolError("the client went away during COPY");
    }
  }
  if (result.HasError()) ThrowResultError(result);
  return rows_sent;
}

void EndCopyOut(WireConnection& wire, const std::string& tag) {
  wire.Begin('c');  // CopyDone
  wire.End();
  wire.Begin('C');
  wire.CString(tag);
  wire.End();
}

}  // namespace

std::string CopyOutQuery(const std::string& sql) {
  // RE2, not std::regex: client text is untrusted, and RE2 matches in linear time without recursion.
  static const RE2 kCopyOut(R"((?i)^\s*copy\s+(\(.*\)|[^\s(]+(?:\s*\([^)]*\))?)\s+to\s+stdout\s*(.*)$)");
  static const RE2 kTextFormat(R"((?i)^(?:with\s*)?(?:\(\s*format\s+'?text'?\s*\))?\s*$)");
  static const RE2 kFromStdin(R"((?i)\s+from\s+stdin)");
  if (RE2::PartialMatch(sql, kFromStdin)) {
    throw SqlError("0A000", "not supported yet: COPY ... FROM STDIN; load with INSERT, or COPY t FROM 'file' on the "
                            "server's side");
  }
  std::string flat = sql;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  std::string source, options;
  if (!RE2::FullMatch(flat, kCopyOut, &source, &options)) return "";
  if (!RE2::FullMatch(options, kTextFormat)) {
    throw SqlError("0A000", "not supported yet: COPY ... TO STDOUT with options " + options +
                                " (only the text format is); drop the options");
  }
  if (source.front() == '(') return source.substr(1, source.size() - 2);
  auto paren = source.find('(');
  std::string columns = paren == std::string::npos ? "*" : source.substr(paren + 1, source.rfind(')') - paren - 1);
  return "SELECT " + columns + " FROM " + source.substr(0, paren);
}

void SendCopyOut(WireConnection& wire, QueryResult& result) {
  if (result.HasError()) ThrowResultError(result);
  if (result.ColumnCount() == 0) {
    throw SqlError("42601", "COPY (...) TO STDOUT needs a query that returns rows, e.g. COPY (SELECT ...) TO STDOUT");
  }
  BeginCopyOut(wire, result.ColumnCount());
  int64_t rows = SendCopyRows(wire, result);
  EndCopyOut(wire, "COPY " + std::to_string(rows));
}

bool ParseSubscribe(const std::string& sql, SubscribeRequest* request) {
  static const RE2 kSubscribe(R"((?i)^\s*subscribe\s+(?:to\s+)?([A-Za-z_][A-Za-z0-9_.]*)(?:\s+from\s+version\s+(\d+))?\s*$)");
  std::string flat = sql;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  std::string table, version;  // version stays "" when the group did not match (it needs a digit)
  if (!RE2::FullMatch(flat, kSubscribe, &table, &version)) return false;
  request->table = table;
  request->from_version = version.empty() ? -1 : std::stoll(version);
  return true;
}

void RunSubscribe(WireConnection& wire, Connection& connection, const SubscribeRequest& request,
                  const std::atomic<bool>& cancelled) {
  std::string name = QuoteIdentifier(request.table);
  std::string literal = request.table;  // table_changes takes the name as a string
  for (size_t i = 0; (i = literal.find('\'', i)) != std::string::npos; i += 2) literal.insert(i, "'");
  auto latest_version = [&]() {
    auto history = connection.Query("DESCRIBE HISTORY " + name);
    if (history->HasError()) ThrowResultError(*history);
    return history->GetValue(0, 0).AsBigint();
  };
  auto columns = connection.Query("DESCRIBE " + name);
  if (columns->HasError()) ThrowResultError(*columns);
  int64_t next = request.from_version >= 0 ? request.from_version : latest_version() + 1;
  BeginCopyOut(wire, columns->RowCount() + 3);  // the table's columns, _change_type, _commit_version, _commit_timestamp
  int64_t rows = 0;
  for (;;) {
    if (!wire.Flush()) throw ProtocolError("the client went away during SUBSCRIBE");
    if (cancelled) throw SqlError("57014", "SUBSCRIBE to " + request.table + " canceled on user request");
    int64_t latest = latest_version();
    if (latest >= next) {
      auto changes = connection.SendQuery("SELECT * FROM table_changes('" + literal + "', " + std::to_string(next) +
                                          ", " + std::to_string(latest) + ") ORDER BY _commit_version");
      if (changes->HasError()) ThrowResultError(*changes);
      rows += SendCopyRows(wire, *changes);
      next = latest + 1;
      continue;
    }
    // Any message from the client (or its hanging up) ends the subscription.
    if (wire.WaitForInput(200)) break;
  }
  EndCopyOut(wire, "SUBSCRIBE " + std::to_string(rows));
}

}  // namespace lakestream::pg
