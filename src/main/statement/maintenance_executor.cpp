// OPTIMIZE and VACUUM.
#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "storage/table/delta_table.hpp"
#include "sink/sink_runner.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

static DeltaTable& MaintainedTable(ClientContext& context, const std::string& name, const char* what) {
  auto& entry = context.GetCatalog().GetTable(name);
  DeltaTable* delta = DatabaseInstance::AsDelta(entry);
  if (!delta) {
    throw NotImplementedError(std::string(what) + " on table " + entry.name +
                              ": in-memory tables have no files to compact or clean; open a database directory (lakestream DB_DIR)");
  }
  return *delta;
}

std::unique_ptr<QueryResult> ExecuteOptimize(ClientContext& context, OptimizeStatement& stmt) {
  DeltaTable& table = MaintainedTable(context, stmt.table.Name(), "OPTIMIZE");
  auto [removed, added] = table.Optimize();
  return MakeRowsResult({"num_files_removed", "num_files_added"}, {TypeId::BIGINT, TypeId::BIGINT},
                        {{Value::BIGINT(removed), Value::BIGINT(added)}});
}

static std::string FormatHours(double hours) {
  std::string text = std::to_string(hours);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

std::unique_ptr<QueryResult> ExecuteVacuum(ClientContext& context, VacuumStatement& stmt) {
  DeltaTable& table = MaintainedTable(context, stmt.table.Name(), "VACUUM");
  std::optional<int64_t> retain_ms;
  if (stmt.retain_hours) {
    if (*stmt.retain_hours < 0) throw InvalidInputError("VACUUM " + table.Name() + " RETAIN: hours must not be negative");
    retain_ms = static_cast<int64_t>(*stmt.retain_hours * 3600.0 * 1000.0);
    // As Delta: a short retention may delete files that a reader of an older
    // version, or a writer whose commit is not in yet, still uses.
    int64_t minimum = table.Snapshot().DeletedFileRetentionMs();
    if (*retain_ms < minimum && context.vacuum_retention_check) {
      throw InvalidInputError("VACUUM " + table.Name() + " RETAIN " + FormatHours(*stmt.retain_hours) +
                              " HOURS is shorter than the table's retention, delta.deletedFileRetentionDuration (" +
                              FormatHours(static_cast<double>(minimum) / 3600000.0) +
                              " hours): it could delete files that readers of older versions and running writers "
                              "still use. If no one uses them, SET " + std::string(kVacuumRetentionCheckSetting) +
                              " = false first (or lower the table's delta.deletedFileRetentionDuration)");
    }
  }
  // Files whose changes a stream or a sink has not consumed yet stay, whatever the retention.
  auto files = table.Vacuum(retain_ms, stmt.dry_run, OldestVersionStillNeeded(context.GetCatalog(), table.Name()));
  std::vector<std::vector<Value>> rows;
  rows.reserve(files.size());
  for (auto& f : files) rows.push_back({Value(f)});
  return MakeRowsResult({stmt.dry_run ? "files_to_delete" : "deleted_file"}, {TypeId::VARCHAR}, rows);
}

}  // namespace lakestream
