// SELECT and EXPLAIN, and the result helpers every executor uses.
#include "main/statement/statement_executor.hpp"

#include <chrono>
#include <cstdio>

#include "execution/operator/physical_operator.hpp"
#include "execution/plan_executor.hpp"
#include "transaction/client_context.hpp"
#include "planner/binder.hpp"
#include "planner/optimizer.hpp"
#include "execution/physical_planner.hpp"

namespace lakestream {

std::unique_ptr<QueryResult> MakeResult(std::vector<std::string> names, ChunkCollection& rows) {
  auto result = std::make_unique<QueryResult>(std::move(names), rows.Types());
  for (auto& chunk : rows.TakeChunks()) result->Append(std::move(chunk));
  return result;
}

std::unique_ptr<QueryResult> MakeRowsResult(std::vector<std::string> names, const std::vector<LogicalType>& types,
                                            const std::vector<std::vector<Value>>& rows) {
  ChunkCollection collection(types);
  DataChunk chunk;
  chunk.Initialize(types);
  for (auto& row : rows) {
    for (idx_t c = 0; c < row.size(); c++) chunk.SetValue(c, chunk.size(), row[c]);
    chunk.SetCardinality(chunk.size() + 1);
    if (chunk.size() == STANDARD_VECTOR_SIZE) {
      collection.Append(chunk);
      chunk.Reset();
    }
  }
  collection.Append(chunk);
  return MakeResult(std::move(names), collection);
}

std::unique_ptr<QueryResult> MakeCountResult(const std::string& name, int64_t count) {
  return MakeRowsResult({name}, {TypeId::BIGINT}, {{Value::BIGINT(count)}});
}

std::unique_ptr<QueryResult> MakeEmptyResult() {
  return std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{});
}

std::unique_ptr<QueryResult> ExecuteSelect(ClientContext& context, SelectStatement& statement) {
  Binder binder(context);
  binder.MaterializeRepeatedCTEs();
  BoundQuery query = binder.BindQuery(*statement.node);
  ChunkCollection rows = ExecutePlan(context, std::move(query.plan));
  rows.SetTypes(query.types);
  return MakeResult(std::move(query.names), rows);
}

std::unique_ptr<QueryResult> ExecuteExplain(ClientContext& context, ExplainStatement& statement) {
  if (statement.statement->type != StatementType::SELECT) {
    throw NotImplementedError("EXPLAIN of statements other than SELECT");
  }
  auto& select = static_cast<SelectStatement&>(*statement.statement);
  Binder binder(context);
  binder.MaterializeRepeatedCTEs();
  BoundQuery query = binder.BindQuery(*select.node);
  auto plan = OptimizePlan(std::move(query.plan));
  auto physical = CreatePhysicalPlan(context, *plan);
  if (!statement.analyze) {
    return MakeRowsResult({"physical_plan"}, {TypeId::VARCHAR}, {{Value::VARCHAR(physical->ToString())}});
  }
  // EXPLAIN ANALYZE: run the plan to the end (its rows are dropped), then
  // the tree with each operator's rows and time.
  ExecutionContext execution = MakeExecutionContext(context);
  execution.profiling = true;
  ChunkCollection rows(physical->types);
  auto start = std::chrono::steady_clock::now();
  DrainOperator(execution, *physical, rows);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char total[96];
  std::snprintf(total, sizeof(total), "total: %.3fs wall clock, %llu rows\n", seconds,
                static_cast<unsigned long long>(rows.Count()));
  return MakeRowsResult({"analyzed_plan"}, {TypeId::VARCHAR}, {{Value::VARCHAR(total + physical->ToProfileString())}});
}

}  // namespace lakestream
