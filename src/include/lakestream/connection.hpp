// Connection: runs SQL against a Database. Not thread-safe; use one per thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lakestream/database.hpp"
#include "lakestream/result.hpp"

namespace lakestream {

class ClientContext;

class Connection {
 public:
  explicit Connection(Database& db);
  ~Connection();
  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;

  // Runs every statement in `sql` in order and returns the result of the last
  // one. Stops at the first failing statement and returns its error; never throws
  // for SQL errors.
  std::unique_ptr<QueryResult> Query(const std::string& sql);
  // Runs every statement and returns one result per statement run (the last
  // one may be an error, after which nothing more runs).
  std::vector<std::unique_ptr<QueryResult>> QueryAll(const std::string& sql);

  ClientContext& Context() { return *context_; }

 private:
  std::unique_ptr<ClientContext> context_;
};

}  // namespace lakestream
