// `x IN (constants)` on typed values: the constants sorted and without
// duplicates in a vector of x's type, searched without a Value per row
// (ExpressionExecutor's IN lists of constants).
#pragma once

#include <memory>
#include <vector>

#include "common/value.hpp"
#include "common/vector.hpp"

namespace lakestream {

// The non-NULL constants `values` as a vector of `probe_type` (its capacity
// is the number of distinct values), when every value has that type and the
// type is an integer, DATE, TIMESTAMP, DECIMAL or VARCHAR; null otherwise.
std::unique_ptr<Vector> TypedInList(const LogicalType& probe_type, const std::vector<Value>& values);

// result[i] = probe[i] IN list for i < count, SQL's three-valued IN:
// TRUE when found; else NULL when the list held a NULL (`has_null`) or the
// probe is NULL; else FALSE. `negated`: NOT IN (NULL stays NULL).
void InListTyped(const Vector& probe, const Vector& list, bool has_null, bool negated, Vector& result, idx_t count);

// The rows of `sel` (`count` of them; null: rows 0..count-1) where that IN
// is TRUE, written to `true_sel` (which may be `sel`); returns how many.
idx_t InListTypedSelect(const Vector& probe, const Vector& list, bool has_null, bool negated, const sel_t* sel,
                        idx_t count, sel_t* true_sel);

}  // namespace lakestream
