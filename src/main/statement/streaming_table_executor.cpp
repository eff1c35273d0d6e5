// Streaming tables (issue 8): CREATE OR REFRESH STREAMING TABLE t [(schema)]
// AS SELECT ... FROM read_files(...) | STREAM(s), and DROP STREAMING TABLE.
//
// The statement is a declaration and a refresh at once: the first run creates
// the table (a Delta table with the change data feed on) and ingests what its
// sources hold; every later run reads only the files and source versions the
// table has not ingested yet and commits their rows together with the Delta
// txn actions that record them (pipeline/ingestion_scope.hpp). A run with
// nothing new commits nothing.
//
// The result is one row: streaming_table, files, rows_read, rows_written,
// version (of the table after the run), lag_ms (from the newest ingested
// file's modification to the commit; NULL without files).
#include <chrono>

#include "common/date.hpp"
#include "common/exception.hpp"
#include "execution/plan_executor.hpp"
#include "common/string_util.hpp"
#include "main/statement/declared_properties.hpp"
#include "main/statement/drop_dependents.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "function/table/ingestion_scope.hpp"
#include "main/statement/expectations.hpp"
#include "main/statement/streaming_table_intent.hpp"
#include "main/statement/streaming_write.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/schema_evolution.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

namespace {

// Clears ClientContext::ingestion_scope however binding and execution end.
struct ScopeGuard {
  ClientContext& context;
  ScopeGuard(ClientContext& c, IngestionScope* scope) : context(c) { context.ingestion_scope = scope; }
  ~ScopeGuard() { context.ingestion_scope = nullptr; }
};

// Unset: a table that upserts by key takes updated rows from the change
// feed; an append-only one fails as Spark does, since appending an updated
// row again would duplicate it.
NonAppendMode ParseNonAppendMode(const std::string& table, const std::string& value, bool upserts) {
  std::string v = StringUtil::Lower(value);
  if (v.empty()) return upserts ? NonAppendMode::CHANGE_FEED : NonAppendMode::FAIL;
  if (v == "cdf" || v == "change_feed") return NonAppendMode::CHANGE_FEED;
  if (v == "fail") return NonAppendMode::FAIL;
  if (v == "skip") return NonAppendMode::SKIP;
  throw InvalidInputError("Streaming table " + table + ": 'pipelines.stream.onChange' must be 'cdf', 'fail' or 'skip', got '" +
                          value + "'");
}

std::string PropertyOf(const PropertyList& properties, const std::string& key) {
  for (auto& [k, v] : properties) {
    if (StringUtil::CIEquals(k, key)) return v;
  }
  return "";
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// `expectations`: the data quality metrics (ExpectationMetricsJson) of a
// table that declares expectations, as a last column; otherwise no column.
// Files ingested before that changed since (IngestionScope::changed_files):
// one warning each on the statement's result, and the same as JSON for the
// result's changed_files column, which `lakestream run` turns into
// file_changed events of the pipeline event log. Empty text when none.
std::string ReportChangedFiles(ClientContext& context, const IngestionScope& scope) {
  if (scope.changed_files.empty()) return "";
  nlohmann::json out = nlohmann::json::array();
  auto when = [](int64_t ms) { return Timestamp::ToIsoString(ms * 1000); };
  for (auto& f : scope.changed_files) {
    nlohmann::json entry = {{"path", f.now.path},
                            {"old_size", f.ingested_size},
                            {"new_size", f.now.size},
                            {"new_mtime", when(f.now.mtime_ms)},
                            {"reread", f.reread}};
    std::string mtimes = "modified " + when(f.now.mtime_ms);
    if (f.ingested_mtime_ms) {
      entry["old_mtime"] = when(*f.ingested_mtime_ms);
      mtimes = "modified " + when(*f.ingested_mtime_ms) + " -> " + when(f.now.mtime_ms);
    }
    out.push_back(entry);
    std::string what = "streaming table " + scope.table + ": file " + f.now.path + " changed after it was ingested (size " +
                       std::to_string(f.ingested_size) + " -> " + std::to_string(f.now.size) + " bytes, " + mtimes + ")";
    context.AddWarning(f.reread ? what + "; read again whole (allowOverwrites), so rows it held before are ingested again"
                                : what + "; its new content was not read. Write new data to new files, or pass "
                                         "allowOverwrites => true to read_files to ingest changed files again (whole)");
  }
  return out.dump();
}

std::unique_ptr<QueryResult> Stats(const std::string& table, int64_t files, int64_t rows_read, int64_t rows_written,
                                   std::optional<int64_t> version, std::optional<int64_t> lag_ms,
                                   const std::optional<std::string>& expectations, const std::string& changed_files) {
  std::vector<std::string> names = {"streaming_table", "files", "rows_read", "rows_written", "version", "lag_ms"};
  std::vector<LogicalType> types = {TypeId::VARCHAR, TypeId::BIGINT, TypeId::BIGINT,
                                    TypeId::BIGINT,  TypeId::BIGINT, TypeId::BIGINT};
  std::vector<Value> row = {Value(table), Value::BIGINT(files), Value::BIGINT(rows_read), Value::BIGINT(rows_written),
                            version ? Value::BIGINT(*version) : Value(LogicalType(TypeId::BIGINT)),
                            lag_ms ? Value::BIGINT(*lag_ms) : Value(LogicalType(TypeId::BIGINT))};
  if (expectations) {
    names.push_back("expectations");
    types.push_back(TypeId::VARCHAR);
    row.push_back(Value(*expectations));
  }
  if (!changed_files.empty()) {
    names.push_back("changed_files");
    types.push_back(TypeId::VARCHAR);
    row.push_back(Value(changed_files));
  }
  return MakeRowsResult(names, types, {row});
}

// A new catalog entry for the table the statement declares.
std::unique_ptr<TableCatalogEntry> NewEntry(CreateViewStatement& stmt, const std::vector<std::string>& names,
                                            const std::vector<LogicalType>& types) {
  auto entry = std::make_unique<TableCatalogEntry>();
  entry->name = stmt.name.Name();
  entry->kind = TableKind::STREAMING_TABLE;
  entry->definition = stmt.query_text;
  if (!stmt.columns.empty()) {
    for (auto& column : stmt.columns) {
      if (entry->ColumnIndex(column.name) >= 0) {
        throw BinderError("Column " + column.name + " is declared twice in streaming table " + entry->name);
      }
      LogicalType type = column.type;
      if (type.id() == TypeId::INVALID) {
        for (idx_t i = 0; i < names.size(); i++) {
          if (StringUtil::CIEquals(names[i], column.name)) type = types[i];
        }
        if (type.id() == TypeId::INVALID) {
          throw BinderError("Streaming table " + entry->name + " declares column " + column.name +
                            " without a type and its query returns no such column; give it a type or select it");
        }
      }
      entry->columns.push_back({column.name, type, column.not_null, Value(type)});
    }
  } else {
    for (idx_t i = 0; i < names.size(); i++) {
      if (entry->ColumnIndex(names[i]) >= 0) {
        throw BinderError("The query of streaming table " + entry->name + " returns two columns named " + names[i] +
                          "; give one of them an alias");
      }
      LogicalType type = types[i].id() == TypeId::SQLNULL ? LogicalType(TypeId::VARCHAR) : types[i];
      entry->columns.push_back({names[i], type, false, Value(type)});
    }
  }
  for (auto& key : stmt.primary_key) {
    int64_t idx = entry->ColumnIndex(key);
    if (idx < 0) throw BinderError("PRIMARY KEY column " + key + " is not a column of streaming table " + entry->name);
    entry->columns[idx].not_null = true;
    entry->primary_key.push_back(entry->columns[idx].name);
  }
  for (auto& part : stmt.partitioned_by) {
    int64_t idx = entry->ColumnIndex(part);
    if (idx < 0) throw BinderError("PARTITIONED BY column " + part + " is not a column of streaming table " + entry->name);
    entry->partition_columns.push_back(entry->columns[idx].name);
  }
  // Downstream views, streams and sinks read a streaming table's changes.
  entry->SetProperty("delta.enableChangeDataFeed", "true");
  entry->SetProperty("change_tracking", "true");
  for (auto& [key, value] : stmt.properties) entry->SetProperty(key, value);
  RecordDeclaredProperties(*entry, stmt.properties);
  return entry;
}

// An in-memory table has no log to record a schema change in: its rows are
// rewritten in the evolved columns (the process holds the only copy anyway).
void EvolveInMemory(TableCatalogEntry& table, const std::vector<TableColumn>& columns) {
  std::vector<LogicalType> old_types = table.Types();
  std::vector<LogicalType> types;
  types.reserve(columns.size());
  for (auto& c : columns) types.push_back(c.type);
  std::vector<idx_t> ids;
  ids.reserve(old_types.size());
  for (idx_t i = 0; i < old_types.size(); i++) ids.push_back(i);
  TableCommit commit;
  commit.operation = "ADD COLUMNS";
  commit.inserted.SetTypes(types);
  auto scan = table.storage->Scan(ids);
  DataChunk old_rows;
  old_rows.Initialize(old_types);
  while (scan->Next(old_rows, nullptr)) {
    DataChunk new_rows;
    new_rows.Initialize(types, old_rows.size());
    for (idx_t c = 0; c < types.size(); c++) {
      if (c < old_types.size()) {
        ConformVector(old_rows.data[c], new_rows.data[c], old_rows.size());
      } else {
        for (idx_t r = 0; r < old_rows.size(); r++) new_rows.data[c].SetValid(r, false);
      }
    }
    new_rows.SetCardinality(old_rows.size());
    commit.inserted.Append(new_rows);
    old_rows.Reset();
  }
  auto storage = std::make_unique<InMemoryTable>(types);
  storage->Commit(commit);
  table.storage = std::move(storage);
  table.columns = columns;
}

}  // namespace

std::unique_ptr<QueryResult> ExecuteCreateStreamingTable(ClientContext& context, CreateViewStatement& stmt) {
  // A query that cannot append increments (no streaming read, or a GROUP BY
  // over STREAM()) is the maintained result its author meant, or an error.
  if (auto view = IntendedMaterializedView(context, stmt)) return ExecuteCreateMaterializedView(context, *view);
  CheckExpectationsPerRow(stmt.name.ToString(), stmt.expectations);
  Catalog& catalog = context.GetCatalog();
  DatabaseInstance& db = context.Database();
  std::string name = stmt.name.Name();
  catalog.RequireNameForTable(name, TableKind::STREAMING_TABLE);
  TableCatalogEntry* table = catalog.FindTable(name);
  if (table && table->kind != TableKind::STREAMING_TABLE) {
    throw CatalogError(table->name + " is a " + std::string(TableKindToString(table->kind)) +
                       ", not a streaming table; pick another name, or drop it first");
  }
  if (table && !stmt.or_refresh && !stmt.or_replace) {
    if (stmt.if_not_exists) return MakeEmptyResult();
    throw CatalogError("Streaming table " + table->name +
                       " already exists! Use CREATE OR REFRESH STREAMING TABLE to bring it up to date");
  }
  if (table && stmt.or_replace) {
    CheckRowsRemovable(*table, "CREATE OR REPLACE STREAMING TABLE");
    db.DropTableStorage(*table);
    catalog.DropTable(table->name, true);
    table = nullptr;
  }
  if (table) ReconcileDeclaredProperties(context, *table, stmt.properties);

  IngestionScope scope;
  scope.table = name;
  // read_files() keeps each source's schema under "sources" of this object
  // (function/table/ingestion_scope.hpp); the table's state holds it as file_sources.
  nlohmann::json ingestion = nlohmann::json::object();
  if (table && table->state.file_sources) ingestion["sources"] = *table->state.file_sources;
  scope.state = &ingestion;
  auto keep_schemas = [&ingestion](TableState& state) {
    if (ingestion.contains("sources")) state.file_sources = ingestion["sources"];
  };
  std::string rescue = table ? table->GetProperty("rescue") : PropertyOf(stmt.properties, "rescue");
  if (StringUtil::Lower(rescue) == "true") scope.rescue_column = "_rescued_data";
  scope.non_append = ParseNonAppendMode(
      name, table ? table->GetProperty("pipelines.stream.onChange") : PropertyOf(stmt.properties, "pipelines.stream.onChange"),
      table ? !table->primary_key.empty() : !stmt.primary_key.empty());
  if (!stmt.flow_name.empty()) scope.txn_prefix = FlowTxnPrefix(stmt.flow_name);
  for (auto& column : stmt.columns) {
    if (column.type.id() == TypeId::INVALID) continue;
    scope.hints.names.push_back(column.name);
    scope.hints.types.push_back(column.type);
  }
  std::map<std::string, int64_t> memory_txns;
  DeltaTable* delta = AttachIngestedTxns(table, scope, memory_txns);

  std::vector<std::string> names;
  std::vector<LogicalType> query_types;
  ChunkCollection rows;
  const std::vector<ExpectationDefinition> expectations = stmt.expectations;
  std::vector<ExpectationMetrics> expectation_metrics;
  int64_t expectation_dropped = 0;
  std::string changed_files;  // ReportChangedFiles, once the query is bound
  auto stats = [&](int64_t files, int64_t rows_read, int64_t rows_written, std::optional<int64_t> version,
                   std::optional<int64_t> lag_ms) {
    std::optional<std::string> quality;
    if (!expectations.empty()) quality = ExpectationMetricsJson(table->name, expectation_metrics, expectation_dropped);
    return Stats(table->name, files, rows_read, rows_written, version, lag_ms, quality, changed_files);
  };
  {
    ScopeGuard guard(context, &scope);
    SchemaScope schema(context, context.GetCatalog().SchemaOfKey(name));  // the query's names are of the table's schema
    Binder binder(context);
    // Expectations ride along as BOOLEAN columns after the query's own.
    std::unique_ptr<QueryNode> checked;
    if (!expectations.empty()) checked = Parser::ParseQuery(ExpectationQueryText(stmt.query_text, expectations));
    BoundQuery query = binder.BindQuery(checked ? *checked : *stmt.query);
    query.names.resize(query.names.size() - expectations.size());
    query.types.resize(query.types.size() - expectations.size());
    names = query.names;
    query_types = query.types;
    if (!table) {
      // Create the table before reading: its columns come from the bound query.
      auto entry = NewEntry(stmt, query.names, query.types);
      keep_schemas(entry->state);
      db.CreateTableStorage(*entry, std::nullopt, stmt.comment);
      for (auto& key : entry->primary_key) entry->columns[entry->ColumnIndex(key)].not_null = true;
      table = &catalog.CreateTable(std::move(entry), false, false);
      scope.state_changed = false;
      db.SaveCatalog();
    }
    rows = ExecutePlan(context, std::move(query.plan));
  }
  changed_files = ReportChangedFiles(context, scope);
  // Checked before anything is saved: a FAIL UPDATE violation leaves the
  // table, its ingestion state and its stored schema as they were.
  if (!expectations.empty()) {
    rows = ApplyExpectations("streaming table " + table->name, names, expectations, rows, expectation_metrics,
                             expectation_dropped);
  }
  // The stored schema and the definition are saved before the commit: a
  // crash after this point re-reads the same files with the same schema.
  // A flow's query is not the table's definition (a table may have several flows).
  if (scope.state_changed || (stmt.flow_name.empty() && table->definition != stmt.query_text)) {
    if (stmt.flow_name.empty()) table->definition = stmt.query_text;
    keep_schemas(table->state);
    db.SaveCatalog();
  }
  delta = DatabaseInstance::AsDelta(*table);
  auto version = [&]() -> std::optional<int64_t> {
    if (delta) return delta->Version();
    return std::nullopt;
  };
  if (scope.new_files.empty() && scope.stream_offsets.empty()) {
    return stats(0, *scope.rows_read, 0, version(), std::nullopt);
  }

  // Schema evolution: columns and STRUCT fields the query now returns (a
  // read_files source whose later files have new fields, or a STREAM of a
  // table that evolved) join the table in the commit that holds the rows.
  // A flow appends BY NAME into its target's columns (declared, or fixed by
  // the first flow): a column the target lacks is an error, not a new column.
  bool allow_new_columns = stmt.columns.empty() && stmt.flow_name.empty();
  std::vector<TableColumn> columns = EvolveStreamingColumns(*table, names, query_types, allow_new_columns);
  bool evolving = columns.size() != table->columns.size();
  for (idx_t i = 0; i < table->columns.size() && !evolving; i++) evolving = columns[i].type != table->columns[i].type;
  if (evolving && !delta) EvolveInMemory(*table, columns);

  TableCommit commit;
  commit.operation = "STREAMING UPDATE";
  ChunkCollection mapped = MapToTableColumns(*table, columns, names, rows);
  PlanStreamingWrite(*table, columns, std::move(mapped), commit);
  int64_t newest_mtime = 0;
  for (auto& f : scope.new_files) {
    commit.txns.emplace_back(scope.Qualify(FileAppId(f.id)), static_cast<int64_t>(f.size));
    commit.txns.emplace_back(scope.Qualify(FileMtimeAppId(f.id)), f.mtime_ms);
    newest_mtime = std::max(newest_mtime, f.mtime_ms);
  }
  for (auto& [app, v] : scope.stream_offsets) commit.txns.emplace_back(scope.Qualify(app), v);
  int64_t written = static_cast<int64_t>(commit.inserted.Count() + commit.updated.Count());
  auto txns = commit.txns;
  {
    SchemaEvolutionScope evolution(evolving && delta ? &columns : nullptr);
    table->storage->Commit(commit);
  }
  if (!delta) {
    // In memory there is no log to keep the txns: the entry's state does.
    if (!table->state.txns) table->state.txns.emplace();
    for (auto& [app, v] : txns) (*table->state.txns)[app] = v;
  }
  if (delta) delta->Refresh();
  if (evolving && delta) {
    DatabaseInstance::SyncFromDelta(*table);
    db.SaveCatalog();
  }
  std::optional<int64_t> lag;
  if (!scope.new_files.empty()) lag = std::max<int64_t>(0, NowMs() - newest_mtime);
  return stats(static_cast<int64_t>(scope.new_files.size()), *scope.rows_read, written, version(), lag);
}

std::unique_ptr<QueryResult> ExecuteDropStreamingTable(ClientContext& context, DropStatement& stmt) {
  Catalog& catalog = context.GetCatalog();
  TableCatalogEntry* entry = catalog.FindTable(stmt.name.Name());
  if (!entry) {
    if (stmt.if_exists) return MakeEmptyResult();
    catalog.GetTable(stmt.name.Name());  // throws with a hint
  }
  if (entry->kind != TableKind::STREAMING_TABLE) {
    throw CatalogError(entry->name + " is a " + std::string(TableKindToString(entry->kind)) +
                       ", not a streaming table; drop it with DROP " + StringUtil::Upper(TableKindToString(entry->kind)) +
                       " " + entry->name);
  }
  context.Database().RequireWritable("DROP STREAMING TABLE");
  std::string name = entry->name;
  // Not refused while others read it: a pipeline's full refresh rebuilds a
  // streaming table with this DROP and then repositions its sinks; streams
  // and sinks notice the new table by its id. CASCADE drops them.
  if (stmt.cascade) DropDependentsOrRefuse(context, stmt, "streaming table", name);
  RemoveTable(context, *catalog.FindTable(name));  // also a table that cannot be opened
  return MakeEmptyResult();
}

}  // namespace lakestream
