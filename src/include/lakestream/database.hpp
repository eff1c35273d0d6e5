// Database: an open lakestream database (a directory, or in memory).
//
//   lakestream::Database db("/data/lake");   // "" or ":memory:" for in-memory
//   lakestream::Connection con(db);
//   auto result = con.Query("SELECT 42");
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace lakestream {

class DatabaseInstance;
class Connection;

struct DatabaseOptions {
  // Statements that write (INSERT, CREATE, COPY ... FROM, ...) fail with an
  // error naming the statement; reading works as usual.
  bool read_only = false;
  // A statement that writes takes the database's write lock for its
  // duration; when another process holds it, the statement waits this long
  // (Ctrl-C / Connection::Interrupt ends the wait) and then fails naming the
  // holder. Reading never waits.
  int lock_wait_ms = 5000;
  // false: statements reach no file outside the database directory and no
  // network endpoint, except allowed_directories (and everything below them)
  // and allowed_paths (those files exactly); SET enable_external_access =
  // false does the same later, and nothing turns it back on
  // (docs/security.md).
  bool enable_external_access = true;
  std::vector<std::string> allowed_directories;
  std::vector<std::string> allowed_paths;
  // Threads a query may use (scans, aggregates; docs/performance.md); each
  // connection may change it with SET threads = N. 0: the machine's cores.
  int threads = 0;
};

class Database {
 public:
  // Opens (creating when missing) the database at `path`. Throws
  // std::runtime_error naming the path and the problem when it cannot open.
  explicit Database(const std::string& path = "", DatabaseOptions options = {});
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Connection Connect();
  // "" for an in-memory database.
  const std::string& Path() const;
  bool ReadOnly() const;

 private:
  friend class Connection;
  std::shared_ptr<DatabaseInstance> instance_;
};

}  // namespace lakestream
