// Parameters (? and $n) are filled in before binding: each PARAMETER node of
// the parsed statement becomes a constant of the supplied value, so the
// binder and everything after it never see a parameter. The node keeps its
// parameter_index, so a prepared statement is filled again, in place, on
// every execution without parsing again.
#pragma once

#include <vector>

#include "common/value.hpp"
#include "parser/ast.hpp"

namespace lakestream {

// Fills every parameter of `statement` with values[index - 1]. Throws
// InvalidInputError naming the first parameter without a value (and the
// fix) when `values` has fewer than statement.parameter_count entries, or
// more, and for parameters in a statement that stores its SQL text (a view's
// definition) or in a column default, where a value cannot stand in for them.
void SubstituteParameters(SQLStatement& statement, const std::vector<Value>& values);

}  // namespace lakestream
