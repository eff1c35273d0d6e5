// Tools-facing additions to the public API: what the `lakestream` shell's
// subcommands need beyond Database, Connection and QueryResult. Like every
// public header it uses only the standard library and the other public
// headers (scripts/check-layers allows tools/ only these headers).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/result.hpp"

namespace lakestream {

// Progress of a sink run (RUN SINK), reported while it delivers.
struct SinkProgressReport {
  std::string sink;
  int64_t messages = 0;           // delivered by the current run so far
  int64_t delivered_version = -1;  // the last source version delivered whole, -1 for none
  int64_t latest_version = -1;     // the source's latest version, -1 when unknown
  std::string error;               // the current delivery error, "" for none
};
// The callback of the database `connection` belongs to (each open database has
// its own; nullptr removes it). Called on the thread that runs the sink.
void SetSinkProgressCallback(Connection& connection, std::function<void(const SinkProgressReport&)> callback);

// Source versions the sink `name` has not delivered yet (counting what a
// pass of this database delivered and has not saved yet as delivered); 0
// when there is no such sink.
int64_t SinkPendingVersions(Connection& connection, const std::string& name);

// How often the sink passes of the database `connection` belongs to save
// their progress in the catalog (the database's write lock and a rewrite of
// catalog.json): at most once per `milliseconds`, a pass with nothing new to
// deliver saves what earlier passes left; 0 (the default) saves at every
// progress point. For a follower (`lakestream sink --follow`) that a busy
// writer wakes many times a second; exactly once does not depend on it
// (docs/sinks.md, "Delivery: exactly once").
void SetSinkSaveInterval(Connection& connection, int64_t milliseconds);

// A user of `lakestream serve` (CREATE USER, docs/server.md): a secret of
// type pg_user holding its SCRAM verifier (lakestream/scram.hpp), never its
// password.
struct ServerUser {
  std::string name;
  std::string verifier;
  bool read_only = false;
};
// The user `name` (case-insensitive) of the database `connection` belongs
// to, read from its secrets now (a user created or dropped by another
// session or process counts at once); nullopt when there is none or `name`
// cannot be a user's (only letters, digits and '_'). Throws the store's
// errors (an unreadable or damaged user file).
std::optional<ServerUser> FindServerUser(Connection& connection, const std::string& name);
// Does that database have any user?
bool HasServerUsers(Connection& connection);

// Wakes a follower (`lakestream sink --follow`, a pipeline's --continuous
// mode, a Python streaming query) soon after a commit to the tables it
// follows, instead of at its next poll: commits of this process through an
// in-process notification, other processes' through file notifications
// (inotify) on the tables' _delta_log/ folders. Tables on object storage, or
// a system without inotify, get only the in-process notification: there the
// follower's timeout is its poll. A wake-up is a hint: the follower reads
// its position and the table as it does after a poll, so exactly-once
// delivery does not depend on it.
class CommitWaiter {
 public:
  CommitWaiter();
  ~CommitWaiter();
  CommitWaiter(const CommitWaiter&) = delete;
  CommitWaiter& operator=(const CommitWaiter&) = delete;

  // Follows the table sink `name` reads (a table, a materialized view's
  // table, a stream's source table), or the table or view `name`. Call with
  // the database open and before reading what is new, so a commit in between
  // wakes the next Wait. Calling again is cheap (already followed: nothing
  // changes). Returns "" when commits of other processes wake the waiter,
  // otherwise why they do not (the source is gone, an s3:// table, no
  // inotify): the caller then relies on its timeout.
  std::string FollowSink(Connection& connection, const std::string& name);
  std::string FollowTable(Connection& connection, const std::string& name);

  // Blocks up to `timeout_ms` for a commit to a followed table or a Wake();
  // true when woken, false when the time ran out.
  bool Wait(int64_t timeout_ms);
  // Ends the current or next Wait: any thread, and signal handlers.
  void Wake();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A result holding `rows` (each with one value per column, of the column's
// type or NULL), for tools that report tables of their own (the pipeline
// runner's summary). Throws std::invalid_argument for a row of the wrong width.
std::unique_ptr<QueryResult> MakeTableResult(std::vector<std::string> names, const std::vector<ColumnType>& types,
                                             const std::vector<std::vector<SqlValue>>& rows);

// Display width of UTF-8 text in terminal cells (East Asian wide and emoji
// count 2, combining marks 0), as the engine uses for the caret under a
// parser error, so tools line up text the same way.
uint64_t DisplayWidth(std::string_view text);
// Cuts `text` to at most `width` cells, ending in "…" when it was cut.
std::string TruncateToWidth(std::string_view text, uint64_t width);

// The kind of an exception the engine threw (e.g. the Database constructor
// when the directory is locked: IO); INTERNAL for any other exception.
ErrorKind ErrorKindOf(const std::exception& e);

// `sql` with every credential value (CREATE SECRET options, sensitive sink
// and read_kafka options) replaced by a mask, for the shell's history.
std::string RedactCredentials(const std::string& sql);

// A duration in milliseconds ("500ms", "2s", "10 minutes", "interval 1 week";
// a bare number is seconds), read as every duration option of the engine
// reads it; -1 when `text` is not one.
int64_t ParseDurationMs(std::string_view text);

// Whether `path` names object storage (s3://bucket/...), which tools pass on
// as it is rather than making it an absolute local path.
bool IsObjectStoragePath(const std::string& path);

}  // namespace lakestream
