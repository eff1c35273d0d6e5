// INSERT, UPDATE [... FROM] and DELETE [... USING]: each binds its statement (planner/binder/statement/),
// runs the plan that computes its change set, and commits it to the table's
// storage in one TableCommit.
#include "main/statement/dml_executor.hpp"

#include <algorithm>
#include <unordered_set>

#include "common/exception.hpp"
#include "execution/execute_into.hpp"
#include "execution/plan_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "planner/binder.hpp"
#include "planner/binder/statement/bind_write_target.hpp"
#include "storage/table_append.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

// CheckNotNull for one chunk of rows (in the table's columns).
static void CheckNotNull(const TableCatalogEntry& table, const DataChunk& chunk, const char* fix) {
  for (idx_t c = 0; c < table.columns.size(); c++) {
    if (!table.columns[c].not_null) continue;
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (!chunk.data[c].IsValid(r)) {
        throw ConstraintError("NOT NULL constraint failed: " + table.name + "." + table.columns[c].name +
                              " cannot be NULL" + fix);
      }
    }
  }
}

void CheckNotNull(const TableCatalogEntry& table, std::initializer_list<const ChunkCollection*> rows, const char* fix) {
  // Column by column, so the first NOT NULL column in table order is named.
  for (idx_t c = 0; c < table.columns.size(); c++) {
    if (!table.columns[c].not_null) continue;
    for (const ChunkCollection* set : rows) {
      for (idx_t k = 0; k < set->ChunkCount(); k++) {
        const DataChunk& chunk = set->Chunk(k);
        for (idx_t r = 0; r < chunk.size(); r++) {
          if (!chunk.data[c].IsValid(r)) {
            throw ConstraintError("NOT NULL constraint failed: " + table.name + "." + table.columns[c].name +
                                  " cannot be NULL" + fix);
          }
        }
      }
    }
  }
}

std::unique_ptr<QueryResult> ExecuteBoundInsert(ClientContext& context, BoundInsert& bound) {
  TableCatalogEntry& table = *bound.table;
  TableCommit commit;
  commit.operation = bound.overwrite ? "INSERT OVERWRITE" : "WRITE";
  commit.overwrite = bound.overwrite;
  commit.inserted.SetTypes(table.Types());
  // The rows stream into the table's files; destroyed uncommitted (an
  // error, an interrupt) the append deletes what it wrote.
  auto append = BeginAppend(*table.storage, bound.overwrite, nullptr);
  ExecutePlanInto(context, std::move(bound.plan), [&](DataChunk& chunk) {
    CheckNotNull(table, chunk, "; supply a value for it");
    append->Append(chunk);
  });
  auto count = static_cast<int64_t>(append->RowCount());
  AppendScope scope(append.get());
  CommitStatementChanges(context, table, commit);
  return MakeCountResult("num_affected_rows", count);
}

std::unique_ptr<QueryResult> ExecuteInsert(ClientContext& context, InsertStatement& stmt) {
  Binder binder(context);
  BoundInsert bound = BindInsert(binder, stmt);
  return ExecuteBoundInsert(context, bound);
}

static std::vector<row_t> ExtractRowIds(const ChunkCollection& rows, idx_t column) {
  std::vector<row_t> ids;
  ids.reserve(rows.Count());
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    const DataChunk& chunk = rows.Chunk(k);
    const int64_t* data = chunk.data[column].GetData<int64_t>();
    ids.insert(ids.end(), data, data + chunk.size());
  }
  return ids;
}

// A statement that changed no rows still commits when it read streams: their
// offsets move (transaction/statement_commit.hpp).
static void CommitIfChanged(ClientContext& context, TableCatalogEntry& table, TableCommit& commit, int64_t changed) {
  if (changed > 0 || !context.StreamReads().empty()) CommitStatementChanges(context, table, commit);
}

std::unique_ptr<QueryResult> ExecuteUpdate(ClientContext& context, UpdateStatement& stmt) {
  Binder binder(context);
  BoundUpdate bound = BindUpdate(binder, stmt);
  TableCatalogEntry& table = *bound.table;
  ChunkCollection rows = ExecutePlan(context, std::move(bound.plan));
  TableCommit commit;
  commit.operation = "UPDATE";
  commit.updated_row_ids = ExtractRowIds(rows, table.columns.size());
  commit.updated.SetTypes(table.Types());
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    DataChunk& chunk = rows.Chunk(k);
    DataChunk values;
    values.Initialize(table.Types(), chunk.size());
    for (idx_t c = 0; c < table.columns.size(); c++) values.data[c].Copy(chunk.data[c], nullptr, chunk.size(), 0, 0);
    values.SetCardinality(chunk.size());
    commit.updated.Append(values);
  }
  if (stmt.from) {
    std::unordered_set<row_t> seen;
    for (row_t id : commit.updated_row_ids) {
      if (!seen.insert(id).second) ThrowAmbiguousSourceMatch("UPDATE " + table.name + " ... FROM");
    }
  }
  CheckNotNull(table, {&commit.updated}, "; supply a value for it");
  auto count = static_cast<int64_t>(commit.updated_row_ids.size());
  CommitIfChanged(context, table, commit, count);
  return MakeCountResult("num_affected_rows", count);
}

std::unique_ptr<QueryResult> ExecuteDelete(ClientContext& context, DeleteStatement& stmt) {
  Binder binder(context);
  BoundDelete bound = BindDelete(binder, stmt);
  TableCatalogEntry& table = *bound.table;
  TableCommit commit;
  commit.operation = stmt.truncate ? "TRUNCATE" : "DELETE";
  if (bound.truncate) {
    // An overwrite with nothing: every file removed, every row a delete in the
    // change data feed, without planning a scan for row ids.
    auto count = static_cast<int64_t>(table.storage->RowCount());
    commit.overwrite = true;
    commit.inserted.SetTypes(table.Types());
    CommitStatementChanges(context, table, commit);
    return MakeCountResult("num_affected_rows", count);
  }
  ChunkCollection rows = ExecutePlan(context, std::move(bound.plan));
  commit.deleted_rows = ExtractRowIds(rows, 0);
  if (stmt.using_source) {
    // Several source rows may match one target row: it is deleted once.
    std::sort(commit.deleted_rows.begin(), commit.deleted_rows.end());
    commit.deleted_rows.erase(std::unique(commit.deleted_rows.begin(), commit.deleted_rows.end()), commit.deleted_rows.end());
  }
  auto count = static_cast<int64_t>(commit.deleted_rows.size());
  CommitIfChanged(context, table, commit, count);
  return MakeCountResult("num_affected_rows", count);
}

}  // namespace lakestream
