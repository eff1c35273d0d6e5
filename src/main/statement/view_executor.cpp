// Materialized views: CREATE/REFRESH/DROP/SHOW/DESCRIBE and automatic refresh
// (issue 6). Maintenance itself lives in src/ivm (view_refresh.hpp).
#include <filesystem>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/declared_properties.hpp"
#include "main/statement/drop_dependents.hpp"
#include "main/statement/statement_executor.hpp"
#include "main/statement/expectations.hpp"
#include "execution/plan_executor.hpp"
#include "planner/binder.hpp"
#include "ivm/compiled_view.hpp"
#include "function/table/connection_table_scan.hpp"
#include "ivm/view_analysis.hpp"
#include "ivm/view_refresh.hpp"
#include "ivm/view_status.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

static void RequireDirectory(ClientContext& context, const std::string& name) {
  if (context.Database().InMemory()) {
    throw NotImplementedError("materialized views need a database directory (materialized view " + name +
                              "); open one with lakestream DB_DIR");
  }
}

static TableCatalogEntry& GetView(ClientContext& context, const std::string& name) {
  Catalog& catalog = context.GetCatalog();
  TableCatalogEntry* entry = catalog.FindTable(name);
  if (!entry) {
    std::string hint = StringUtil::ClosestMatch(name, catalog.TableNames(TableKind::MATERIALIZED_VIEW));
    throw CatalogError("Materialized view with name " + name + " does not exist!" +
                       (hint.empty() ? " SHOW MATERIALIZED VIEWS lists them." : " Did you mean \"" + hint + "\"?"));
  }
  if (entry->kind != TableKind::MATERIALIZED_VIEW) {
    throw CatalogError(entry->name + " is a " + TableKindToString(entry->kind) + ", not a materialized view");
  }
  return *entry;
}

// A refresh the user asked for: on failure the view is marked failed (it
// keeps its last good rows) and the statement fails with the reason.
static RefreshOutcome RefreshOrThrow(ClientContext& context, TableCatalogEntry& view, bool full, const std::string& what) {
  try {
    return RefreshView(context, view, full);
  } catch (const Exception& e) {
    MarkViewFailed(context, view, e.what());
    throw Exception(e.Type(), what + " " + view.name + " failed: " + e.RawMessage() +
                                  "; the view keeps its rows as of its last refresh. Fix the cause and run REFRESH MATERIALIZED VIEW " +
                                  view.name + " again");
  }
}

// A source the binder made from the application's own data (a DataFrame read
// by name) is refused: the view would be stored, but that data is not.
static void RefuseSessionData(ClientContext& context, const std::string& what, const LogicalOperator& op) {
  if (op.type == LogicalOperatorType::SOURCE) RefuseConnectionTableSource(context, what, op.table_name);
  for (auto& child : op.children) RefuseSessionData(context, what, *child);
}

std::unique_ptr<QueryResult> ExecuteCreateMaterializedView(ClientContext& context, CreateViewStatement& stmt) {
  CheckExpectationsPerRow(stmt.name.ToString(), stmt.expectations);
  std::string name = stmt.name.Name();
  SchemaScope schema(context, context.GetCatalog().SchemaOfKey(name));  // the query's names are of the view's schema
  RequireDirectory(context, name);
  Catalog& catalog = context.GetCatalog();
  if (!stmt.columns.empty()) {
    throw NotImplementedError("a column list in CREATE MATERIALIZED VIEW " + name + "; name the columns with AS in the query");
  }
  std::string refresh = "auto";
  PropertyList properties;
  for (auto& [key, value] : stmt.properties) {
    if (StringUtil::CIEquals(key, "refresh")) {
      refresh = StringUtil::Lower(value);
      if (refresh != "auto" && refresh != "manual") {
        throw InvalidInputError("Property 'refresh' of materialized view " + name + " must be 'auto' or 'manual', got '" +
                                value + "'");
      }
    } else {
      properties.push_back({key, value});
    }
  }
  catalog.RequireNameForTable(name, TableKind::MATERIALIZED_VIEW);
  // Expectations: every update checks the whole query result (a full
  // recompute's input) before the view changes; DROP ROW ones become a
  // filter of the stored definition, so refreshes leave those rows out too.
  const std::vector<ExpectationDefinition> expectations = stmt.expectations;
  std::optional<std::string> quality;
  std::string definition = stmt.query_text;
  if (!expectations.empty()) {
    Binder checker(context);
    BoundQuery checked = BindViewQuery(checker, ExpectationQueryText(stmt.query_text, expectations));
    std::vector<std::string> names(checked.names.begin(), checked.names.end() - static_cast<std::ptrdiff_t>(expectations.size()));
    ChunkCollection rows = ExecutePlan(context, std::move(checked.plan));
    std::vector<ExpectationMetrics> metrics;
    int64_t dropped = 0;
    ApplyExpectations("materialized view " + name, names, expectations, rows, metrics, dropped);
    quality = ExpectationMetricsJson(name, metrics, dropped);
    definition = DropRowDefinition(stmt.query_text, expectations);
  }
  // With expectations: one row of the metrics and what the update changed.
  auto result = [&](const RefreshOutcome& outcome) -> std::unique_ptr<QueryResult> {
    if (!quality) return MakeEmptyResult();
    return MakeRowsResult({"materialized_view", "num_inserted_rows", "num_updated_rows", "num_deleted_rows", "expectations"},
                          {TypeId::VARCHAR, TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT, TypeId::VARCHAR},
                          {{Value(name), Value::BIGINT(outcome.inserted), Value::BIGINT(outcome.updated),
                            Value::BIGINT(outcome.deleted), Value(*quality)}});
  };
  TableCatalogEntry* existing = catalog.FindTable(name);
  if (existing) {
    if (existing->kind != TableKind::MATERIALIZED_VIEW) {
      throw CatalogError(existing->name + " is a " + TableKindToString(existing->kind) +
                         ", not a materialized view; pick another name, or drop it first with DROP " +
                         StringUtil::Upper(TableKindToString(existing->kind)) + " " + existing->name);
    }
    if (stmt.if_not_exists) return MakeEmptyResult();
    if (!stmt.or_replace && !stmt.or_refresh) {
      throw CatalogError("Materialized view with name " + name +
                         " already exists! Use CREATE OR REPLACE MATERIALIZED VIEW to replace it, or pick another name.");
    }
    if (stmt.or_refresh && existing->definition == definition && ViewRefreshMode(*existing) == refresh) {
      ReconcileDeclaredProperties(context, *existing, properties);
      return result(RefreshOrThrow(context, *existing, false, "CREATE OR REFRESH MATERIALIZED VIEW"));
    }
  }
  // Binding checks the query (unknown columns, types) before anything is written.
  ViewAnalysis analysis = AnalyzeView(context, definition);
  for (auto& source : analysis.sources) {
    if (StringUtil::CIEquals(source, name)) {
      throw BinderError("Materialized view " + name + " cannot read itself; name another table in FROM");
    }
  }
  Binder binder(context);
  BoundQuery query = BindViewQuery(binder, definition);
  RefuseSessionData(context, "Materialized view " + name, *query.plan);
  auto entry = std::make_unique<TableCatalogEntry>();
  entry->name = name;
  entry->kind = TableKind::MATERIALIZED_VIEW;
  entry->definition = definition;
  for (idx_t i = 0; i < query.names.size(); i++) {
    LogicalType type = query.types[i].id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : query.types[i];
    if (entry->ColumnIndex(query.names[i]) >= 0) {
      throw BinderError("CREATE MATERIALIZED VIEW " + name + ": the query has two columns named " + query.names[i] +
                        "; give one of them an alias");
    }
    entry->columns.push_back({query.names[i], type, false, Value(type)});
  }
  for (auto& part : stmt.partitioned_by) {
    int64_t idx = entry->ColumnIndex(part);
    if (idx < 0) throw BinderError("PARTITIONED BY column " + part + " is not a column of materialized view " + name);
    entry->partition_columns.push_back(entry->columns[idx].name);
  }
  for (auto& [key, value] : properties) entry->SetProperty(key, value);
  // The view's own change feed is what streams and sinks read: always on.
  entry->SetProperty("delta.enableChangeDataFeed", "true");
  entry->SetProperty("change_tracking", "true");
  // Refreshes delete rows from the view's files: deletion vectors keep that
  // from rewriting them (Delta 2.4+/Spark 3.4+, Databricks and DuckDB read
  // them). A view that declares the property keeps its own value.
  if (entry->GetProperty("delta.enableDeletionVectors").empty()) entry->SetProperty("delta.enableDeletionVectors", "true");
  entry->state = TableState();
  entry->state.refresh = refresh;
  RecordDeclaredProperties(*entry, properties);
  // Views over the replaced one keep their name-based link and see its new rows on their next refresh.
  if (existing) RemoveTable(context, *existing);
  DatabaseInstance& db = context.Database();
  db.CreateTableStorage(*entry, std::nullopt, stmt.comment);
  TableCatalogEntry& view = catalog.CreateTable(std::move(entry), false, false);
  db.SaveCatalog();
  RefreshOutcome outcome;
  try {
    outcome = RefreshView(context, view, true);
  } catch (...) {
    // A view that could not be computed is not left behind half made.
    RemoveTable(context, view);
    throw;
  }
  return result(outcome);
}

std::unique_ptr<QueryResult> ExecuteRefresh(ClientContext& context, RefreshStatement& stmt) {
  std::string name = stmt.name.Name();
  TableCatalogEntry& view = GetView(context, name);
  RequireDirectory(context, name);
  RefreshOutcome outcome = RefreshOrThrow(context, view, stmt.full, "REFRESH MATERIALIZED VIEW");
  return MakeRowsResult({"refreshed_by", "num_inserted_rows", "num_updated_rows", "num_deleted_rows"},
                        {TypeId::VARCHAR, TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT},
                        {{Value(outcome.path), Value::BIGINT(outcome.inserted), Value::BIGINT(outcome.updated),
                          Value::BIGINT(outcome.deleted)}});
}

std::unique_ptr<QueryResult> ExecuteDropMaterializedView(ClientContext& context, DropStatement& stmt) {
  std::string name = stmt.name.Name();
  if (!context.GetCatalog().FindTable(name) && stmt.if_exists) return MakeEmptyResult();
  TableCatalogEntry& view = GetView(context, name);
  context.Database().RequireWritable("DROP MATERIALIZED VIEW");
  std::string view_name = view.name;
  DropDependentsOrRefuse(context, stmt, "materialized view", view_name);
  RemoveTable(context, GetView(context, view_name));
  return MakeEmptyResult();
}

static std::string SourceList(TableCatalogEntry& view) {
  std::vector<std::string> out;
  for (auto& [source, version] : ViewSourceVersions(view)) out.push_back(source + "@" + std::to_string(version));
  return StringUtil::Join(out, ", ");
}

std::unique_ptr<QueryResult> ExecuteShowMaterializedViews(ClientContext& context, ShowStatement& statement) {
  std::vector<std::vector<Value>> rows;
  std::string schema = ListedSchema(context, statement);
  for (auto& name : context.GetCatalog().TableNames(TableKind::MATERIALIZED_VIEW)) {
    if (!InSchema(context, name, schema)) continue;
    TableCatalogEntry& view = *context.GetCatalog().FindTable(name);
    std::string failure = ViewFailure(view);
    rows.push_back({Value(NameInSchema(context, view.name)), Value(ViewRefreshMode(view)), Value(view.state.maintenance.value_or("")),
                    Value(SourceList(view)), Value(ViewStatus(context, view)),
                    failure.empty() ? Value(LogicalType(TypeId::VARCHAR)) : Value(failure)});
  }
  return MakeRowsResult({"name", "refresh", "maintenance", "sources", "status", "error"},
                        {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR},
                        rows);
}

std::unique_ptr<QueryResult> ExecuteDescribeMaterializedView(ClientContext& context, DescribeStatement& stmt) {
  TableCatalogEntry& view = GetView(context, stmt.name.Name());
  SchemaScope schema(context, context.GetCatalog().SchemaOfKey(view.name));
  // The analysis is redone so the answer reflects the sources as they are now
  // (turning a source's change data feed on makes a view incremental).
  ViewAnalysis analysis;
  std::string maintenance;
  try {
    analysis = AnalyzeView(context, view.definition);
    maintenance = MaintenanceKindToString(analysis.kind);
    if (analysis.kind == MaintenanceKind::AGGREGATE) maintenance += " (GROUP BY aggregates)";
    if (analysis.kind == MaintenanceKind::ROWS) maintenance += " (delta rule over the sources' change feeds)";
  } catch (const Exception&) {
    // A source is gone: describe the view as last refreshed (its error row says why).
    maintenance = view.state.maintenance.value_or("");
    analysis.reason = view.state.reason.value_or("");
  }
  DeltaTable* delta = DatabaseInstance::AsDelta(view);
  std::vector<std::vector<Value>> rows = {
      {Value("name"), Value(view.name)},
      {Value("definition"), Value(view.definition)},
      {Value("refresh"), Value(ViewRefreshMode(view))},
      {Value("maintenance"), Value(maintenance)},
      {Value("recompute_reason"), analysis.reason.empty() ? Value(LogicalType(TypeId::VARCHAR)) : Value(analysis.reason)},
      {Value("sources"), Value(SourceList(view))},
      {Value("version"), Value(std::to_string(delta ? delta->Version() : 0))},
      {Value("last_refresh"), Value(view.state.last_refresh ? view.state.last_refresh->path : "")},
      {Value("status"), Value(ViewStatus(context, view))},
  };
  std::string failure = ViewFailure(view);
  if (!failure.empty()) rows.push_back({Value("error"), Value(failure)});
  std::string fallback = view.state.last_refresh ? view.state.last_refresh->fallback : "";
  if (!fallback.empty()) rows.push_back({Value("last_refresh_fallback"), Value(fallback)});
  // Known only to the process that refreshed (kept in memory, not in the catalog).
  const std::string& changes = RuntimeOf(view).last_changes;
  if (!changes.empty() && view.state.last_refresh && view.state.last_refresh->path == "incremental") {
    rows.push_back({Value("last_refresh_changes"), Value(changes)});
  }
  return MakeRowsResult({"info_name", "info_value"}, {TypeId::VARCHAR, TypeId::VARCHAR}, rows);
}

}  // namespace lakestream
