// Whether an expression gives the same value for the same input row in any
// run, on any thread, without the running statement: it holds no subquery
// and no non-deterministic call (current_timestamp(), stream_has_data(), a
// user function declared with side effects). The planner plans such
// expressions again (semi-join reduction copies), the executor runs them on
// several threads, and the binder folds or hoists them.
#pragma once

#include "expression/bound_expression.hpp"

namespace lakestream {

bool IsRepeatable(const BoundExpression& expr);

}  // namespace lakestream
