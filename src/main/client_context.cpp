#include "main/client_context.hpp"

#include <new>

#include "common/date.hpp"
#include "common/exception.hpp"
#include "execution/statement/statement_executor.hpp"
#include "parser/parser.hpp"
#include "planner/optimizer.hpp"
#include "planner/physical_planner.hpp"
#include "stream/stream_reader.hpp"

namespace lakestream {

ClientContext::ClientContext(std::shared_ptr<DatabaseInstance> db) : db_(std::move(db)) {}

std::vector<std::unique_ptr<QueryResult>> ClientContext::Query(const std::string& sql) {
  std::vector<std::unique_ptr<QueryResult>> results;
  std::vector<std::unique_ptr<SQLStatement>> statements;
  try {
    statements = Parser::Parse(sql);
  } catch (const Exception& e) {
    results.push_back(QueryResult::FromError(e.Type(), e.what()));
    return results;
  }
  for (auto& statement : statements) {
    std::unique_ptr<QueryResult> result;
    try {
      std::lock_guard<std::mutex> guard(db_->StatementLock());
      statement_start_ = Timestamp::Now();
      stream_reads_.clear();
      warnings_.clear();
      views_read_.clear();
      db_->RefreshTables();
      // A view can be behind without this process having changed its sources
      // (a crash between a source's commit and the view's, another engine
      // writing an attached source): auto views catch up before anything reads them.
      CatchUpViewsBeforeStatement(*this, *statement);
      views_read_.clear();
      result = RunStatement(*statement);
      WarnAboutStaleViewReads(*this);
      if (!result->HasError() && statement->type != StatementType::SELECT) MaintainViewsAfterStatement(*this);
    } catch (const Exception& e) {
      result = QueryResult::FromError(e.Type(), e.what());
    } catch (const std::bad_alloc&) {
      result = QueryResult::FromError(ExceptionType::INTERNAL,
                                      "Out of Memory Error: the statement needed more memory than is available; "
                                      "reduce the data it reads or add LIMIT");
    } catch (const std::exception& e) {
      result = QueryResult::FromError(ExceptionType::INTERNAL, std::string("Internal Error: ") + e.what());
    }
    for (auto& warning : warnings_) result->AddWarning(warning);
    warnings_.clear();
    bool failed = result->HasError();
    results.push_back(std::move(result));
    if (failed) break;
  }
  return results;
}

ChunkCollection ClientContext::ExecutePlan(LogicalOperatorPtr plan) {
  plan = OptimizePlan(std::move(plan));
  auto physical = CreatePhysicalPlan(*plan);
  ExecutionContext execution;
  execution.client = this;
  execution.function_context.statement_start = statement_start_;
  ChunkCollection rows(physical->types);
  DrainOperator(execution, *physical, rows);
  return rows;
}

static std::unique_ptr<QueryResult> NotYet(const std::string& feature) { throw NotImplementedError(feature); }

std::unique_ptr<QueryResult> ClientContext::RunStatement(SQLStatement& statement) {
  switch (statement.type) {
    case StatementType::SELECT:
    case StatementType::EXPLAIN:
    case StatementType::SHOW:
    case StatementType::DESCRIBE:
    case StatementType::SET:
    case StatementType::TRANSACTION: break;
    case StatementType::COPY:
      if (static_cast<CopyStatement&>(statement).is_from) db_->RequireWritable("COPY ... FROM");
      break;
    default: db_->RequireWritable("this statement");
  }
  switch (statement.type) {
    case StatementType::SELECT: return ExecuteSelect(*this, static_cast<SelectStatement&>(statement));
    case StatementType::EXPLAIN: return ExecuteExplain(*this, static_cast<ExplainStatement&>(statement));
    case StatementType::CREATE_TABLE: return ExecuteCreateTable(*this, static_cast<CreateTableStatement&>(statement));
    case StatementType::DROP: return ExecuteDrop(*this, static_cast<DropStatement&>(statement));
    case StatementType::ALTER_TABLE: return ExecuteAlterTable(*this, static_cast<AlterTableStatement&>(statement));
    case StatementType::SHOW: return ExecuteShow(*this, static_cast<ShowStatement&>(statement));
    case StatementType::DESCRIBE: return ExecuteDescribe(*this, static_cast<DescribeStatement&>(statement));
    case StatementType::INSERT: return ExecuteInsert(*this, static_cast<InsertStatement&>(statement));
    case StatementType::UPDATE: return ExecuteUpdate(*this, static_cast<UpdateStatement&>(statement));
    case StatementType::DELETE: return ExecuteDelete(*this, static_cast<DeleteStatement&>(statement));
    case StatementType::MERGE: return ExecuteMerge(*this, static_cast<MergeStatement&>(statement));
    case StatementType::CREATE_VIEW: {
      auto& view = static_cast<CreateViewStatement&>(statement);
      if (view.kind == ViewKind::STREAMING_TABLE) return ExecuteCreateStreamingTable(*this, view);
      if (view.kind == ViewKind::VIEW) return NotYet("plain views (CREATE VIEW); use CREATE MATERIALIZED VIEW, or a CTE");
      return ExecuteCreateMaterializedView(*this, view);
    }
    case StatementType::CREATE_STREAM: return ExecuteCreateStream(*this, static_cast<CreateStreamStatement&>(statement));
    case StatementType::CREATE_SINK: return ExecuteCreateSink(*this, static_cast<CreateSinkStatement&>(statement));
    case StatementType::COPY: return ExecuteCopy(*this, static_cast<CopyStatement&>(statement));
    case StatementType::REFRESH: return ExecuteRefresh(*this, static_cast<RefreshStatement&>(statement));
    case StatementType::RUN_SINK: return ExecuteRunSink(*this, static_cast<RunSinkStatement&>(statement));
    case StatementType::ALTER_SINK: return ExecuteAlterSink(*this, static_cast<AlterSinkStatement&>(statement));
    case StatementType::OPTIMIZE: return ExecuteOptimize(*this, static_cast<OptimizeStatement&>(statement));
    case StatementType::VACUUM: return ExecuteVacuum(*this, static_cast<VacuumStatement&>(statement));
    case StatementType::SET: return NotYet("SET " + static_cast<SetStatement&>(statement).name + ": no settings exist yet");
    case StatementType::TRANSACTION:
      return NotYet("explicit transactions (BEGIN/COMMIT/ROLLBACK); every statement commits on its own");
  }
  throw InternalError("unknown statement type");
}

}  // namespace lakestream
