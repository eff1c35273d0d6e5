// Turns the predicates pushed into a table scan (bound expressions over the
// projected columns) into storage's table filters (storage/table_filter.hpp),
// so storage can skip files without knowing expressions.
#pragma once

#include <vector>

#include "expression/bound_expression.hpp"
#include "storage/table_filter.hpp"

namespace lakestream {

// One table filter per predicate. Comparisons of a column with a constant,
// IS [NOT] NULL, IN (constants), AND and OR become structured filters that
// statistics can decide; any other part becomes a PREDICATE that evaluates
// it on a row of constant column values (partition values), so partition
// pruning works for every expression. `types` are the projected column
// types; a predicate reading anything past them (row ids) is not pushed.
std::vector<TableFilter> ConvertToTableFilters(const std::vector<BoundExprPtr>& predicates,
                                               const std::vector<LogicalType>& types);

}  // namespace lakestream
