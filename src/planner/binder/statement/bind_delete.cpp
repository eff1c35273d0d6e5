// DELETE FROM t [[AS] a] [USING s] [WHERE e]: the row ids of the rows WHERE
// keeps (with USING, of t joined with s as MERGE joins its source; a row
// matched by several source rows is deleted once).
// TRUNCATE [TABLE] t: no plan, every row goes.
#include "catalog/catalog.hpp"
#include "planner/binder.hpp"
#include "planner/binder/statement/bind_write_target.hpp"
#include "planner/bound_statement.hpp"
#include "planner/subquery/plan_subqueries.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

BoundDelete BindDelete(Binder& binder, const DeleteStatement& stmt) {
  BoundDelete result;
  const char* operation = stmt.truncate ? "TRUNCATE" : "DELETE";
  TableCatalogEntry& table = GetWriteTable(binder, stmt.table.Name(), operation);
  // Refused whether or not a row matches, as Delta does: the outcome must not
  // depend on the data.
  CheckRowsRemovable(table, operation);
  result.table = &table;
  result.truncate = stmt.truncate;
  if (stmt.truncate) return result;
  BindContext target_scope;
  WriteJoinScopes joined;
  LogicalOperatorPtr plan;
  if (stmt.using_source) {
    plan = BindWriteTargetJoin(binder, stmt.table, stmt.alias, *stmt.using_source, nullptr, "DELETE ... USING", joined);
  } else {
    plan = BindWriteTarget(binder, stmt.table, stmt.alias, target_scope);
  }
  idx_t table_index = stmt.using_source ? joined.target_index : plan->table_index;
  const BindContext& scope = stmt.using_source ? joined.both : target_scope;
  plan = BindWhereFilter(binder, std::move(plan), stmt.where.get(), scope);
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  projection->expressions.push_back(MakeBindingRef({table_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  projection->children.push_back(std::move(plan));
  result.plan = std::move(projection);
  // Correlated subqueries (and IN) in WHERE become joins, as in a SELECT.
  PlanSubqueries(binder, result.plan);
  return result;
}

}  // namespace lakestream
