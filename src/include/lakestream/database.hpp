// Database: an open lakestream database (a directory, or in memory).
//
//   lakestream::Database db("/data/lake");   // "" or ":memory:" for in-memory
//   lakestream::Connection con(db);
//   auto result = con.Query("SELECT 42");
#pragma once

#include <memory>
#include <string>

namespace lakestream {

class DatabaseInstance;
class Connection;

struct DatabaseOptions {
  bool read_only = false;
};

class Database {
 public:
  explicit Database(const std::string& path = "", DatabaseOptions options = {});
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Connection Connect();
  DatabaseInstance& Instance() { return *instance_; }
  std::shared_ptr<DatabaseInstance> InstancePtr() { return instance_; }
  // "" for an in-memory database.
  const std::string& Path() const;

 private:
  std::shared_ptr<DatabaseInstance> instance_;
};

}  // namespace lakestream
