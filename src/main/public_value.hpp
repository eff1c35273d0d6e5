// Conversions between the public value and type (include/lakestream/value.hpp)
// and the engine's Value and LogicalType (common/value.hpp). The public types
// carry no engine code, so every behaviour they have (text forms, parsing,
// equality) comes from the engine through these.
#pragma once

#include "common/value.hpp"
#include "lakestream/result.hpp"
#include "lakestream/value.hpp"

namespace lakestream {

struct ValueConverter {
  static ColumnType ToPublic(const LogicalType& type);
  static LogicalType ToEngine(const ColumnType& type);
  static SqlValue ToPublic(const Value& value);
  // Throws InvalidInputError for a value whose type is inconsistent (e.g. a
  // STRUCT whose field count differs from its type's).
  static Value ToEngine(const SqlValue& value);
};

ErrorKind ToErrorKind(ExceptionType type);

}  // namespace lakestream
