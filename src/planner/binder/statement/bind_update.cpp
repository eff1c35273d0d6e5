// UPDATE t [[AS] a] SET c = e, ... [FROM s] [WHERE e]: a scan of t with row
// ids (joined with s for FROM, as MERGE joins its source), the WHERE filter,
// and a projection of every column's new value (the SET expression, cast to
// the column's type, or the column as it is). With FROM, a target row that
// several source rows match is refused when the plan's rows are applied
// (dml_executor.cpp), as MERGE refuses it.
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

// The new value of each column named in SET (null for the others), each cast
// to its column's type. `alias` is the name a qualified SET column must use.
static std::vector<BoundExprPtr> BindSetList(Binder& binder, const TableCatalogEntry& table,
                                             const std::vector<SetClause>& set_list, const std::string& alias,
                                             const BindContext& scope) {
  std::vector<BoundExprPtr> new_values(table.columns.size());
  for (const auto& set : set_list) {
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
  return new_values;
}

BoundUpdate BindUpdate(Binder& binder, const UpdateStatement& stmt) {
  BoundUpdate result;
  TableCatalogEntry& table = GetWriteTable(binder, stmt.table.Name(), "UPDATE");
  CheckRowsRemovable(table, "UPDATE");
  result.table = &table;
  BindContext target_scope;
  WriteJoinScopes joined;
  LogicalOperatorPtr plan;
  if (stmt.from) {
    plan = BindWriteTargetJoin(binder, stmt.table, stmt.alias, *stmt.from, nullptr, "UPDATE ... FROM", joined);
  } else {
    plan = BindWriteTarget(binder, stmt.table, stmt.alias, target_scope);
  }
  idx_t table_index = stmt.from ? joined.target_index : plan->table_index;
  const BindContext& scope = stmt.from ? joined.both : target_scope;
  plan = BindWhereFilter(binder, std::move(plan), stmt.where.get(), scope);
  std::vector<BoundExprPtr> new_values =
      BindSetList(binder, table, stmt.set, stmt.alias.empty() ? table.name : stmt.alias, scope);

  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  for (idx_t i = 0; i < table.columns.size(); i++) {
    result.assigned.push_back(new_values[i] != nullptr);
    projection->expressions.push_back(new_values[i] ? std::move(new_values[i])
                                                    : MakeBindingRef({table_index, i}, table.columns[i].type, table.columns[i].name));
  }
  projection->expressions.push_back(MakeBindingRef({table_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  projection->children.push_back(std::move(plan));
  result.plan = std::move(projection);
  // Correlated subqueries (and IN) in WHERE and SET become joins, as in a SELECT.
  PlanSubqueries(binder, result.plan);
  return result;
}

}  // namespace lakestream
