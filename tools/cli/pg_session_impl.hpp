// The state of one `lakestream serve` session (pg_session.hpp), shared by
// the files that implement it: pg_session.cpp (startup, the simple query
// protocol, transaction blocks), pg_extended.cpp (the extended query
// protocol and sending rows), pg_cursor.cpp (SQL cursors). Internal to the
// server: nothing outside these files includes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/result.hpp"
#include "pg_catalog.hpp"
#include "pg_session.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {

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
  // `sql` reading pg_catalog.pg_cursors (name, statement, is_holdable,
  // is_binary, is_scrollable; psycopg asks it before closing a named cursor
  // it did not declare) reads a snapshot of this session's cursors instead.
  std::string WithCursorView(const std::string& sql);
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

}  // namespace lakestream::pg
