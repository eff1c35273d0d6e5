#include "main/statement_runner.hpp"

#include <new>

#include "common/date.hpp"
#include "common/delivery_trace.hpp"
#include "common/exception.hpp"
#include "common/query_progress.hpp"
#include "common/string_util.hpp"
#include "common/time_zone.hpp"
#include "execution/physical_planner.hpp"
#include "main/parameter_substitution.hpp"
#include "main/query_stream.hpp"
#include "ivm/view_maintainer.hpp"
#include "ivm/view_maintenance.hpp"
#include "planner/binder.hpp"
#include "sink/sink_runner.hpp"
#include "planner/optimizer.hpp"
#include "main/statement/statement_executor.hpp"
#include "parser/parser.hpp"
#include "transaction/name_resolution.hpp"
#include "storage/delta/log_sync.hpp"
#include "transaction/statement_commit.hpp"
#include "main/secret/secret_executor.hpp"

namespace lakestream {

static std::unique_ptr<QueryResult> NotYet(const std::string& feature) { throw NotImplementedError(feature); }

// Whether a statement writes to the database (and so needs it writable and
// holds its write lock while it runs).
static bool StatementWrites(const SQLStatement& statement) {
  switch (statement.type) {
    case StatementType::SELECT:
    case StatementType::EXPLAIN:
    case StatementType::SHOW:
    case StatementType::DESCRIBE:
    case StatementType::SET:
    case StatementType::TRANSACTION: return false;
    case StatementType::SCHEMA: return static_cast<const SchemaStatement&>(statement).action != SchemaAction::USE;
    case StatementType::COPY: return static_cast<const CopyStatement&>(statement).is_from;
    case StatementType::SECRET: return SecretStatementWrites(statement);
    default: return true;
  }
}

static std::unique_ptr<QueryResult> RunStatement(ClientContext& context, SQLStatement& statement) {
  if (StatementWrites(statement)) {
    context.Database().RequireWritable(statement.type == StatementType::COPY ? "COPY ... FROM" : "this statement");
  }
  // COPY ... TO writes no table (so takes no write lock), but a read-only
  // database refuses every write, files included.
  if (statement.type == StatementType::COPY && !static_cast<const CopyStatement&>(statement).is_from) {
    context.Database().RequireWritable("COPY ... TO");
  }
  switch (statement.type) {
    case StatementType::SELECT: return ExecuteSelect(context, static_cast<SelectStatement&>(statement));
    case StatementType::EXPLAIN: return ExecuteExplain(context, static_cast<ExplainStatement&>(statement));
    case StatementType::CREATE_TABLE: return ExecuteCreateTable(context, static_cast<CreateTableStatement&>(statement));
    case StatementType::DROP: return ExecuteDrop(context, static_cast<DropStatement&>(statement));
    case StatementType::ALTER_TABLE: return ExecuteAlterTable(context, static_cast<AlterTableStatement&>(statement));
    case StatementType::SHOW: return ExecuteShow(context, static_cast<ShowStatement&>(statement));
    case StatementType::DESCRIBE: return ExecuteDescribe(context, static_cast<DescribeStatement&>(statement));
    case StatementType::INSERT: return ExecuteInsert(context, static_cast<InsertStatement&>(statement));
    case StatementType::UPDATE: return ExecuteUpdate(context, static_cast<UpdateStatement&>(statement));
    case StatementType::DELETE: return ExecuteDelete(context, static_cast<DeleteStatement&>(statement));
    case StatementType::MERGE: return ExecuteMerge(context, static_cast<MergeStatement&>(statement));
    case StatementType::APPLY_CHANGES:
      return ExecuteApplyChanges(context, static_cast<ApplyChangesStatement&>(statement));
    case StatementType::CREATE_VIEW: {
      auto& view = static_cast<CreateViewStatement&>(statement);
      if (view.kind == ViewKind::STREAMING_TABLE && !view.query) return ExecuteDeclareStreamingTable(context, view);
      if (view.kind == ViewKind::STREAMING_TABLE) return ExecuteCreateStreamingTable(context, view);
      if (view.kind == ViewKind::VIEW) return ExecuteCreatePlainView(context, view);
      return ExecuteCreateMaterializedView(context, view);
    }
    case StatementType::CREATE_STREAM: return ExecuteCreateStream(context, static_cast<CreateStreamStatement&>(statement));
    case StatementType::CREATE_SINK: return ExecuteCreateSink(context, static_cast<CreateSinkStatement&>(statement));
    case StatementType::COPY: return ExecuteCopy(context, static_cast<CopyStatement&>(statement));
    case StatementType::REFRESH: return ExecuteRefresh(context, static_cast<RefreshStatement&>(statement));
    case StatementType::RUN_SINK: return ExecuteRunSink(context, static_cast<RunSinkStatement&>(statement));
    case StatementType::ALTER_SINK: return ExecuteAlterSink(context, static_cast<AlterSinkStatement&>(statement));
    case StatementType::OPTIMIZE: return ExecuteOptimize(context, static_cast<OptimizeStatement&>(statement));
    case StatementType::SECRET: return ExecuteSecretStatement(context, statement);
    case StatementType::VACUUM: return ExecuteVacuum(context, static_cast<VacuumStatement&>(statement));
    case StatementType::SET: return ExecuteSet(context, static_cast<SetStatement&>(statement));
    case StatementType::TRANSACTION:
      return NotYet("explicit transactions (BEGIN/COMMIT/ROLLBACK); every statement commits on its own");
    case StatementType::CREATE_FLOW: return ExecuteCreateFlow(context, static_cast<CreateFlowStatement&>(statement));
    case StatementType::SCHEMA: return ExecuteSchemaStatement(context, static_cast<SchemaStatement&>(statement));
  }
  throw InternalError("unknown statement type");
}

std::vector<std::unique_ptr<QueryResult>> RunQuery(ClientContext& context, const std::string& sql) {
  std::vector<std::unique_ptr<SQLStatement>> statements;
  try {
    statements = Parser::Parse(sql);
  } catch (const Exception& e) {
    std::vector<std::unique_ptr<QueryResult>> results;
    results.push_back(QueryResult::FromError(e.Type(), e.what()));
    return results;
  }
  return RunStatements(context, statements, {});
}

// Releases the database's write lock when a statement ends, however it ends.
class WriteLockRelease {
 public:
  explicit WriteLockRelease(DatabaseInstance& db) : db_(db) {}
  ~WriteLockRelease() { db_.ReleaseWriteLock(); }
  WriteLockRelease(const WriteLockRelease&) = delete;
  WriteLockRelease& operator=(const WriteLockRelease&) = delete;

 private:
  DatabaseInstance& db_;
};

// What RunStatements does before a statement's own work, under the lock.
// A statement that writes takes the write lock first, so what it reads of
// the catalog is what no other process can change until it is done.
static void BeginLockedStatement(ClientContext& context, SQLStatement& statement) {
  context.BeginStatement(Timestamp::Now());
  ProgressFor(&context).Reset();
  // RUN SINK takes the write lock itself, only while it records progress
  // (sink/sink_runner.hpp): a pass that waits for a broker keeps no writer out.
  if (StatementWrites(statement) && statement.type != StatementType::RUN_SINK) {
    // Taking the lock reloads a catalog another process changed, and while
    // it is held no other process can: no second look (a stat) is needed.
    context.Database().AcquireWriteLock([&] { context.CheckInterrupt(); });
  }
  if (!context.Database().HoldsWriteLock()) context.Database().ReloadCatalogIfChanged();
  ResolveStatementNames(context, statement);  // s.t, db.s.t and USE's schema become catalog keys
  SetSessionTimeZone(context.time_zone);
  if (statement.type == StatementType::RUN_SINK) {
    // A pass reads its source alone: a follower passes after every commit
    // of it, and refreshing every table (reading the writer's commits to
    // the view's sources too) cost about a millisecond of each pass between
    // the view's commit and its message (bench/latency, LAKESTREAM_DELIVERY_TRACE).
    RefreshSinkSource(context, static_cast<RunSinkStatement&>(statement).name.Name());
  } else {
    context.Database().RefreshTables();
  }
  // A view can be behind without this process having changed its sources
  // (a crash between a source's commit and the view's, another engine
  // writing an attached source), or because the background maintainer has
  // not refreshed it yet (ivm/view_maintainer.hpp): auto views catch up
  // before anything reads them, from the change sets handed to the
  // maintainer when they reach. DML that reads no view does not wait, nor
  // RUN SINK behind another process's maintainer (CatchesUpViewsFirst).
  if (CatchesUpViewsFirst(context, statement)) {
    TakePendingViewChanges(context);
    CatchUpViewsBeforeStatement(context, statement);
  }
  context.CommittedChanges().clear();  // the statement's own commits go here next
  context.ViewsRead().clear();
  context.EndCommit();
  context.CheckInterrupt();
}

static std::unique_ptr<QueryResult> ErrorResult(ClientContext& context) {
  std::unique_ptr<QueryResult> result;
  try {
    throw;
  } catch (const Exception& e) {
    result = QueryResult::FromError(e.Type(), e.what());
  } catch (const std::bad_alloc&) {
    result = QueryResult::FromError(ExceptionType::INTERNAL,
                                    "Out of Memory Error: the statement needed more memory than is available; "
                                    "reduce the data it reads or add LIMIT");
  } catch (const std::exception& e) {
    result = QueryResult::FromError(ExceptionType::INTERNAL, std::string("Internal Error: ") + e.what());
  }
  for (auto& warning : context.TakeWarnings()) result->AddWarning(warning);
  return result;
}

std::unique_ptr<QueryResult> StartSelectStream(ClientContext& context, std::unique_ptr<SQLStatement> statement,
                                               const std::vector<Value>& parameters) {
  try {
    context.CheckInterrupt();
    SubstituteParameters(*statement, parameters);
    std::unique_lock<StatementMutex> lock(context.Database().StatementLock());
    {
      // A SELECT writes nothing itself; a view it caught up took the lock.
      WriteLockRelease release(context.Database());
      BeginLockedStatement(context, *statement);
    }
    Binder binder(context);
    binder.MaterializeRepeatedCTEs();
    BoundQuery query = binder.BindQuery(*static_cast<SelectStatement&>(*statement).node);
    auto plan = OptimizePlan(std::move(query.plan));
    auto physical = CreatePhysicalPlan(context, *plan);
    WarnAboutStaleViewReads(context);
    auto result = std::make_unique<QueryResult>(std::move(query.names), query.types);
    std::vector<std::unique_ptr<SQLStatement>> statements;
    statements.push_back(std::move(statement));
    result->SetStream(
        std::make_shared<QueryStream>(context, std::move(lock), std::move(statements), std::move(physical)));
    for (auto& warning : context.TakeWarnings()) result->AddWarning(warning);
    return result;
  } catch (...) {
    return ErrorResult(context);
  }
}

std::vector<std::unique_ptr<QueryResult>> RunStatements(ClientContext& context,
                                                        std::vector<std::unique_ptr<SQLStatement>>& statements,
                                                        const std::vector<Value>& parameters) {
  std::vector<std::unique_ptr<QueryResult>> results;
  // Scans and table functions count their rows into the connection's progress.
  QueryProgressScope progress_scope(&ProgressFor(&context));
  for (auto& statement : statements) {
    std::unique_ptr<QueryResult> result;
    TableVersions versions;
    // Group commit: the statement's commits link under the locks and become
    // durable (their _delta_log/ fsync) after the locks are let go, so other
    // connections' statements run meanwhile and share that fsync
    // (storage/delta/log_sync.hpp). Catalog saves flush it first.
    delta::DeferredLogSync durability;
    try {
      Publications publications;
      {
        // Before the lock: an interrupted batch stops without waiting for other connections.
        context.CheckInterrupt();
        SubstituteParameters(*statement, parameters);
        std::lock_guard<StatementMutex> guard(context.Database().StatementLock());
        WriteLockRelease release(context.Database());
        BeginLockedStatement(context, *statement);
        // What this statement commits from here on is published below.
        if (statement->type != StatementType::SELECT) versions = CurrentTableVersions(context.Database());
        result = RunStatement(context, *statement);
        TraceDelivery("statement_ran");
        // The statement has committed: what follows (view maintenance) belongs to it.
        context.BeginCommit();
        WarnAboutStaleViewReads(context);
        if (!result->HasError() && statement->type != StatementType::SELECT) {
          if (!DefersViewMaintenance(context, *statement)) {
            // RUN SINK commits to no table: what it found stale was left to
            // its catch-up before it (CatchesUpViewsFirst), not to this.
            if (statement->type != StatementType::RUN_SINK) MaintainViewsAfterStatement(context);
          } else if (MovedAnAutoViewSource(context, versions)) {
            // Under the lock, so the maintainer's round (or the next
            // statement's catch-up) finds every commit it sees in memory;
            // the maintainer makes them durable before the view's commit.
            HandOffViewMaintenance(context, std::move(context.CommittedChanges()));
            context.CommittedChanges().clear();
          }
        }
        if (statement->type != StatementType::SELECT) publications = CommitsToPublish(context.Database(), versions);
      }
      Status durable = durability.Flush();
      if (!durable.ok()) {
        throw IOError("the statement's commit is visible but may not survive a crash: " + durable.message() +
                      ". Check the disk, then look at DESCRIBE HISTORY before running it again");
      }
      // Followers (a sink's --follow loop) hear of the statement's commits
      // and the view refreshes that followed them, once durable. (A
      // statement that throws after committing leaves its followers to
      // inotify or their poll.)
      Publish(publications);
      TraceDelivery("statement_durable");
    } catch (...) {
      result = ErrorResult(context);
    }
    for (auto& warning : context.TakeWarnings()) result->AddWarning(warning);
    bool failed = result->HasError();
    results.push_back(std::move(result));
    if (failed) break;
  }
  return results;
}

}  // namespace lakestream
