// Executors for each kind of statement. Each takes the parsed statement and
// returns its result; errors are thrown as typed exceptions (ClientContext
// turns them into error results).
#pragma once

#include <memory>

#include "common/chunk_collection.hpp"
#include "lakestream/result.hpp"
#include "parser/ast.hpp"

namespace lakestream {

class ClientContext;
struct ViewCatalogEntry;

std::unique_ptr<QueryResult> ExecuteSelect(ClientContext& context, SelectStatement& statement);
std::unique_ptr<QueryResult> ExecuteExplain(ClientContext& context, ExplainStatement& statement);
std::unique_ptr<QueryResult> ExecuteCreateTable(ClientContext& context, CreateTableStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDrop(ClientContext& context, DropStatement& stmt);
std::unique_ptr<QueryResult> ExecuteAlterTable(ClientContext& context, AlterTableStatement& stmt);
std::unique_ptr<QueryResult> ExecuteShow(ClientContext& context, ShowStatement& stmt);
// CREATE SCHEMA, DROP SCHEMA, USE; SHOW SCHEMAS (schema_executor.cpp, docs/sql-schemas.md).
std::unique_ptr<QueryResult> ExecuteSchemaStatement(ClientContext& context, SchemaStatement& stmt);
std::unique_ptr<QueryResult> ExecuteShowSchemas(ClientContext& context, ShowStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDescribe(ClientContext& context, DescribeStatement& stmt);
std::unique_ptr<QueryResult> ExecuteInsert(ClientContext& context, InsertStatement& stmt);
std::unique_ptr<QueryResult> ExecuteUpdate(ClientContext& context, UpdateStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDelete(ClientContext& context, DeleteStatement& stmt);
std::unique_ptr<QueryResult> ExecuteMerge(ClientContext& context, MergeStatement& stmt);
std::unique_ptr<QueryResult> ExecuteCopy(ClientContext& context, CopyStatement& stmt);
std::unique_ptr<QueryResult> ExecuteOptimize(ClientContext& context, OptimizeStatement& stmt);
// VACUUM refuses a RETAIN below the table's delta.deletedFileRetentionDuration
// unless this setting (Delta's name) is false (ClientContext::vacuum_retention_check).
inline constexpr const char* kVacuumRetentionCheckSetting = "spark.databricks.delta.retentionDurationCheck.enabled";
std::unique_ptr<QueryResult> ExecuteVacuum(ClientContext& context, VacuumStatement& stmt);

// Table streams (stream_executor.cpp, issue 5).
std::unique_ptr<QueryResult> ExecuteCreateStream(ClientContext& context, CreateStreamStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDropStream(ClientContext& context, DropStatement& stmt);
std::unique_ptr<QueryResult> ExecuteShowStreams(ClientContext& context, ShowStatement& statement);
std::unique_ptr<QueryResult> ExecuteDescribeStream(ClientContext& context, DescribeStatement& stmt);

// Plain views (plain_view_executor.cpp): CREATE [OR REPLACE] [TEMP] VIEW,
// DROP VIEW, SHOW VIEWS (plain, temporary and materialized), DESCRIBE v.
std::unique_ptr<QueryResult> ExecuteCreatePlainView(ClientContext& context, CreateViewStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDropView(ClientContext& context, DropStatement& stmt);
std::unique_ptr<QueryResult> ExecuteShowViews(ClientContext& context, ShowStatement& statement);
std::unique_ptr<QueryResult> DescribeView(ClientContext& context, const ViewCatalogEntry& view);

// Materialized views (view_executor.cpp, issue 6): CREATE [OR REPLACE] MATERIALIZED VIEW,
// CREATE OR REFRESH LIVE TABLE / MATERIALIZED VIEW, REFRESH, DROP, SHOW, DESCRIBE.
std::unique_ptr<QueryResult> ExecuteCreateMaterializedView(ClientContext& context, CreateViewStatement& stmt);
std::unique_ptr<QueryResult> ExecuteRefresh(ClientContext& context, RefreshStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDropMaterializedView(ClientContext& context, DropStatement& stmt);
std::unique_ptr<QueryResult> ExecuteShowMaterializedViews(ClientContext& context, ShowStatement& statement);
std::unique_ptr<QueryResult> ExecuteDescribeMaterializedView(ClientContext& context, DescribeStatement& stmt);
// Auto views caught up around statements: ivm/view_maintenance.hpp.

// Sinks (sink_executor.cpp, issue 7).
std::unique_ptr<QueryResult> ExecuteCreateSink(ClientContext& context, CreateSinkStatement& statement);
std::unique_ptr<QueryResult> ExecuteRunSink(ClientContext& context, RunSinkStatement& statement);
std::unique_ptr<QueryResult> ExecuteAlterSink(ClientContext& context, AlterSinkStatement& statement);
std::unique_ptr<QueryResult> ExecuteDropSink(ClientContext& context, DropStatement& statement);
std::unique_ptr<QueryResult> ExecuteShowSinks(ClientContext& context, ShowStatement& statement);
std::unique_ptr<QueryResult> ExecuteDescribeSink(ClientContext& context, DescribeStatement& statement);

// Streaming tables (streaming_table_executor.cpp, issue 8):
// CREATE OR REFRESH STREAMING TABLE ... AS SELECT ... FROM read_files(...) / STREAM(t).
std::unique_ptr<QueryResult> ExecuteCreateStreamingTable(ClientContext& context, CreateViewStatement& stmt);
// apply_changes_executor.cpp: APPLY CHANGES INTO / CREATE FLOW ... AS AUTO CDC,
// and CREATE STREAMING TABLE t [(columns)] without a query (a flow's target).
std::unique_ptr<QueryResult> ExecuteApplyChanges(ClientContext& context, ApplyChangesStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDeclareStreamingTable(ClientContext& context, CreateViewStatement& stmt);
std::unique_ptr<QueryResult> ExecuteDropStreamingTable(ClientContext& context, DropStatement& stmt);
// Append flows (flow_executor.cpp): CREATE FLOW f AS INSERT INTO t BY NAME
// <query>; the first flow into a declared, untyped t creates it from the
// declaration remembered here (called by ExecuteDeclareStreamingTable).
void RememberFlowTargetDeclaration(ClientContext& context, const CreateViewStatement& stmt);
std::unique_ptr<QueryResult> ExecuteCreateFlow(ClientContext& context, CreateFlowStatement& flow);

// SET name = value (set_executor.cpp): a table of settings keyed by name.
std::unique_ptr<QueryResult> ExecuteSet(ClientContext& context, SetStatement& statement);
// Every setting as {name, value, description} (lakestream_settings()).
std::vector<std::vector<std::string>> ListSettings(ClientContext& context);

// A result holding `rows` (moved in).
std::unique_ptr<QueryResult> MakeResult(std::vector<std::string> names, ChunkCollection& rows);
// A result from rows of Values of the given types (for introspection and DML counts).
std::unique_ptr<QueryResult> MakeRowsResult(std::vector<std::string> names, const std::vector<LogicalType>& types,
                                            const std::vector<std::vector<Value>>& rows);
// A one-column BIGINT result (num_affected_rows) for DML.
std::unique_ptr<QueryResult> MakeCountResult(const std::string& name, int64_t count);
// A result with no columns (DDL).
std::unique_ptr<QueryResult> MakeEmptyResult();

}  // namespace lakestream
