// Reading rows written under an older schema of the same table. A table's
// schema evolves by adding top-level columns, adding fields to STRUCT columns
// (at any depth, also inside ARRAY elements and MAP values) and, with Delta
// type widening, widening numeric types; data files keep the schema they were
// written with. These helpers say whether a file's type is an older form of
// the table's type and convert its values: a missing field reads as NULL,
// fields are matched by name, widened numbers are cast.
#pragma once

#include "common/types.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"

namespace lakestream {

// True when values of `older` become values of `newer` by the rules above
// (equal types included).
bool TypeEvolvesTo(const LogicalType& older, const LogicalType& newer);

// `value` (of a type that evolves to `target`) as a value of `target`.
Value ConformValue(const Value& value, const LogicalType& target);

// Rows [0, count) of `source` conformed into `result` (whose type is the target).
void ConformVector(const Vector& source, Vector& result, idx_t count);

}  // namespace lakestream
