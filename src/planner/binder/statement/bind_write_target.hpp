// Pieces shared by the binders of the statements that change existing rows
// (UPDATE, DELETE, MERGE): the scan of the target with its row ids, its join
// with a source (MERGE ... USING, UPDATE ... FROM, DELETE ... USING), and the
// WHERE filter over it.
#pragma once

#include <string>

#include "catalog/catalog.hpp"
#include "parser/ast.hpp"
#include "planner/binder.hpp"

namespace lakestream {

// The table a statement that writes rows (`what`: "UPDATE", "INSERT", ...)
// writes to: Catalog::GetTableForWrite, after refusing a view of that name
// (a temporary view hides the table for reads, so a write that reached the
// table under it would not be what the statement says).
TableCatalogEntry& GetWriteTable(Binder& binder, const std::string& name, const std::string& what);

// A scan of table `name` that also yields each row's id, bound into `scope`
// under `alias` (the table's name when empty).
LogicalOperatorPtr BindWriteTarget(Binder& binder, const QualifiedName& name, const std::string& alias,
                                   BindContext& scope);

// The scopes of a target joined with a source.
struct WriteJoinScopes {
  BindContext source;  // the source's columns only
  BindContext both;    // source and target
  idx_t target_index = 0;
};

// The join of `source` (left) with the scan of `target` (right, with row
// ids): a LEFT join on `on` for MERGE, a CROSS join (on = null) that the
// caller's WHERE filter turns into an inner join for UPDATE ... FROM and
// DELETE ... USING. `clause` names the ON clause in errors.
LogicalOperatorPtr BindWriteTargetJoin(Binder& binder, const QualifiedName& target, const std::string& alias,
                                       const TableRef& source, const ParsedExpression* on, const char* clause,
                                       WriteJoinScopes& scopes);

// The error for a target row that met several source rows, so that what it
// should become is ambiguous (`statement`: "MERGE INTO t", "UPDATE t ... FROM").
[[noreturn]] void ThrowAmbiguousSourceMatch(const std::string& statement);

// `plan` filtered by `where` (returned unchanged when null); a BinderError when
// `where` is not BOOLEAN.
LogicalOperatorPtr BindWhereFilter(Binder& binder, LogicalOperatorPtr plan, const ParsedExpression* where,
                                   const BindContext& scope);

}  // namespace lakestream
