#include "planner/binder/statement/bind_write_target.hpp"

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"

namespace lakestream {

TableCatalogEntry& GetWriteTable(Binder& binder, const std::string& name, const std::string& what) {
  if (const ViewCatalogEntry* view = binder.FindView(name)) {
    throw CatalogError(what + " cannot write to " + view->name + ": it is a " + (view->temporary ? "temporary " : "") +
                       "view, which stores no rows (its query is read each time); write to the tables it reads" +
                       (view->temporary ? ", or drop the view (DROP VIEW " + view->name + ") to reach the table it hides" : ""));
  }
  return binder.Context().GetCatalog().GetTableForWrite(name, what);
}

LogicalOperatorPtr BindWriteTarget(Binder& binder, const QualifiedName& name, const std::string& alias,
                                   BindContext& scope) {
  TableRef ref(TableRefType::BASE_TABLE);
  ref.name = name;
  ref.alias = alias;
  // `name` is already a catalog key, which resolves to itself in main.
  SchemaScope key_scope(binder.Context(), kDefaultSchema);
  auto get = binder.BindTableRef(ref, scope);
  get->emit_row_ids = true;
  return get;
}

LogicalOperatorPtr BindWriteTargetJoin(Binder& binder, const QualifiedName& target, const std::string& alias,
                                       const TableRef& source, const ParsedExpression* on, const char* clause,
                                       WriteJoinScopes& scopes) {
  BindContext target_scope;
  auto source_plan = binder.BindTableRef(source, scopes.source);
  auto target_plan = BindWriteTarget(binder, target, alias, target_scope);
  scopes.target_index = target_plan->table_index;
  scopes.both.Merge(scopes.source);
  scopes.both.Merge(target_scope);

  auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
  join->join_type = on ? LogicalJoinType::LEFT : LogicalJoinType::CROSS;
  if (on) {
    auto condition = binder.BindExpression(*on, scopes.both, clause);
    if (condition->return_type.id() != TypeId::BOOLEAN) {
      throw BinderError(std::string(clause) + " condition must be a BOOLEAN expression, but " + on->ToString() + " is " +
                        condition->return_type.ToString());
    }
    SplitConjunctions(std::move(condition), join->expressions);
  }
  join->children.push_back(std::move(source_plan));
  join->children.push_back(std::move(target_plan));
  return join;
}

void ThrowAmbiguousSourceMatch(const std::string& statement) {
  throw InvalidInputError(statement + ": a target row matched more than one source row, so it cannot be updated or "
                          "deleted unambiguously; deduplicate the source (e.g. keep the latest row per key) first");
}

LogicalOperatorPtr BindWhereFilter(Binder& binder, LogicalOperatorPtr plan, const ParsedExpression* where,
                                   const BindContext& scope) {
  if (!where) return plan;
  auto predicate = binder.BindExpression(*where, scope, "WHERE");
  if (predicate->return_type.id() != TypeId::BOOLEAN) {
    throw BinderError("WHERE clause must be a BOOLEAN expression, but " + where->ToString() + " is " +
                      predicate->return_type.ToString());
  }
  auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
  SplitConjunctions(std::move(predicate), filter->expressions);
  filter->children.push_back(std::move(plan));
  return filter;
}

}  // namespace lakestream
