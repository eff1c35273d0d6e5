// The extended query protocol of a `lakestream serve` session (Parse, Bind,
// Describe, Execute, Close) and the rows of a result on the wire.
#include <algorithm>
#include <iterator>

#include "lakestream/column_view.hpp"
#include "lakestream/utf8.hpp"
#include "pg_copy_format.hpp"
#include "pg_format.hpp"
#include "pg_session_impl.hpp"

namespace lakestream::pg {

namespace {

bool IsBinary(const std::vector<int16_t>& formats, idx_t column) {
  if (formats.size() == 1) return formats[0] == 1;
  return column < formats.size() && formats[column] == 1;
}

// COPY FROM STDIN / TO STDOUT, which the session runs itself (Session::Copy).
bool IsWireCopy(const std::string& sql) {
  CopyStatement statement;
  return LeadingKeywords(sql, 1) == "COPY" && ParseCopyStatement(sql, &statement);
}

}  // namespace

void Session::SendRowDescription(const QueryResult& result, const std::vector<int16_t>& formats) {
  wire_.Begin('T');
  wire_.Int16(static_cast<int16_t>(result.ColumnCount()));
  for (idx_t c = 0; c < result.ColumnCount(); c++) {
    auto& type = result.ColumnTypes()[c];
    int32_t oid = OidOf(type);
    wire_.CString(result.Names()[c]);
    wire_.Int32(0);  // table oid
    wire_.Int16(0);  // column number
    wire_.Int32(oid);
    wire_.Int16(TypeSizeOf(oid));
    wire_.Int32(TypeModOf(type));
    wire_.Int16(IsBinary(formats, c) ? 1 : 0);
  }
  wire_.End();
}

bool Session::SendRows(Portal& portal, int64_t max_rows) {
  if (!portal.tag.empty() && !portal.result) {
    wire_.Begin('C');
    wire_.CString(portal.tag);
    wire_.End();
    return true;
  }
  if (!portal.fetch_from.empty()) {
    auto it = portals_.find(portal.fetch_from);
    if (it == portals_.end()) throw SqlError("34000", "cursor \"" + portal.fetch_from + "\" does not exist");
    Portal& cursor = it->second;
    int64_t before = cursor.rows_sent;
    SendDataRows(cursor, portal.formats.empty() ? cursor.formats : portal.formats, portal.fetch_count, !portal.move);
    ThrowIfFailed(*cursor.result);
    wire_.Begin('C');
    wire_.CString((portal.move ? "MOVE " : "FETCH ") + std::to_string(cursor.rows_sent - before));
    wire_.End();
    portal.done = true;
    return true;
  }
  auto& result = *portal.result;
  if (portal.row_change) {
    int64_t n = 0;
    auto chunk = result.FetchChunk();
    if (chunk && chunk->RowCount() > 0) n = chunk->GetValue(0, 0).AsBigint();
    wire_.Begin('C');
    wire_.CString(CommandTag(portal.sql, result, n));
    wire_.End();
    portal.done = true;
    return true;
  }
  if (SendDataRows(portal, portal.formats, max_rows, true)) {
    wire_.Begin('s');  // PortalSuspended
    wire_.End();
    return true;
  }
  ThrowIfFailed(result);
  wire_.Begin('C');
  wire_.CString(!portal.tag.empty() ? portal.tag : CommandTag(portal.sql, result, portal.rows_sent));
  wire_.End();
  return true;
}

void Session::ThrowIfFailed(const QueryResult& result) {
  if (!result.HasError()) return;
  if (tx_status_ == 'T') tx_status_ = 'E';
  throw SqlError(SqlStateOf(result.GetErrorKind(), result.GetError()), result.GetError());
}

bool Session::SendDataRows(Portal& source, const std::vector<int16_t>& formats, int64_t max_rows, bool send) {
  auto& result = *source.result;
  int64_t sent_now = 0;
  idx_t columns = result.ColumnCount();
  if (!formats.empty() && formats.size() != 1 && formats.size() != columns) {
    throw SqlError("08P01", "Bind gave " + std::to_string(formats.size()) + " result formats for " +
                                std::to_string(columns) + " columns; give none, one, or one per column");
  }
  std::vector<bool> binary;
  for (idx_t c = 0; c < columns; c++) binary.push_back(IsBinary(formats, c));
  std::string cell;
  while (!source.done) {
    if (!source.have_chunk) {
      if (columns == 0 || !result.FetchNext()) {
        source.done = true;
        break;
      }
      source.have_chunk = true;
      source.chunk_row = 0;
    }
    std::vector<ColumnView> views;
    views.reserve(columns);
    for (idx_t c = 0; c < columns; c++) views.emplace_back(result, c);
    idx_t rows = views.empty() ? 0 : views[0].RowCount();
    for (; source.chunk_row < rows; source.chunk_row++) {
      if (max_rows > 0 && sent_now == max_rows) return true;
      sent_now++;
      source.rows_sent++;
      if (!send) continue;
      wire_.Begin('D');
      wire_.Int16(static_cast<int16_t>(columns));
      for (idx_t c = 0; c < columns; c++) {
        auto& view = views[c];
        if (!view.IsValid(source.chunk_row)) {
          wire_.Int32(-1);
          continue;
        }
        cell.clear();
        if (binary[c]) {
          AppendBinary(view, source.chunk_row, &cell);
        } else {
          AppendText(view, source.chunk_row, &cell);
        }
        wire_.Int32(static_cast<int32_t>(cell.size()));
        wire_.Bytes(cell);
      }
      wire_.End();
      if (!wire_.MaybeFlush()) throw ProtocolError("the client went away while rows were sent");
    }
    source.have_chunk = false;
  }
  return false;
}

void Session::CountParameters(Statement& statement) {
  if (statement.counted) return;
  auto prepared = connection_->Prepare(statement.sql);
  if (prepared->HasError()) throw SqlError("42601", prepared->GetError());
  statement.param_oids.resize(std::max<size_t>(statement.param_oids.size(), prepared->ParameterCount()), 0);
  statement.counted = true;
}

void Session::Parse(MessageReader& in) {
  std::string name = in.CString("statement name");
  Statement statement;
  statement.sql = in.CString("query");
  int16_t n = in.Int16("parameter type count");
  for (int16_t i = 0; i < n; i++) statement.param_oids.push_back(in.Int32("parameter type"));
  if (!name.empty() && statements_.count(name)) {
    throw SqlError("42P05", "prepared statement \"" + name + "\" already exists; Close it first");
  }
  // Splitting parses the text: done only when there may be several statements.
  std::vector<std::string> parts{statement.sql};
  if (LeadingKeywords(statement.sql, 1).empty()) {
    parts.clear();
  } else if (statement.sql.find(';') != std::string::npos) {
    try {
      parts = SplitStatements(statement.sql);
    } catch (std::invalid_argument& e) {
      throw SqlError("42601", e.what());
    }
  }
  if (parts.size() > 1) {
    throw SqlError("42601", "cannot insert multiple commands into a prepared statement; send them one at a time");
  }
  // Statements the server may answer itself are checked when they run.
  static const char* const kOurs[] = {"SET",     "SHOW",    "BEGIN",      "START",     "COMMIT",  "END",
                                      "ROLLBACK", "ABORT",  "DISCARD",    "RESET",     "DEALLOCATE", "SUBSCRIBE",
                                      "DECLARE", "FETCH",   "MOVE",       "CLOSE",     "COPY",    "SAVEPOINT",
                                      "RELEASE"};
  std::string kw = parts.empty() ? "" : LeadingKeywords(parts[0], 1);
  bool ours = std::find(std::begin(kOurs), std::end(kOurs), kw) != std::end(kOurs);
  // The unnamed statement (one-shot queries: psycopg, JDBC) is parsed when
  // it runs, or when Describe asks for its parameters; a named one now.
  statement.counted = parts.empty() || ours;
  if (!name.empty()) CountParameters(statement);
  statements_[name] = std::move(statement);
  wire_.Begin('1');  // ParseComplete
  wire_.End();
}

void Session::Bind(MessageReader& in) {
  std::string portal_name = in.CString("portal name");
  std::string statement_name = in.CString("statement name");
  auto it = statements_.find(statement_name);
  if (it == statements_.end()) {
    throw SqlError("26000", "prepared statement \"" + statement_name + "\" does not exist; Parse it first");
  }
  auto& statement = it->second;
  int16_t nformats = in.Int16("parameter format count");
  std::vector<int16_t> formats;
  for (int16_t i = 0; i < nformats; i++) formats.push_back(in.Int16("parameter format"));
  int16_t nparams = in.Int16("parameter count");
  Portal portal;
  portal.sql = statement.sql;
  for (int16_t i = 0; i < nparams; i++) {
    int32_t len = in.Int32("parameter length");
    int32_t oid = static_cast<size_t>(i) < statement.param_oids.size() ? statement.param_oids[i] : 0;
    if (len < 0) {
      portal.params.emplace_back();
      continue;
    }
    std::string bytes(in.Bytes(static_cast<size_t>(len), "parameter value"));
    bool binary = !formats.empty() && formats[formats.size() == 1 ? 0 : i] == 1;
    // Text must be UTF-8 (client_encoding is UTF8), as PostgreSQL checks it.
    size_t bad = binary ? std::string::npos : FindInvalidUtf8(bytes);
    if (bad != std::string::npos) {
      throw SqlError("22021", "parameter $" + std::to_string(i + 1) + " is not valid UTF-8 (" +
                                  DescribeInvalidUtf8(bytes, bad) + "); send text parameters as UTF-8");
    }
    try {
      portal.params.push_back(ParameterValue(oid, binary, bytes));
    } catch (std::invalid_argument& e) {
      throw SqlError("22P02", "parameter $" + std::to_string(i + 1) + ": " + e.what());
    }
  }
  int16_t nresult = in.Int16("result format count");
  for (int16_t i = 0; i < nresult; i++) {
    int16_t format = in.Int16("result format");
    if (format != 0 && format != 1) throw ProtocolError("result format " + std::to_string(format) + " is neither 0 nor 1");
    portal.formats.push_back(format);
  }
  portals_[portal_name] = std::move(portal);
  wire_.Begin('2');  // BindComplete
  wire_.End();
}

void Session::Describe(MessageReader& in) {
  char kind = static_cast<char>(in.Byte("describe kind"));
  std::string name = in.CString("name");
  if (kind == 'S') {
    auto it = statements_.find(name);
    if (it == statements_.end()) throw SqlError("26000", "prepared statement \"" + name + "\" does not exist");
    auto& statement = it->second;
    CountParameters(statement);
    wire_.Begin('t');  // ParameterDescription
    wire_.Int16(static_cast<int16_t>(statement.param_oids.size()));
    for (int32_t oid : statement.param_oids) wire_.Int32(oid == 0 ? kText : oid);
    wire_.End();
    // The columns come from planning the query with NULL parameters; a
    // streaming SELECT is planned, not run. Other statements return no rows.
    std::string kw = LeadingKeywords(statement.sql, 1);
    if (kw == "SELECT" || kw == "WITH" || kw == "VALUES" || kw == "FROM" || kw == "TABLE") {
      std::vector<SqlValue> nulls(statement.param_oids.size());
      auto planned = connection_->SendQuery(statement.sql, nulls);
      if (!planned->HasError()) {
        SendRowDescription(*planned);
        return;
      }
    }
    wire_.Begin('n');  // NoData
    wire_.End();
    return;
  }
  auto it = portals_.find(name);
  if (it == portals_.end()) throw SqlError("34000", "portal \"" + name + "\" does not exist");
  if (!it->second.ran && IsWireCopy(it->second.sql)) {  // a COPY's rows go as CopyData, not DataRows
    wire_.Begin('n');
    wire_.End();
    return;
  }
  RunPortal(it->second);
  auto& portal = it->second;
  if (const QueryResult* rows = RowsOf(portal)) {
    SendRowDescription(*rows, portal.formats.empty() && !portal.fetch_from.empty() ? portals_[portal.fetch_from].formats
                                                                                    : portal.formats);
  } else {
    wire_.Begin('n');
    wire_.End();
  }
}

void Session::Execute(MessageReader& in) {
  std::string name = in.CString("portal name");
  int32_t max_rows = in.Int32("row limit");
  auto it = portals_.find(name);
  if (it == portals_.end()) throw SqlError("34000", "portal \"" + name + "\" does not exist");
  auto& portal = it->second;
  if (LeadingKeywords(portal.sql, 1).empty()) {
    wire_.Begin('I');
    wire_.End();
    return;
  }
  if (!portal.ran && IsWireCopy(portal.sql)) {
    // COPY ... FROM STDIN / TO STDOUT as in the simple protocol (JDBC and
    // prepared statements send it this way); a COPY IN's CopyData follows Sync.
    if (tx_status_ == 'E') {
      throw SqlError("25P02", "current transaction is aborted, commands ignored until end of transaction block");
    }
    portal.ran = true;
    portal.done = true;
    Copy(portal.sql);
    return;
  }
  RunPortal(portal);
  SendRows(portal, max_rows);
}

void Session::Close(MessageReader& in) {
  char kind = static_cast<char>(in.Byte("close kind"));
  std::string name = in.CString("name");
  if (kind == 'S') {
    statements_.erase(name);
  } else {
    portals_.erase(name);
  }
  wire_.Begin('3');  // CloseComplete
  wire_.End();
}

}  // namespace lakestream::pg
