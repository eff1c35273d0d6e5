// The tools-facing functions (include/lakestream/tools.hpp).
#include "lakestream/tools.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/secret/secret.hpp"
#include "common/secret/secret_redact.hpp"
#include "common/string_util.hpp"
#include "main/connection_access.hpp"
#include "main/public_value.hpp"
#include "main/statement/statement_executor.hpp"
#include "sink/sink_runner.hpp"
#include "transaction/client_context.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

void SetSinkProgressCallback(Connection& connection, std::function<void(const SinkProgressReport&)> callback) {
  ClientContext& context = ConnectionAccess::Context(connection);
  if (!callback) {
    SetSinkProgressListener(context, nullptr);
    return;
  }
  SetSinkProgressListener(context, [callback = std::move(callback)](const SinkProgress& p) {
    SinkProgressReport report;
    report.sink = p.sink;
    report.messages = p.messages;
    report.delivered_version = p.delivered_version;
    report.latest_version = p.latest_version;
    report.error = p.error;
    callback(report);
  });
}

int64_t SinkPendingVersions(Connection& connection, const std::string& name) {
  ClientContext& context = ConnectionAccess::Context(connection);
  SinkCatalogEntry* sink = context.GetCatalog().FindSink(name);
  if (!sink) return 0;
  if (context.GetCatalog().FindStream(sink->source)) return GetSinkStatus(context, *sink).pending_versions;
  // A table or view source: versions only (SHOW SINKS's pending rows would
  // read the pending change feed after every pass of a follower).
  TableCatalogEntry* table = context.GetCatalog().FindTable(sink->source);
  DeltaTable* delta = table ? DatabaseInstance::AsDelta(*table) : nullptr;
  if (!delta) return 0;
  int64_t latest = delta->Version();
  std::optional<int64_t> delivered = UnsavedDeliveredVersion(context, *sink);
  if (!delivered) delivered = sink->state.delivered_version;
  int64_t pending = std::max<int64_t>(0, latest - delivered.value_or(latest));
  return pending + (sink->state.snapshot_pending.value_or(false) ? 1 : 0);
}

void SetSinkSaveInterval(Connection& connection, int64_t milliseconds) {
  SetSinkSaveInterval(ConnectionAccess::Context(connection), std::chrono::milliseconds(std::max<int64_t>(milliseconds, 0)));
}

namespace {

std::optional<ServerUser> ToServerUser(const Secret& secret) {
  if (secret.type != "pg_user") return std::nullopt;
  ServerUser user;
  user.name = secret.name;
  for (auto& [key, value] : secret.values) {
    if (key == "verifier") user.verifier = value;
    if (key == "role") user.read_only = value == "read_only";
  }
  return user;
}

}  // namespace

std::optional<ServerUser> FindServerUser(Connection& connection, const std::string& name) {
  // The name comes from a client before it logged in: the store maps only
  // secret names (letters, digits, _) to files, never a path.
  auto secret = ConnectionAccess::Context(connection).Database().Secrets().Find(name);
  return secret ? ToServerUser(*secret) : std::nullopt;
}

bool HasServerUsers(Connection& connection) {
  for (auto& secret : ConnectionAccess::Context(connection).Database().Secrets().List()) {
    if (secret.type == "pg_user") return true;
  }
  return false;
}

ErrorKind ErrorKindOf(const std::exception& e) {
  if (auto* engine = dynamic_cast<const Exception*>(&e)) return ToErrorKind(engine->Type());
  return ErrorKind::INTERNAL;
}

std::unique_ptr<QueryResult> MakeTableResult(std::vector<std::string> names, const std::vector<ColumnType>& types,
                                             const std::vector<std::vector<SqlValue>>& rows) {
  std::vector<LogicalType> engine_types;
  engine_types.reserve(types.size());
  for (auto& type : types) engine_types.push_back(ValueConverter::ToEngine(type));
  std::vector<std::vector<Value>> engine_rows;
  engine_rows.reserve(rows.size());
  for (auto& row : rows) {
    if (row.size() != types.size()) {
      throw std::invalid_argument("MakeTableResult: a row has " + std::to_string(row.size()) + " values for " +
                                  std::to_string(types.size()) + " columns");
    }
    std::vector<Value> values;
    values.reserve(row.size());
    for (auto& value : row) values.push_back(ValueConverter::ToEngine(value));
    engine_rows.push_back(std::move(values));
  }
  return MakeRowsResult(std::move(names), engine_types, engine_rows);
}

std::string RedactCredentials(const std::string& sql) { return RedactSecrets(sql); }

int64_t ParseDurationMs(std::string_view text) { return StringUtil::ParseDurationMs(text).value_or(-1); }

bool IsObjectStoragePath(const std::string& path) { return IsRemotePath(path); }

}  // namespace lakestream
