#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "main/builtin_table_functions.hpp"
#include "main/statement_runner.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

Database::Database(const std::string& path, DatabaseOptions options) {
  RegisterBuiltinTableFunctions();
  std::string p = path == ":memory:" ? "" : path;
  instance_ = std::make_shared<DatabaseInstance>(p, options);
}

Database::~Database() = default;

Connection Database::Connect() { return Connection(*this); }

const std::string& Database::Path() const { return instance_->Path(); }

Connection::Connection(Database& db) {
  // The shared_ptr keeps the instance alive as long as any connection uses it.
  context_ = std::make_unique<ClientContext>(db.InstancePtr());
}

Connection::~Connection() = default;
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;

std::unique_ptr<QueryResult> Connection::Query(const std::string& sql) {
  auto results = RunQuery(*context_, sql);
  if (results.empty()) return std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{});
  return std::move(results.back());
}

std::vector<std::unique_ptr<QueryResult>> Connection::QueryAll(const std::string& sql) { return RunQuery(*context_, sql); }

}  // namespace lakestream
