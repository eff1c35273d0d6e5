#include "pg_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iterator>
#include <random>

#include "lakestream/column_view.hpp"
#include "pg_copy.hpp"
#include "pg_cursor.hpp"
#include "pg_format.hpp"
#include "pg_startup.hpp"

namespace lakestream::pg {

std::pair<int32_t, int32_t> CancelRegistry::Register(Connection* connection, std::atomic<bool>* cancelled) {
  static thread_local std::mt19937 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mutex_);
  int32_t pid = next_pid_++;
  auto secret = static_cast<int32_t>(rng());
  sessions_[pid] = {secret, connection, cancelled};
  return {pid, secret};
}

void CancelRegistry::Unregister(int32_t pid) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.erase(pid);
}

void CancelRegistry::Cancel(int32_t pid, int32_t secret) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = sessions_.find(pid);
  if (it != sessions_.end() && it->second.secret == secret) {
    *it->second.cancelled = true;
    it->second.connection->Interrupt();
  }
}

namespace {

// A bound statement: its text and parameters, and once run, its result and
// how far its rows were sent (Execute with a row limit suspends it).
struct Portal {
  std::string sql;
  std::vector<SqlValue> params;
  bool ran = false;
  std::unique_ptr<QueryResult> result;
  std::string tag;  // set when the server answered the statement itself
  std::string error, sqlstate;
  bool row_change = false;
  bool have_chunk = false;
  idx_t chunk_row = 0;
  int64_t rows_sent = 0;
  bool done = false;
  // Bind's result format codes: none (all text), one for all, or one per column.
  std::vector<int16_t> formats;
  // A cursor (DECLARE, pg_cursor.hpp): a portal named as the cursor whose
  // rows were all computed at DECLARE, so that other statements may run
  // between FETCHes; `hold` keeps it past the end of its transaction.
  bool is_cursor = false;
  bool hold = false;
  // FETCH / MOVE: the cursor read, how many rows (0: all); MOVE sends none.
  std::string fetch_from;
  int64_t fetch_count = 0;
  bool move = false;
};

bool IsBinary(const std::vector<int16_t>& formats, idx_t column) {
  if (formats.size() == 1) return formats[0] == 1;
  return column < formats.size() && formats[column] == 1;
}

struct Statement {
  std::string sql;
  std::vector<int32_t> param_oids;
  bool counted = false;  // param_oids covers every $n of the SQL (Prepare has checked it)
};

class Session {
 public:
  Session(Database& db, const ServerOptions& options, CancelRegistry& registry, int fd)
      : options_(options), registry_(registry), wire_(fd), db_(db), settings_("", options.read_only) {}
  ~Session() {
    if (pid_ != 0) registry_.Unregister(pid_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void Run();

 private:
  bool Startup();
  void SimpleQuery(const std::string& text);
  void Parse(MessageReader& in);
  // Parses the statement (once) to learn its parameter count; a parse error is a SqlError.
  void CountParameters(Statement& statement);
  void Bind(MessageReader& in);
  void Describe(MessageReader& in);
  void Execute(MessageReader& in);
  void Close(MessageReader& in);

  // Runs the portal's statement (once) and records its outcome.
  void RunPortal(Portal& portal);
  // RowDescription of a result with columns, else NoData.
  void SendRowDescription(const QueryResult& result, const std::vector<int16_t>& formats = {});
  // Sends rows (at most max_rows when > 0), then CommandComplete, or
  // PortalSuspended when the limit stopped it. False when an error was sent.
  bool SendRows(Portal& portal, int64_t max_rows);
  // DataRows of `source` in `formats` (nothing sent when !send), at most
  // max_rows when > 0: true when it stopped at the limit with rows left.
  bool SendDataRows(Portal& source, const std::vector<int16_t>& formats, int64_t max_rows, bool send);
  void ThrowIfFailed(const QueryResult& result);
  // DECLARE / FETCH / MOVE / CLOSE: true when `portal` is one, and has run.
  bool RunCursorCommand(Portal& portal);
  // The rows a portal returns (a FETCH's are its cursor's), or nullptr.
  const QueryResult* RowsOf(const Portal& portal);
  // Ends the transaction's cursors (all, with `with_hold`), as its end does in Postgres.
  void CloseCursors(bool with_hold);
  void SendError(const std::string& sqlstate, const std::string& message, const char* severity = "ERROR");
  void SendNotice(const std::string& message);
  void SendReady();
  // AnswerClientQuery, then ParameterStatus for each reported setting it
  // changed (SET application_name ...), as Postgres reports them.
  std::unique_ptr<QueryResult> AnswerClient(const std::string& sql, std::string* tag);
  // COPY ... TO STDOUT (text format) and COPY ... FROM STDIN (refused): true
  // when `sql` was one of them and has been answered.
  bool Copy(const std::string& sql);
  // Statement-level transaction emulation (lakestream commits each statement):
  // true when `sql` was BEGIN/COMMIT/ROLLBACK and has been answered in *portal.
  bool TransactionStatement(const std::string& sql, Portal* portal);

  const ServerOptions& options_;
  CancelRegistry& registry_;
  WireConnection wire_;
  Database& db_;
  // Made once the user is known: on the read-only database for a read-only user.
  std::unique_ptr<Connection> connection_;
  bool read_only_ = false;  // the server's, or the user's
  std::string read_only_user_;  // the user, when the user (not the server) is read-only
  SessionSettings settings_;
  int32_t pid_ = 0;
  std::atomic<bool> cancel_requested_{false};  // set by a CancelRequest (SUBSCRIBE polls it)
  char tx_status_ = 'I';
  bool wrote_in_tx_ = false;
  bool skip_to_sync_ = false;
  std::map<std::string, Statement> statements_;
  std::map<std::string, Portal> portals_;
};

void Session::SendError(const std::string& sqlstate, const std::string& message, const char* severity) {
  SendErrorResponse(wire_, sqlstate, message, severity);
}

void Session::SendNotice(const std::string& message) {
  wire_.Begin('N');
  wire_.Bytes("S");
  wire_.CString("WARNING");
  wire_.Bytes("V");
  wire_.CString("WARNING");
  wire_.Bytes("C");
  wire_.CString("01000");
  wire_.Bytes("M");
  wire_.CString(message);
  wire_.Bytes(std::string_view("\0", 1));
  wire_.End();
}

void Session::SendReady() {
  wire_.Begin('Z');
  wire_.Bytes(std::string_view(&tx_status_, 1));
  wire_.End();
  wire_.Flush();
}

bool Session::Startup() {
  // The login looks the user up in the database's own users on this connection.
  connection_ = std::make_unique<Connection>(db_);
  std::optional<StartupPacket> packet = AcceptStartup(wire_, options_, *connection_);
  if (!packet) return false;
  if (packet->cancel) {
    registry_.Cancel(packet->cancel_pid, packet->cancel_secret);
    return false;
  }
  std::map<std::string, std::string>& params = packet->params;
  const std::string& user = params["user"];
  if (packet->read_only_user || options_.read_only_users.count(user) > 0) read_only_user_ = user;
  read_only_ = options_.read_only || !read_only_user_.empty();
  if (!read_only_user_.empty() && !options_.read_only) {
    std::string error;
    Database* read_only_db = options_.read_only_database ? options_.read_only_database->Get(&error) : nullptr;
    if (!read_only_db) {
      SendError("28000", "user " + user + " is read-only and cannot log in: " +
                             (error.empty() ? "this server has no database directory to open read-only" : error) +
                             "; serve a database directory, or ALTER USER " + user + " READ WRITE",
                "FATAL");
      wire_.Flush();
      return false;
    }
    connection_ = std::make_unique<Connection>(*read_only_db);
  }
  settings_["session_authorization"] = user;
  settings_["default_transaction_read_only"] = read_only_ ? "on" : "off";
  settings_["transaction_read_only"] = read_only_ ? "on" : "off";
  if (params.count("application_name")) settings_["application_name"] = params["application_name"];
  settings_["database"] = params.count("database") ? params["database"] : user;
  wire_.Begin('R');
  wire_.Int32(0);  // AuthenticationOk
  wire_.End();
  for (auto& [name, value] : settings_.Reported()) {
    wire_.Begin('S');
    wire_.CString(name);
    wire_.CString(value);
    wire_.End();
  }
  auto [pid, secret] = registry_.Register(connection_.get(), &cancel_requested_);
  pid_ = pid;
  wire_.Begin('K');
  wire_.Int32(pid);
  wire_.Int32(secret);
  wire_.End();
  SendReady();
  return true;
}

void Session::Run() {
  try {
    if (!Startup()) return;
    char type;
    std::string body;
    while (wire_.ReadMessage(&type, &body)) {
      MessageReader in(body);
      if (skip_to_sync_ && type != 'S' && type != 'X') continue;
      try {
        switch (type) {
          case 'Q': SimpleQuery(in.CString("query")); break;
          case 'P': Parse(in); break;
          case 'B': Bind(in); break;
          case 'D': Describe(in); break;
          case 'E': Execute(in); break;
          case 'C': Close(in); break;
          case 'H': wire_.Flush(); break;
          case 'S':
            skip_to_sync_ = false;
            // Outside a transaction block Sync ends the implicit transaction
            // and its portals (as in Postgres): a portal suspended by a row
            // limit would otherwise keep the database's statement lock.
            if (tx_status_ == 'I') {
              for (auto it = portals_.begin(); it != portals_.end();) {
                it = it->second.hold ? std::next(it) : portals_.erase(it);
              }
            }
            SendReady();
            break;
          case 'X': return;
          case 'd':
          case 'c':
          case 'f': break;  // COPY data after its COPY ended (RunCopyIn reads the rest)
          default:
            throw ProtocolError("unknown message type '" + std::string(1, type) + "'");
        }
      } catch (SqlError& e) {
        if (tx_status_ == 'T') tx_status_ = 'E';  // any error aborts the transaction block, as in Postgres
        std::string message = e.what();
        if (e.SqlState() == "25006" && !read_only_user_.empty()) {
          message += "; user " + read_only_user_ + " is read-only: log in as a user who may write, or make it one " +
                     "(ALTER USER " + read_only_user_ + " READ WRITE, or drop it from --readonly-user)";
        }
        SendError(e.SqlState(), message);
        skip_to_sync_ = type != 'Q';
        if (type == 'Q') SendReady();
      } catch (ProtocolError&) {
        throw;
      } catch (std::exception& e) {
        // A bug (or an allocation failure) ends the statement, not the server.
        if (tx_status_ == 'T') tx_status_ = 'E';
        SendError("XX000", std::string("internal error: ") + e.what());
        skip_to_sync_ = type != 'Q';
        if (type == 'Q') SendReady();
      }
      if (!wire_.MaybeFlush()) return;
    }
  } catch (ProtocolError& e) {
    SendError("08P01", std::string("protocol violation: ") + e.what(), "FATAL");
    wire_.Flush();
  }
}

bool Session::TransactionStatement(const std::string& sql, Portal* portal) {
  std::string kw = LeadingKeywords(sql, 1);
  if (kw == "BEGIN" || kw == "START") {
    if (tx_status_ == 'I') {
      tx_status_ = 'T';
      wrote_in_tx_ = false;
    }
    portal->tag = "BEGIN";
  } else if (kw == "COMMIT" || kw == "END") {
    portal->tag = tx_status_ == 'E' ? "ROLLBACK" : "COMMIT";
    tx_status_ = 'I';
    CloseCursors(false);
  } else if (kw == "SAVEPOINT" || kw == "RELEASE" || LeadingKeywords(sql, 2) == "ROLLBACK TO" ||
             LeadingKeywords(sql, 3) == "ROLLBACK WORK TO" || LeadingKeywords(sql, 3) == "ROLLBACK TRANSACTION TO") {
    throw SqlError("0A000", "not supported yet: savepoints (SAVEPOINT, RELEASE, ROLLBACK TO; psycopg's nested "
                            "transaction() blocks): lakestream commits each statement when it runs");
  } else if (kw == "ROLLBACK" || kw == "ABORT") {
    bool wrote = wrote_in_tx_;
    tx_status_ = 'I';
    CloseCursors(false);
    if (wrote) {
      throw SqlError("0A000",
                     "not supported yet: ROLLBACK of statements that wrote: lakestream committed each of them "
                     "when it ran (explicit transactions are not supported yet); undo them with new statements");
    }
    portal->tag = "ROLLBACK";
  } else {
    return false;
  }
  portal->ran = true;
  portal->done = true;
  return true;
}

std::unique_ptr<QueryResult> Session::AnswerClient(const std::string& sql, std::string* tag) {
  auto before = settings_.Reported();
  auto result = AnswerClientQuery(*connection_, sql, settings_, tag);
  if (result) {
    for (auto& [name, value] : settings_.Reported()) {
      if (before[name] == value) continue;
      wire_.Begin('S');
      wire_.CString(name);
      wire_.CString(value);
      wire_.End();
    }
  }
  return result;
}

void Session::RunPortal(Portal& portal) {
  if (portal.ran) return;
  if (tx_status_ == 'E' && !TransactionStatement(portal.sql, &portal)) {
    throw SqlError("25P02", "current transaction is aborted, commands ignored until end of transaction block");
  }
  if (portal.ran || TransactionStatement(portal.sql, &portal)) return;
  std::string first = LeadingKeywords(portal.sql, 1);

  if (first == "SUBSCRIBE") {
    throw SqlError("0A000", "not supported yet: SUBSCRIBE in the extended query protocol; send it as a simple query "
                            "(psql, or psycopg's cursor.copy(\"SUBSCRIBE TO t\"))");
  }
  if (RunCursorCommand(portal)) return;
  portal.ran = true;
  std::string tag;
  portal.result = AnswerClient(portal.sql, &tag);
  if (portal.result) {
    portal.tag = tag;
  } else {
    portal.result = connection_->SendQuery(WithInformationSchema(*connection_, portal.sql, settings_), portal.params);
  }
  auto& result = *portal.result;
  if (result.HasError()) {
    if (tx_status_ == 'T') tx_status_ = 'E';
    throw SqlError(SqlStateOf(result.GetErrorKind(), result.GetError()), result.GetError());
  }
  for (auto& warning : result.Warnings()) SendNotice(warning);
  std::string kw = LeadingKeywords(portal.sql, 1);
  portal.row_change = IsRowChangeStatement(kw) && result.ColumnCount() == 1 && result.Names()[0] == "num_affected_rows";
  if (tx_status_ == 'T' && kw != "SELECT" && kw != "WITH" && kw != "SHOW" && kw != "VALUES" && kw != "SET") {
    wrote_in_tx_ = true;
  }
}

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

bool Session::Copy(const std::string& sql) {
  CopyStatement statement;
  if (!ParseCopyStatement(sql, &statement)) return false;
  try {
    if (statement.from_stdin) {
      if (read_only_) {
        throw SqlError("25006", "cannot execute COPY FROM STDIN: this session is read-only (--readonly or --readonly-user)");
      }
      int64_t rows = RunCopyIn(wire_, *connection_, statement);
      if (tx_status_ == 'T' && rows > 0) wrote_in_tx_ = true;
      wire_.Begin('C');
      wire_.CString("COPY " + std::to_string(rows));
      wire_.End();
      return true;
    }
    auto result = connection_->SendQuery(CopyOutQuery(statement));
    SendCopyOut(wire_, *result, statement.format);
  } catch (SqlError&) {
    if (tx_status_ == 'T') tx_status_ = 'E';
    throw;
  }
  return true;
}

void Session::SimpleQuery(const std::string& text) {
  // Catalog queries (psql's \dt) use Postgres syntax the splitter rejects:
  // they are recognised whole first.
  std::vector<std::string> sqls;
  std::string tag;
  std::unique_ptr<QueryResult> answered;
  if (tx_status_ != 'E') answered = AnswerClient(text, &tag);
  if (answered) {
    if (answered->HasError()) throw SqlError(SqlStateOf(answered->GetErrorKind(), answered->GetError()), answered->GetError());
    if (answered->ColumnCount() > 0) SendRowDescription(*answered);
    Portal portal;
    portal.sql = text;
    portal.ran = true;
    portal.result = std::move(answered);
    portal.tag = tag;
    SendRows(portal, 0);
    SendReady();
    return;
  }
  // Splitting parses the text: done only when there may be several statements.
  if (text.find(';') == std::string::npos) {
    if (!LeadingKeywords(text, 1).empty()) sqls.push_back(text);
  } else {
    try {
      sqls = SplitStatements(text);
    } catch (std::invalid_argument& e) {
      throw SqlError("42601", e.what());
    }
  }
  if (sqls.empty()) {
    wire_.Begin('I');  // EmptyQueryResponse
    wire_.End();
  }
  for (auto& sql : sqls) {
    if (LeadingKeywords(sql, 1) == "COPY" && Copy(sql)) continue;
    if (LeadingKeywords(sql, 1) == "SUBSCRIBE") {
      SubscribeRequest request;
      if (!ParseSubscribe(sql, &request)) {
        throw SqlError("42601", "SUBSCRIBE takes a table with its change data feed: SUBSCRIBE [TO] table [FROM VERSION n]");
      }
      cancel_requested_ = false;
      RunSubscribe(wire_, *connection_, request, cancel_requested_);
      continue;
    }
    Portal portal;
    portal.sql = sql;
    RunPortal(portal);
    if (const QueryResult* rows = RowsOf(portal)) {
      SendRowDescription(*rows, portal.fetch_from.empty() ? portal.formats : portals_[portal.fetch_from].formats);
    }
    SendRows(portal, 0);
  }
  // Keep no unnamed statement or portal across a simple query (as Postgres).
  portals_.erase("");
  SendReady();
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
  static const char* const kOurs[] = {"SET", "SHOW", "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT",
                                      "DISCARD", "RESET", "DEALLOCATE", "SUBSCRIBE", "DECLARE", "FETCH", "MOVE", "CLOSE",
                                      "SAVEPOINT", "RELEASE"};
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

}  // namespace

Database* ReadOnlyDatabase::Get(std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (database_) return database_.get();
  if (path_.empty()) {
    *error = "an in-memory database cannot be opened a second time, read-only";
    return nullptr;
  }
  try {
    DatabaseOptions read_only = options_;
    read_only.read_only = true;
    database_ = std::make_unique<Database>(path_, read_only);
  } catch (std::exception& e) {
    *error = e.what();
    return nullptr;
  }
  return database_.get();
}

void ServeConnection(Database& db, const ServerOptions& options, CancelRegistry& registry, int fd) {
  try {
    Session session(db, options, registry, fd);
    session.Run();
  } catch (std::exception& e) {
    std::fprintf(stderr, "lakestream serve: a session ended on an error: %s\n", e.what());
  }
  ::close(fd);
}

}  // namespace lakestream::pg
