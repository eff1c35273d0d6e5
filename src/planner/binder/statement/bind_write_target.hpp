// Pieces shared by the binders of the statements that change existing rows
// (UPDATE, DELETE, MERGE): the scan of the target with its row ids, and the
// WHERE filter over it.
#pragma once

#include <string>

#include "parser/ast.hpp"
#include "planner/binder.hpp"

namespace lakestream {

// A scan of table `name` that also yields each row's id, bound into `scope`
// under `alias` (the table's name when empty).
LogicalOperatorPtr BindWriteTarget(Binder& binder, const QualifiedName& name, const std::string& alias,
                                   BindContext& scope);

// `plan` filtered by `where` (returned unchanged when null); a BinderError when
// `where` is not BOOLEAN.
LogicalOperatorPtr BindWhereFilter(Binder& binder, LogicalOperatorPtr plan, const ParsedExpression* where,
                                   const BindContext& scope);

}  // namespace lakestream
