// The shared state of one open database: its catalog and (later) storage.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "catalog/catalog.hpp"
#include "lakestream/database.hpp"

namespace lakestream {

class DatabaseInstance {
 public:
  DatabaseInstance(std::string path, DatabaseOptions options);
  const std::string& Path() const { return path_; }
  bool InMemory() const { return path_.empty(); }
  const DatabaseOptions& Options() const { return options_; }
  Catalog& GetCatalog() { return catalog_; }
  // Statements run one at a time per database (single writer).
  std::mutex& StatementLock() { return statement_lock_; }

 private:
  std::string path_;
  DatabaseOptions options_;
  Catalog catalog_;
  std::mutex statement_lock_;
};

}  // namespace lakestream
