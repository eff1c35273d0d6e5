// DELETE FROM t [[AS] a] [WHERE e]: the row ids of the rows WHERE keeps.
// TRUNCATE [TABLE] t: no plan, every row goes.
#include "catalog/catalog.hpp"
#include "planner/binder.hpp"
#include "planner/binder/statement/bind_write_target.hpp"
#include "planner/bound_statement.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

BoundDelete BindDelete(Binder& binder, const DeleteStatement& stmt) {
  BoundDelete result;
  const char* operation = stmt.truncate ? "TRUNCATE" : "DELETE";
  TableCatalogEntry& table = binder.Context().GetCatalog().GetTableForWrite(stmt.table.Name(), operation);
  // Refused whether or not a row matches, as Delta does: the outcome must not
  // depend on the data.
  CheckRowsRemovable(table, operation);
  result.table = &table;
  result.truncate = stmt.truncate;
  if (stmt.truncate) return result;
  BindContext scope;
  auto plan = BindWriteTarget(binder, stmt.table, stmt.alias, scope);
  idx_t table_index = plan->table_index;
  plan = BindWhereFilter(binder, std::move(plan), stmt.where.get(), scope);
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  projection->expressions.push_back(MakeBindingRef({table_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  projection->children.push_back(std::move(plan));
  result.plan = std::move(projection);
  return result;
}

}  // namespace lakestream
