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
#include "pg_session_impl.hpp"
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
          case 'F':
            throw SqlError("0A000", "not supported yet: the function-call message (fast-path FunctionCall, e.g. "
                                    "libpq's PQfn and large objects); call the function in a query: SELECT f(...)");
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
        // Query and FunctionCall stand alone: ReadyForQuery follows; the extended messages skip to Sync.
        skip_to_sync_ = type != 'Q' && type != 'F';
        if (!skip_to_sync_) SendReady();
      } catch (ProtocolError&) {
        throw;
      } catch (std::exception& e) {
        // A bug (or an allocation failure) ends the statement, not the server.
        if (tx_status_ == 'T') tx_status_ = 'E';
        SendError("XX000", std::string("internal error: ") + e.what());
        // Query and FunctionCall stand alone: ReadyForQuery follows; the extended messages skip to Sync.
        skip_to_sync_ = type != 'Q' && type != 'F';
        if (!skip_to_sync_) SendReady();
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
  if (result && *tag == "DISCARD") CloseCursors(true);  // DISCARD ALL closes every cursor, as in Postgres
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
    portal.result = connection_->SendQuery(WithInformationSchema(*connection_, WithCursorView(portal.sql), settings_),
                                           portal.params);
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
