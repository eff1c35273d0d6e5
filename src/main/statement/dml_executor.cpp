// INSERT, UPDATE and DELETE: each computes its change set with an ordinary
// query plan, then commits it to the table's storage in one TableCommit.
#include "catalog/catalog.hpp"
#include "execution/plan_executor.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"
#include "planner/binder.hpp"

namespace lakestream {

static void CheckNotNull(const TableCatalogEntry& table, const ChunkCollection& rows) {
  for (idx_t c = 0; c < table.columns.size(); c++) {
    if (!table.columns[c].not_null) continue;
    for (idx_t k = 0; k < rows.ChunkCount(); k++) {
      const DataChunk& chunk = rows.Chunk(k);
      for (idx_t r = 0; r < chunk.size(); r++) {
        if (!chunk.data[c].IsValid(r)) {
          throw ConstraintError("NOT NULL constraint failed: " + table.name + "." + table.columns[c].name +
                                " cannot be NULL; supply a value for it");
        }
      }
    }
  }
}

// INSERT ... VALUES (1, DEFAULT): DEFAULT stands for the column's default value.
static void ReplaceDefaultKeywords(const TableCatalogEntry& table, InsertStatement& stmt) {
  if (!stmt.query || stmt.query->type != QueryNodeType::VALUES_NODE) return;
  for (auto& row : stmt.query->values) {
    for (idx_t j = 0; j < row.size(); j++) {
      auto& e = row[j];
      if (e->type != ExpressionType::COLUMN_REF || e->names.size() != 1 || !StringUtil::CIEquals(e->names[0], "default")) {
        continue;
      }
      int64_t column = stmt.columns.empty() ? static_cast<int64_t>(j) : table.ColumnIndex(stmt.columns[j < stmt.columns.size() ? j : 0]);
      if (column < 0 || column >= static_cast<int64_t>(table.columns.size())) continue;  // reported by the binder below
      const TableColumn& target = table.columns[column];
      auto constant = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, e->location);
      constant->value = target.default_value.IsNull() ? Value(target.type) : target.default_value;
      e = std::move(constant);
    }
  }
}

std::unique_ptr<QueryResult> ExecuteInsert(ClientContext& context, InsertStatement& stmt) {
  TableCatalogEntry& table = context.GetCatalog().GetTableForWrite(stmt.table.Name(), stmt.overwrite ? "INSERT OVERWRITE" : "INSERT");
  if (stmt.overwrite) CheckRowsRemovable(table, "INSERT OVERWRITE");
  ReplaceDefaultKeywords(table, stmt);
  Binder binder(context);
  BoundQuery query = binder.BindQuery(*stmt.query);
  std::vector<int64_t> source_of(table.columns.size(), -1);
  if (stmt.columns.empty()) {
    if (query.types.size() != table.columns.size()) {
      throw BinderError("table " + table.name + " has " + std::to_string(table.columns.size()) + " columns but " +
                        std::to_string(query.types.size()) + " values were supplied; list the target columns, "
                        "e.g. INSERT INTO " + table.name + " (a, b) VALUES ...");
    }
    for (idx_t i = 0; i < table.columns.size(); i++) source_of[i] = static_cast<int64_t>(i);
  } else {
    if (stmt.columns.size() != query.types.size()) {
      throw BinderError("INSERT INTO " + table.name + " names " + std::to_string(stmt.columns.size()) + " columns but " +
                        std::to_string(query.types.size()) + " values were supplied");
    }
    for (idx_t j = 0; j < stmt.columns.size(); j++) {
      int64_t idx = table.ColumnIndex(stmt.columns[j]);
      if (idx < 0) {
        std::string hint = StringUtil::ClosestMatch(stmt.columns[j], table.Names());
        throw BinderError("Table " + table.name + " has no column named " + stmt.columns[j] +
                          (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"));
      }
      if (source_of[idx] >= 0) throw BinderError("Column " + stmt.columns[j] + " is named twice in INSERT INTO " + table.name);
      source_of[idx] = static_cast<int64_t>(j);
    }
  }
  auto bindings = query.plan->GetBindings();
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  for (idx_t i = 0; i < table.columns.size(); i++) {
    const TableColumn& column = table.columns[i];
    if (source_of[i] < 0) {
      projection->expressions.push_back(MakeConstant(column.default_value.IsNull() ? Value(column.type) : column.default_value));
      continue;
    }
    idx_t j = static_cast<idx_t>(source_of[i]);
    projection->expressions.push_back(AddCast(MakeBindingRef(bindings[j], query.types[j], query.names[j]), column.type));
  }
  projection->children.push_back(std::move(query.plan));
  ChunkCollection rows = ExecutePlan(context, std::move(projection));
  CheckNotNull(table, rows);
  TableCommit commit;
  commit.operation = stmt.overwrite ? "INSERT OVERWRITE" : "WRITE";
  commit.overwrite = stmt.overwrite;
  int64_t count = static_cast<int64_t>(rows.Count());
  commit.inserted = std::move(rows);
  commit.inserted.SetTypes(table.Types());
  CommitStatementChanges(context, table, commit);
  return MakeCountResult("num_affected_rows", count);
}

// A scan of `table` (with row ids) bound into `scope` under `alias`.
static LogicalOperatorPtr BindTarget(Binder& binder, const QualifiedName& name, const std::string& alias, BindContext& scope) {
  TableRef ref(TableRefType::BASE_TABLE);
  ref.name = name;
  ref.alias = alias;
  auto get = binder.BindTableRef(ref, scope);
  get->emit_row_ids = true;
  return get;
}

static LogicalOperatorPtr AddWhere(Binder& binder, LogicalOperatorPtr plan, const ParsedExpression* where, const BindContext& scope) {
  if (!where) return plan;
  auto predicate = binder.BindExpression(*where, scope, "WHERE");
  if (predicate->return_type.id() != TypeId::BOOLEAN) {
    throw BinderError("WHERE clause must be a BOOLEAN expression, but " + where->ToString() + " is " + predicate->return_type.ToString());
  }
  auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
  SplitConjunctions(std::move(predicate), filter->expressions);
  filter->children.push_back(std::move(plan));
  return filter;
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

std::unique_ptr<QueryResult> ExecuteUpdate(ClientContext& context, UpdateStatement& stmt) {
  TableCatalogEntry& table = context.GetCatalog().GetTableForWrite(stmt.table.Name(), "UPDATE");
  CheckRowsRemovable(table, "UPDATE");
  Binder binder(context);
  BindContext scope;
  auto plan = BindTarget(binder, stmt.table, stmt.alias, scope);
  idx_t table_index = plan->table_index;
  plan = AddWhere(binder, std::move(plan), stmt.where.get(), scope);
  std::vector<BoundExprPtr> new_values(table.columns.size());
  std::string alias = stmt.alias.empty() ? table.name : stmt.alias;
  for (auto& set : stmt.set) {
    const std::string& column = set.column.back();
    if (set.column.size() > 1 && !StringUtil::CIEquals(set.column[set.column.size() - 2], alias)) {
      throw BinderError("SET " + StringUtil::Join(set.column, ".") + ": " + set.column[set.column.size() - 2] +
                        " is not the table being updated (" + alias + ")");
    }
    int64_t idx = table.ColumnIndex(column);
    if (idx < 0) {
      std::string hint = StringUtil::ClosestMatch(column, table.Names());
      throw BinderError("Table " + table.name + " has no column named " + column + (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"));
    }
    if (new_values[idx]) throw BinderError("Column " + column + " is assigned twice in UPDATE " + table.name);
    new_values[idx] = AddCast(binder.BindExpression(*set.value, scope, "UPDATE SET"), table.columns[idx].type);
  }
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  for (idx_t i = 0; i < table.columns.size(); i++) {
    projection->expressions.push_back(new_values[i] ? std::move(new_values[i])
                                                    : MakeBindingRef({table_index, i}, table.columns[i].type, table.columns[i].name));
  }
  projection->expressions.push_back(MakeBindingRef({table_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  projection->children.push_back(std::move(plan));
  ChunkCollection rows = ExecutePlan(context, std::move(projection));
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
  CheckNotNull(table, commit.updated);
  int64_t count = static_cast<int64_t>(commit.updated_row_ids.size());
  if (count > 0 || !context.StreamReads().empty()) CommitStatementChanges(context, table, commit);
  return MakeCountResult("num_affected_rows", count);
}

std::unique_ptr<QueryResult> ExecuteDelete(ClientContext& context, DeleteStatement& stmt) {
  const char* operation = stmt.truncate ? "TRUNCATE" : "DELETE";
  TableCatalogEntry& table = context.GetCatalog().GetTableForWrite(stmt.table.Name(), operation);
  // Refused whether or not a row matches, as Delta does: the outcome must not
  // depend on the data.
  CheckRowsRemovable(table, operation);
  if (stmt.truncate) {
    // An overwrite with nothing: every file removed, every row a delete in the
    // change data feed, without planning a scan for row ids.
    int64_t count = static_cast<int64_t>(table.storage->RowCount());
    TableCommit commit;
    commit.operation = operation;
    commit.overwrite = true;
    commit.inserted.SetTypes(table.Types());
    CommitStatementChanges(context, table, commit);
    return MakeCountResult("num_affected_rows", count);
  }
  Binder binder(context);
  BindContext scope;
  auto plan = BindTarget(binder, stmt.table, stmt.alias, scope);
  idx_t table_index = plan->table_index;
  plan = AddWhere(binder, std::move(plan), stmt.where.get(), scope);
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  projection->expressions.push_back(MakeBindingRef({table_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  projection->children.push_back(std::move(plan));
  ChunkCollection rows = ExecutePlan(context, std::move(projection));
  TableCommit commit;
  commit.operation = operation;
  commit.deleted_rows = ExtractRowIds(rows, 0);
  int64_t count = static_cast<int64_t>(commit.deleted_rows.size());
  if (count > 0 || !context.StreamReads().empty()) CommitStatementChanges(context, table, commit);
  return MakeCountResult("num_affected_rows", count);
}

}  // namespace lakestream
