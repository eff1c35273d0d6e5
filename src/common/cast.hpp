// CAST between engine types. One set of rules serves Value::CastAs, the CAST
// expression, implicit widening in the binder and literal coercion.
//
// Failures (overflow, unparsable text, a type pair with no cast) throw
// ConversionError naming the value and the target type, e.g.
//   Could not convert string 'abc' to INTEGER
// With try_cast the failing row becomes NULL instead (TRY_CAST).
#pragma once

#include "common/vector.hpp"

namespace lakestream {

// True when some value of `from` can be cast to `to`.
bool CastIsPossible(const LogicalType& from, const LogicalType& to);

// result[i] = CAST(source[i] AS result.GetType()) for i in [0, count).
void CastVector(const Vector& source, Vector& result, idx_t count, bool try_cast = false);

// The per-value rules; Value::CastAs calls this.
bool TryCastValue(const Value& input, const LogicalType& target, Value& result, std::string* error);

// Text of doubles as users expect: 1.5, 0.1, 1e+20, inf, nan.
std::string DoubleToString(double v);

}  // namespace lakestream
