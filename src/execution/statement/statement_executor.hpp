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

std::unique_ptr<QueryResult> ExecuteSelect(ClientContext& context, SelectStatement& statement);
std::unique_ptr<QueryResult> ExecuteExplain(ClientContext& context, ExplainStatement& statement);
std::unique_ptr<QueryResult> ExecuteCreateTable(ClientContext& context, CreateTableStatement& statement);
std::unique_ptr<QueryResult> ExecuteDrop(ClientContext& context, DropStatement& statement);
std::unique_ptr<QueryResult> ExecuteAlterTable(ClientContext& context, AlterTableStatement& statement);
std::unique_ptr<QueryResult> ExecuteShow(ClientContext& context, ShowStatement& statement);
std::unique_ptr<QueryResult> ExecuteDescribe(ClientContext& context, DescribeStatement& statement);
std::unique_ptr<QueryResult> ExecuteInsert(ClientContext& context, InsertStatement& statement);
std::unique_ptr<QueryResult> ExecuteUpdate(ClientContext& context, UpdateStatement& statement);
std::unique_ptr<QueryResult> ExecuteDelete(ClientContext& context, DeleteStatement& statement);
std::unique_ptr<QueryResult> ExecuteMerge(ClientContext& context, MergeStatement& statement);
std::unique_ptr<QueryResult> ExecuteCopy(ClientContext& context, CopyStatement& statement);
std::unique_ptr<QueryResult> ExecuteOptimize(ClientContext& context, OptimizeStatement& statement);
std::unique_ptr<QueryResult> ExecuteVacuum(ClientContext& context, VacuumStatement& statement);

// A result holding `rows` (moved in).
std::unique_ptr<QueryResult> MakeResult(std::vector<std::string> names, ChunkCollection& rows);
// A result from rows of Values of the given types (for introspection and DML counts).
std::unique_ptr<QueryResult> MakeRowsResult(std::vector<std::string> names, std::vector<LogicalType> types,
                                            const std::vector<std::vector<Value>>& rows);
// A one-column BIGINT result (num_affected_rows) for DML.
std::unique_ptr<QueryResult> MakeCountResult(const std::string& name, int64_t count);
// A result with no columns (DDL).
std::unique_ptr<QueryResult> MakeEmptyResult();

}  // namespace lakestream
