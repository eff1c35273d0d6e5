// Connection: runs SQL against a Database. One thread uses a connection at a
// time; Interrupt() is the exception (call it from any thread).
//
//   lakestream::Connection con(db);
//   con.Query("CREATE TABLE t (id BIGINT, name VARCHAR)");
//   auto insert = con.Prepare("INSERT INTO t VALUES ($1, $2)");
//   insert->Execute({lakestream::SqlValue::Bigint(1), lakestream::SqlValue::Varchar("a")});
//   auto rows = con.Query("SELECT name FROM t WHERE id = ?", {lakestream::SqlValue::Bigint(1)});
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lakestream/columnar_table.hpp"
#include "lakestream/database.hpp"
#include "lakestream/result.hpp"

namespace lakestream {

class ClientContext;
class Connection;
class QueryStream;
struct SQLStatement;

// SQL parsed once and run many times with different parameters. Parameters
// are written ? (numbered in order of appearance) or $1, $2, ... (one
// statement uses one style); they stand where a value may stand (not for
// table or column names). Valid while its Connection lives (and is not
// moved from).
class PreparedStatement {
 public:
  ~PreparedStatement();
  PreparedStatement(const PreparedStatement&) = delete;
  PreparedStatement& operator=(const PreparedStatement&) = delete;

  // A parse error in the SQL: Execute() then returns it every time.
  bool HasError() const { return !error_.empty(); }
  const std::string& GetError() const { return error_; }
  // The number of parameters the SQL takes (the highest $n or the number of ?s).
  idx_t ParameterCount() const { return parameter_count_; }
  // $name parameters (DuckDB's named form): the name of each value, in the
  // order Execute takes them (the order of first use; lower case, without
  // '$'). Empty when the text uses ? or $n.
  const std::vector<std::string>& ParameterNames() const { return parameter_names_; }
  // Runs the statement(s) with `params` ($1 is params[0]) and returns the
  // last result. A wrong number of parameters, or a value that does not cast
  // to the type the statement needs, is an INVALID_INPUT / CONVERSION error
  // result naming the parameter; never throws for SQL errors.
  std::unique_ptr<QueryResult> Execute(const std::vector<SqlValue>& params = {});

 private:
  friend class Connection;
  PreparedStatement() = default;
  Connection* connection_ = nullptr;
  std::vector<std::unique_ptr<SQLStatement>> statements_;
  std::string error_;
  ErrorKind error_kind_ = ErrorKind::NONE;
  idx_t parameter_count_ = 0;
  std::vector<std::string> parameter_names_;
};

// Connection::CreateScalarFunction's options.
struct ScalarFunctionOptions {
  bool deterministic = true;  // false: never constant-folded; views calling it are recomputed
  bool handles_nulls = false;  // true: called for rows with NULL arguments too
};

class Connection {
 public:
  explicit Connection(Database& db);
  ~Connection();
  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;

  // Runs every statement in `sql` in order and returns the result of the last
  // one. Stops at the first failing statement and returns its error; never throws
  // for SQL errors. `params` fill ? / $n parameters (PreparedStatement).
  std::unique_ptr<QueryResult> Query(const std::string& sql);
  std::unique_ptr<QueryResult> Query(const std::string& sql, const std::vector<SqlValue>& params);
  // Runs every statement and returns one result per statement run (the last
  // one may be an error, after which nothing more runs).
  std::vector<std::unique_ptr<QueryResult>> QueryAll(const std::string& sql);
  // Like Query, but a single SELECT streams: it is bound and planned now
  // (errors found then are the returned result's error) and its rows are
  // produced while they are fetched (QueryResult::FetchNext / FetchChunk,
  // ColumnView(result, column)), one chunk at a time, so the engine never
  // holds the whole result. Any other statement, or several statements,
  // run as Query runs them and return a materialized result
  // (IsStreaming() false).
  //
  // Contract of a streaming result:
  // * One per connection at a time. Running anything else on the connection
  //   (Query, QueryAll, SendQuery, a PreparedStatement) or destroying the
  //   connection first invalidates an open stream: its next fetch returns
  //   no chunk and the result's error (INVALID_INPUT) says why and how to
  //   avoid it (fetch to the end first, or use Query).
  // * While open it holds the database's statement lock, as a running
  //   statement does: statements on other connections of the database wait
  //   until it is fetched to the end, fails, or is destroyed. So never run a
  //   statement on another connection of the same database from the thread
  //   that holds an open stream (it would wait forever); fetch the stream to
  //   the end or destroy it first.
  // * An error while fetching (a conversion error in a late row, Interrupt())
  //   ends the stream: that fetch returns no chunk and HasError()/GetError()
  //   tell; the chunks fetched before stay valid. Never throws for SQL errors.
  // * RowCount, GetValue, ChunkCount/GetChunk and ToString first fetch every
  //   remaining row into the result (QueryResult, "Random access").
  // * The result may outlive the connection; its stream is then invalidated.
  std::unique_ptr<QueryResult> SendQuery(const std::string& sql, const std::vector<SqlValue>& params = {});
  // Parses `sql` once for Execute(); a parse error is kept in the returned
  // statement (HasError) rather than thrown.
  std::unique_ptr<PreparedStatement> Prepare(const std::string& sql);

  // Asks the statement running on this connection (or its open streaming
  // result) to stop: it fails with an INTERRUPTED error and commits nothing. Safe to call from any thread, also
  // when nothing runs (then it has no effect: each call of Query, QueryAll or
  // Execute clears the request when it starts). A statement that has begun
  // to commit completes; the statements after it in the same call do not run.
  void Interrupt();

  // Keeps the database's write lock from now until ReleaseWrites() (or the
  // connection's end), so no other process commits between the statements
  // that follow: a check and the statement it guards. Without it the lock is
  // held only while a statement writes. Waits for the lock as a writing
  // statement does; false with `*error` set when it cannot be had (another
  // process kept it, Interrupt()). A no-op in memory and read-only.
  bool HoldWrites(std::string* error);
  void ReleaseWrites();

  // Scalar functions written by the application, called once per row, as
  // DuckDB's create_function and Spark's udf.register are. `argument_types`
  // are the parameters the arguments are cast to (nullopt: any arguments, as
  // given); the result is cast to `return_type`. A row with a NULL argument is
  // NULL without a call unless `options.handles_nulls`. The function is this
  // connection's (its statements see it, others do not) until
  // RemoveScalarFunction or the connection's end; it may be called from
  // several threads at once (a parallel query). An exception it throws fails
  // the statement with its message. Throws std::invalid_argument when `name`
  // is a built-in function or not a plain identifier; registering a name
  // again replaces the connection's earlier function.
  using ScalarFunctionOptions = lakestream::ScalarFunctionOptions;
  using ScalarFunction = std::function<SqlValue(const std::vector<SqlValue>& arguments)>;
  void CreateScalarFunction(const std::string& name, const std::optional<std::vector<ColumnType>>& argument_types,
                            const ColumnType& return_type, ScalarFunction function,
                            ScalarFunctionOptions options = ScalarFunctionOptions());
  // The same, called once per batch of rows (up to 2048) instead of once per
  // row (pandas UDFs, DuckDB's vectorized create_function): `arguments` is a
  // result (the function's to keep) with one column per argument, named a0,
  // a1, ..., of `argument_types` (nullopt: as the call gives them), and every
  // row of the batch, NULLs included; the function
  // returns a table of one column with as many rows, cast to `return_type`
  // (a missing value is NULL). A table of another shape fails the statement
  // naming the function.
  using VectorizedScalarFunction = std::function<ColumnarTable(std::unique_ptr<QueryResult> arguments)>;
  void CreateVectorizedScalarFunction(const std::string& name, const std::optional<std::vector<ColumnType>>& argument_types,
                                      const ColumnType& return_type, VectorizedScalarFunction function,
                                      ScalarFunctionOptions options = ScalarFunctionOptions());
  // False when the connection has no such function.
  bool RemoveScalarFunction(const std::string& name);

  // The application's own data, read by name (as DuckDB reads a pandas
  // DataFrame by its variable's name). A statement on this connection that
  // reads a one-part name that is not a CTE, temporary view, table, view or
  // stream of the database reads the table registered under that name
  // (case-insensitively); failing that, it asks the replacement scan, if one
  // is set, with the name as written: the table it returns is read by that
  // reference of that statement (and not kept), nullopt means "no such
  // table" (the usual catalog error follows). The scan runs on the thread
  // that runs the statement, while the statement is bound; an exception it
  // throws fails the statement with its message. Tables and scan belong to
  // this connection until UnregisterTable / SetReplacementScan(nullptr) or
  // the connection's end. A view or pipeline that reads such a name binds it
  // again when it runs: the name must then still resolve.
  void RegisterTable(const std::string& name, ColumnarTable table);
  // False when the connection has no table of that name.
  bool UnregisterTable(const std::string& name);
  using ReplacementScan = std::function<std::optional<ColumnarTable>(const std::string& name)>;
  void SetReplacementScan(ReplacementScan scan);

 private:
  friend class PreparedStatement;
  friend struct ConnectionAccess;  // engine side (main/connection_access.hpp)
  std::vector<std::unique_ptr<QueryResult>> Run(std::vector<std::unique_ptr<SQLStatement>>& statements,
                                                const std::vector<SqlValue>& params);
  // Invalidates the open streaming result (SendQuery), if any, with `reason`.
  void EndStream(const char* reason);
  std::unique_ptr<ClientContext> context_;
  std::weak_ptr<QueryStream> stream_;  // the open streaming result's
  bool holds_writes_ = false;
};

// For tools that read SQL a piece at a time (the shell):
// Splits SQL text at the ';'s outside strings, quoted names and comments into
// its statements (each without the ';', empty ones skipped, comments between
// statements dropped). Does not check the syntax. Throws std::invalid_argument
// with the position for an unterminated string or comment.
std::vector<std::string> SplitStatements(const std::string& sql);
// True when `sql` ends with a ';' outside strings and comments (or holds only
// whitespace and comments): typed input is ready to run. Never throws.
bool IsCompleteStatement(const std::string& sql);
// For programs that build statements around a user's expression text (the
// Python DataFrame layers: filter("a > 1"), select_expr, expr()):
// Returns "" when `text` is exactly one SQL expression, else the parser's
// error (what, the position and the line with a caret). "One expression"
// means nothing before or after it: no ';' (not even a trailing one), no
// second statement, no clause such as FROM or WHERE, no parameter (? or $n:
// the statement it goes into numbers its own); a subquery inside it is part
// of the expression. With `select_item` the text is one select-list item:
// an expression with an optional [AS] alias, or *. Such text may then be
// spliced into statement text as "(" + text + ")" (a select item as is), with
// a line break after it when it ends in a -- comment, and cannot end the
// statement or add to it. Names and types are not checked (the statement
// is bound when it runs). Never throws.
std::string CheckExpression(const std::string& text, bool select_item = false);
// `name` as a quoted SQL identifier ("a ""b""" for a "b"), safe to splice into
// statement text whatever characters the name holds.
std::string QuoteIdentifier(const std::string& name);

}  // namespace lakestream
