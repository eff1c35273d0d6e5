#include "planner/binder/statement/bind_write_target.hpp"

#include "common/exception.hpp"

namespace lakestream {

LogicalOperatorPtr BindWriteTarget(Binder& binder, const QualifiedName& name, const std::string& alias,
                                   BindContext& scope) {
  TableRef ref(TableRefType::BASE_TABLE);
  ref.name = name;
  ref.alias = alias;
  auto get = binder.BindTableRef(ref, scope);
  get->emit_row_ids = true;
  return get;
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
