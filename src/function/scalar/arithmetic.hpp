// Shared pieces of the arithmetic family (arithmetic.cpp: operators,
// math.cpp: abs/round/floor/...), so both raise the same overflow message and
// use the same decimal result-type rule.
#pragma once

#include <string>

#include "common/types.hpp"

namespace lakestream {

// DECIMAL(precision, scale), or when precision passes 38 Spark's adjusted
// DECIMAL(38, max(38 - integer digits, min(scale, 6))).
LogicalType AdjustDecimalType(int precision, int scale);

// ConversionError "Overflow in addition of INTEGER (2147483647 + 1); ..." —
// for unary operations pass `b` empty and `a` already formatted ("-(x)").
[[noreturn]] void ThrowOverflow(const char* operation, const char* symbol, const LogicalType& type, const std::string& a,
                                const std::string& b);

struct BoundScalarFunction;
struct ScalarBindInput;

// The INTERVAL and calendar forms of + - * and negation (interval.cpp):
// DATE/TIMESTAMP +/- INTERVAL, INTERVAL +/- INTERVAL, INTERVAL * integer,
// -INTERVAL, DATE - DATE and TIMESTAMP - TIMESTAMP (INTERVAL, as Spark).
// `op` is '+', '-', '*' or 'n' (negation). False when no argument is an
// INTERVAL or a pair of dates/timestamps (the numeric rules apply then).
bool BindIntervalArithmetic(const ScalarBindInput& input, char op, BoundScalarFunction& out);

}  // namespace lakestream
