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

}  // namespace lakestream
