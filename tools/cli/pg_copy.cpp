#include "pg_copy.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <re2/re2.h>

#include "lakestream/column_view.hpp"
#include "lakestream/columnar_table.hpp"
#include "lakestream/utf8.hpp"
#include "pg_format.hpp"

namespace lakestream::pg {

namespace {

[[noreturn]] void ThrowResultError(const QueryResult& result) {
  throw SqlError(SqlStateOf(result.GetErrorKind(), result.GetError()), result.GetError());
}

void BeginCopyOut(WireConnection& wire, size_t columns) {
  wire.Begin('H');  // CopyOutResponse, text format
  wire.Bytes(std::string_view("\0", 1));
  wire.Int16(static_cast<int16_t>(columns));
  for (idx_t c = 0; c < columns; c++) wire.Int16(0);
  wire.End();
}

// Every remaining row of `result` as CopyData; the number sent.
int64_t SendCopyRows(WireConnection& wire, QueryResult& result, const CopyFormat& format) {
  idx_t columns = result.ColumnCount();
  int64_t rows_sent = 0;
  std::string line;
  std::vector<std::optional<std::string>> fields(columns);
  while (result.FetchNext()) {
    std::vector<ColumnView> views;
    for (idx_t c = 0; c < columns; c++) views.emplace_back(result, c);
    for (idx_t r = 0; r < views[0].RowCount(); r++) {
      for (idx_t c = 0; c < columns; c++) {
        if (!views[c].IsValid(r)) {
          fields[c].reset();
          continue;
        }
        fields[c].emplace();
        AppendText(views[c], r, &*fields[c]);
      }
      line.clear();
      AppendCopyLine(format, fields, &line);
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

void SendCopyOut(WireConnection& wire, QueryResult& result, const CopyFormat& format) {
  if (result.HasError()) ThrowResultError(result);
  if (result.ColumnCount() == 0) {
    throw SqlError("42601", "COPY (...) TO STDOUT needs a query that returns rows, e.g. COPY (SELECT ...) TO STDOUT");
  }
  BeginCopyOut(wire, result.ColumnCount());
  if (format.header) {
    std::vector<std::optional<std::string>> names;
    for (idx_t c = 0; c < result.ColumnCount(); c++) names.emplace_back(result.Names()[c]);
    std::string line;
    AppendCopyLine(format, names, &line);
    wire.Begin('d');
    wire.Bytes(line);
    wire.End();
  }
  int64_t rows = SendCopyRows(wire, result, format);
  EndCopyOut(wire, "COPY " + std::to_string(rows));
}

namespace {

constexpr const char* kCopyInTable = "__pg_copy_in";

// The client's CopyData up to CopyDone. CopyFail, or data past the limit
// (read to its end first, so that the session stays in step), is an error.
std::string ReceiveCopyData(WireConnection& wire, const std::string& table) {
  std::string data;
  bool too_big = false;
  char type;
  std::string body;
  for (;;) {
    if (!wire.ReadMessage(&type, &body)) throw ProtocolError("the client went away during COPY FROM STDIN");
    if (type == 'd') {
      if (data.size() + body.size() > kMaxCopyInBytes) too_big = true;
      if (!too_big) data += body;
    } else if (type == 'c') {
      break;
    } else if (type == 'f') {
      MessageReader in(body);
      throw SqlError("57014", "COPY " + table + " FROM STDIN failed: " + in.CString("message") + " (nothing loaded)");
    } else if (type != 'H' && type != 'S') {  // Flush and Sync mean nothing inside COPY IN
      throw ProtocolError("unexpected message type '" + std::string(1, type) + "' during COPY FROM STDIN");
    }
  }
  if (too_big) {
    throw SqlError("54000", "COPY " + table + " FROM STDIN: more than " + std::to_string(kMaxCopyInBytes >> 20) +
                                " MiB of data in one COPY (nothing loaded); split the input into several COPYs");
  }
  return data;
}

// The parsed rows as a table of text columns c0..cN and their input lines.
ColumnarTable TextColumns(const CopyRows& parsed) {
  ColumnarTable table;
  size_t rows = parsed.RowCount();
  std::vector<std::string_view> values(rows);
  for (size_t c = 0; c < parsed.columns.size(); c++) {
    const CopyColumn& column = parsed.columns[c];
    for (size_t r = 0; r < rows; r++) values[r] = column.Value(r);
    table.AddStrings("c" + std::to_string(c), values.data(), column.valid.data(), rows);
  }
  table.AddBigints("line", parsed.line_of_row.data(), nullptr, rows);
  return table;
}

// After an INSERT failed on a conversion: the first line and column whose
// value does not convert, as a message; "" when none is found.
std::string FirstBadValue(Connection& connection, const QueryResult& target) {
  for (idx_t c = 0; c < target.ColumnCount(); c++) {
    std::string column = "c" + std::to_string(c);
    std::string type = target.ColumnTypes()[c].ToString();
    auto bad = connection.Query("SELECT line, " + column + " FROM " + kCopyInTable + " WHERE " + column +
                                " IS NOT NULL AND TRY_CAST(" + column + " AS " + type + ") IS NULL ORDER BY line LIMIT 1");
    if (bad->HasError() || bad->RowCount() == 0) continue;
    return "line " + bad->GetValue(0, 0).ToString() + ", column " + target.Names()[c] + ": '" +
           bad->GetValue(1, 0).ToString() + "' is not a valid " + type;
  }
  return "";
}

}  // namespace

int64_t RunCopyIn(WireConnection& wire, Connection& connection, const CopyStatement& statement) {
  std::string columns;
  for (auto& column : statement.columns) columns += (columns.empty() ? "" : ", ") + column;
  // The target's columns and types; a missing table or column fails here, before CopyInResponse.
  auto target = connection.Query("SELECT " + (columns.empty() ? std::string("*") : columns) + " FROM " +
                                 statement.table + " LIMIT 0");
  if (target->HasError()) ThrowResultError(*target);
  size_t width = target->ColumnCount();
  wire.Begin('G');  // CopyInResponse, text format
  wire.Bytes(std::string_view("\0", 1));
  wire.Int16(static_cast<int16_t>(width));
  for (size_t c = 0; c < width; c++) wire.Int16(0);
  wire.End();
  if (!wire.Flush()) throw ProtocolError("the client went away during COPY FROM STDIN");

  std::string data = ReceiveCopyData(wire, statement.table);
  // The data must be UTF-8 (client_encoding is UTF8), as PostgreSQL checks it.
  size_t bad = FindInvalidUtf8(data);
  if (bad != std::string::npos) {
    throw SqlError("22021", "COPY " + statement.table + " FROM STDIN: the data is not valid UTF-8 (" +
                                DescribeInvalidUtf8(data, bad) + "); send it as UTF-8 (nothing loaded)");
  }
  CopyRows parsed;
  try {
    parsed = DecodeCopyData(statement.format, data, width);
  } catch (SqlError& e) {
    throw SqlError(e.SqlState(), "COPY " + statement.table + " FROM STDIN, " + e.what() + " (nothing loaded)");
  }
  data.clear();
  if (parsed.RowCount() == 0) return 0;
  connection.RegisterTable(kCopyInTable, TextColumns(parsed));
  std::string select;
  for (size_t c = 0; c < width; c++) select += (c > 0 ? ", c" : "c") + std::to_string(c);
  // An INSERT from one scan runs on one thread, so the rows land in the input's order (test_copy.py checks).
  auto inserted = connection.Query("INSERT INTO " + statement.table + (columns.empty() ? "" : " (" + columns + ")") +
                                   " SELECT " + select + " FROM " + kCopyInTable);
  std::string bad_value;
  if (inserted->HasError() && inserted->GetErrorKind() == ErrorKind::CONVERSION) {
    bad_value = FirstBadValue(connection, *target);
  }
  connection.UnregisterTable(kCopyInTable);
  if (!bad_value.empty()) {
    throw SqlError("22P02", "COPY " + statement.table + " FROM STDIN: " + bad_value + " (nothing loaded)");
  }
  if (inserted->HasError()) ThrowResultError(*inserted);
  return static_cast<int64_t>(parsed.RowCount());
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

namespace {

// A possibly schema-qualified name as SQL: each part quoted.
std::string QuoteQualified(const std::string& dotted) {
  std::string out;
  size_t start = 0;
  for (size_t dot = 0; dot != std::string::npos; start = dot + 1) {
    dot = dotted.find('.', start);
    out += (out.empty() ? "" : ".") + QuoteIdentifier(dotted.substr(start, dot == std::string::npos ? dot : dot - start));
  }
  return out;
}

// What a SUBSCRIBE reads: the change feed of `table` (a table or materialized
// view) from `from_version` (-1: after now); for a stream, its source's feed
// from the stream's offset on, so the client sees, change by change, what
// the stream would deliver, without consuming it.
struct SubscribeSource {
  std::string table;
  int64_t from_version = -1;
  bool inserts_only = false;  // an APPEND_ONLY stream
};

SubscribeSource ResolveSubscribe(Connection& connection, const SubscribeRequest& request) {
  SubscribeSource source{request.table, request.from_version, false};
  size_t dot = request.table.rfind('.');
  std::string schema = dot == std::string::npos ? "" : request.table.substr(0, dot);
  std::string name = request.table.substr(dot == std::string::npos ? 0 : dot + 1);
  auto streams = connection.Query("SHOW STREAMS" + (schema.empty() ? "" : " IN " + QuoteQualified(schema)));
  if (streams->HasError()) return source;
  const auto& columns = streams->Names();
  auto column = [&](const char* wanted) {
    return static_cast<idx_t>(std::find(columns.begin(), columns.end(), wanted) - columns.begin());
  };
  for (idx_t r = 0; r < streams->RowCount(); r++) {
    if (streams->GetValue(column("name"), r).ToString() != name) continue;
    if (request.from_version >= 0) {
      throw SqlError("42601", "SUBSCRIBE TO stream " + request.table +
                                  " starts at the stream's offset; drop FROM VERSION (or subscribe to its source)");
    }
    if (streams->GetValue(column("stale"), r).ToString() == "true") {
      throw SqlError("55000", "stream " + request.table + " is stale (" +
                                  streams->GetValue(column("stale_reason"), r).ToString() +
                                  "); recreate it with CREATE OR REPLACE STREAM");
    }
    if (streams->GetValue(column("show_initial_rows"), r).ToString() == "true") {
      throw SqlError("0A000", "not supported yet: SUBSCRIBE TO a stream with SHOW_INITIAL_ROWS; subscribe to its "
                              "source table, or consume the initial rows first");
    }
    std::string table = streams->GetValue(column("table_name"), r).ToString();
    source.table = schema.empty() ? table : schema + "." + table;
    source.from_version = streams->GetValue(column("offset_version"), r).AsBigint() + 1;
    source.inserts_only = streams->GetValue(column("mode"), r).ToString() == "APPEND_ONLY";
  }
  return source;
}

}  // namespace

void RunSubscribe(WireConnection& wire, Connection& connection, const SubscribeRequest& request,
                  const std::atomic<bool>& cancelled) {
  SubscribeSource source = ResolveSubscribe(connection, request);
  std::string name = QuoteQualified(source.table);
  std::string literal = source.table;  // table_changes takes the name as a string
  for (size_t i = 0; (i = literal.find('\'', i)) != std::string::npos; i += 2) literal.insert(i, "'");
  auto latest_version = [&]() {
    auto history = connection.Query("DESCRIBE HISTORY " + name);
    if (history->HasError()) ThrowResultError(*history);
    return history->GetValue(0, 0).AsBigint();
  };
  auto columns = connection.Query("DESCRIBE " + name);
  if (columns->HasError()) ThrowResultError(*columns);
  int64_t next = source.from_version >= 0 ? source.from_version : latest_version() + 1;
  BeginCopyOut(wire, columns->RowCount() + 3);  // the table's columns, _change_type, _commit_version, _commit_timestamp
  int64_t rows = 0;
  for (;;) {
    if (!wire.Flush()) throw ProtocolError("the client went away during SUBSCRIBE");
    if (cancelled) throw SqlError("57014", "SUBSCRIBE to " + request.table + " canceled on user request");
    int64_t latest = latest_version();
    if (latest >= next) {
      auto changes = connection.SendQuery("SELECT * FROM table_changes('" + literal + "', " + std::to_string(next) +
                                          ", " + std::to_string(latest) + ")" +
                                          (source.inserts_only ? " WHERE _change_type = 'insert'" : "") +
                                          " ORDER BY _commit_version");
      if (changes->HasError()) ThrowResultError(*changes);
      rows += SendCopyRows(wire, *changes, CopyFormat{});
      next = latest + 1;
      continue;
    }
    // Any message from the client (or its hanging up) ends the subscription.
    if (wire.WaitForInput(200)) break;
  }
  EndCopyOut(wire, "SUBSCRIBE " + std::to_string(rows));
}

}  // namespace lakestream::pg
