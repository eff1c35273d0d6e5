// MERGE INTO target USING source ON cond WHEN [NOT] MATCHED [AND c] THEN ...
//
// One plan computes, for every source row, its matching target row (a LEFT
// join of source to target, so unmatched source rows carry a NULL row id),
// every clause's condition, and the values each UPDATE / INSERT clause would
// write. Which clause decides each row is the executor's walk over the rows
// (main/statement/merge_executor.cpp).
#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"
#include "planner/binder/statement/bind_write_target.hpp"
#include "planner/bound_statement.hpp"
#include "planner/subquery/plan_subqueries.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

namespace {

// The scopes a MERGE binds its expressions in: `source` for INSERT values
// (NOT MATCHED rows have no target row), `both` for ON, clause conditions and
// UPDATE SET.
using MergeScopes = WriteJoinScopes;

}  // namespace

static bool IsInsert(MergeAction action) { return action == MergeAction::INSERT || action == MergeAction::INSERT_STAR; }

// Refuses, before anything is bound, what no source could make valid.
static void CheckMergeClauses(TableCatalogEntry& table, const MergeStatement& stmt) {
  for (const auto& clause : stmt.clauses) {
    if (clause.match == MergeMatch::NOT_MATCHED_BY_SOURCE) throw NotImplementedError("MERGE ... WHEN NOT MATCHED BY SOURCE");
    // An insert-only MERGE is an append; one that may update or delete is
    // refused before it runs, whatever the source holds.
    if (!IsInsert(clause.action)) {
      CheckRowsRemovable(table, clause.action == MergeAction::DELETE ? "MERGE ... THEN DELETE" : "MERGE ... THEN UPDATE");
    }
  }
}

static BoundExprPtr BindClauseCondition(Binder& binder, const MergeClause& clause, const MergeScopes& scopes) {
  if (!clause.condition) return MakeConstant(Value::BOOLEAN(true));
  auto c = binder.BindExpression(*clause.condition, scopes.both, "MERGE ... WHEN ... AND");
  if (c->return_type.id() != TypeId::BOOLEAN) {
    throw BinderError("MERGE clause condition must be BOOLEAN, but " + clause.condition->ToString() + " is " +
                      c->return_type.ToString());
  }
  return c;
}

static BoundExprPtr SourceColumnFor(const BindContext& source_scope, const std::string& target_column, const std::string& target_name) {
  auto ref = source_scope.Resolve({target_column}, true);
  if (!ref) {
    throw BinderError("MERGE INTO " + target_name + ": UPDATE SET * / INSERT * needs a source column named " + target_column +
                      "; list the columns explicitly instead");
  }
  return ref;
}

// UPDATE SET * takes every column from the source's column of that name.
static std::vector<BoundExprPtr> SourceColumnsByName(const TableCatalogEntry& table, const MergeScopes& scopes) {
  std::vector<BoundExprPtr> values(table.columns.size());
  for (idx_t i = 0; i < table.columns.size(); i++) values[i] = SourceColumnFor(scopes.source, table.columns[i].name, table.name);
  return values;
}

// The row an UPDATE clause writes: SET values, the rest as the target row has them.
static std::vector<BoundExprPtr> BindMergeUpdate(Binder& binder, const TableCatalogEntry& table, const MergeClause& clause,
                                                 const std::string& alias, const MergeScopes& scopes) {
  std::vector<BoundExprPtr> values(table.columns.size());
  if (clause.action == MergeAction::UPDATE_STAR) values = SourceColumnsByName(table, scopes);
  for (const auto& set : clause.set) {
    const std::string& column = set.column.back();
    if (set.column.size() > 1 && !StringUtil::CIEquals(set.column[set.column.size() - 2], alias)) {
      throw BinderError("MERGE UPDATE SET " + StringUtil::Join(set.column, ".") + ": only columns of the target (" + alias + ") can be set");
    }
    int64_t idx = table.ColumnIndex(column);
    if (idx < 0) throw BinderError("Table " + table.name + " has no column named " + column);
    values[idx] = binder.BindExpression(*set.value, scopes.both, "MERGE UPDATE SET");
  }
  for (idx_t i = 0; i < table.columns.size(); i++) {
    if (!values[i]) values[i] = MakeBindingRef({scopes.target_index, i}, table.columns[i].type, table.columns[i].name);
  }
  return values;
}

// The row an INSERT clause writes: the listed values, the rest their defaults.
static std::vector<BoundExprPtr> BindMergeInsert(Binder& binder, const TableCatalogEntry& table, const MergeClause& clause,
                                                 const MergeScopes& scopes) {
  std::vector<BoundExprPtr> values(table.columns.size());
  if (clause.action == MergeAction::INSERT_STAR) {
    values = SourceColumnsByName(table, scopes);
  } else {
    std::vector<std::string> columns = clause.insert_columns;
    if (columns.empty()) columns = table.Names();
    if (columns.size() != clause.insert_values.size()) {
      throw BinderError("MERGE INSERT names " + std::to_string(columns.size()) + " columns but gives " +
                        std::to_string(clause.insert_values.size()) + " values");
    }
    for (idx_t j = 0; j < columns.size(); j++) {
      int64_t idx = table.ColumnIndex(columns[j]);
      if (idx < 0) throw BinderError("Table " + table.name + " has no column named " + columns[j]);
      // NOT MATCHED rows have no target row: only source columns are in scope.
      values[idx] = binder.BindExpression(*clause.insert_values[j], scopes.source, "MERGE INSERT VALUES");
    }
  }
  for (idx_t i = 0; i < table.columns.size(); i++) {
    const TableColumn& column = table.columns[i];
    if (!values[i]) values[i] = MakeConstant(column.default_value.IsNull() ? Value(column.type) : column.default_value);
  }
  return values;
}

BoundMerge BindMerge(Binder& binder, const MergeStatement& stmt) {
  BoundMerge result;
  TableCatalogEntry& table = GetWriteTable(binder, stmt.target.Name(), "MERGE");
  result.table = &table;
  CheckMergeClauses(table, stmt);
  MergeScopes scopes;
  auto join = BindWriteTargetJoin(binder, stmt.target, stmt.target_alias, *stmt.source, stmt.condition.get(), "MERGE ... ON",
                                  scopes);

  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  auto& out = projection->expressions;
  out.push_back(MakeBindingRef({scopes.target_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  std::string alias = stmt.target_alias.empty() ? table.name : stmt.target_alias;
  for (const auto& clause : stmt.clauses) {
    BoundMergeClause bound;
    bound.match = clause.match;
    bound.action = clause.action;
    bound.condition_column = out.size();
    out.push_back(BindClauseCondition(binder, clause, scopes));
    bound.first_value_column = out.size();
    if (clause.action != MergeAction::DELETE) {
      std::vector<BoundExprPtr> values = IsInsert(clause.action) ? BindMergeInsert(binder, table, clause, scopes)
                                                                 : BindMergeUpdate(binder, table, clause, alias, scopes);
      for (idx_t i = 0; i < table.columns.size(); i++) out.push_back(AddCast(std::move(values[i]), table.columns[i].type));
    }
    result.clauses.push_back(bound);
  }
  projection->children.push_back(std::move(join));
  result.plan = std::move(projection);
  // Correlated subqueries (and IN) in ON, clause conditions and values become joins, as in a SELECT.
  PlanSubqueries(binder, result.plan);
  return result;
}

}  // namespace lakestream
