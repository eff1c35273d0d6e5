// Logical types of the engine and their physical representation in vectors.
//
//   BOOLEAN    -> bool (one byte)
//   INTEGER    -> int32_t
//   BIGINT     -> int64_t
//   DOUBLE     -> double
//   DECIMAL(p,s) -> hugeint_t (__int128), the unscaled value; p <= 38
//   VARCHAR    -> string_t (std::string_view into a StringHeap the vector keeps alive)
//   DATE       -> date_t (int32_t days since 1970-01-01)
//   TIMESTAMP  -> timestamp_t (int64_t microseconds since the epoch, UTC): an
//                 instant, shown in the session time zone (Spark's TIMESTAMP_LTZ)
//   TIMESTAMP_NTZ -> timestamp_t: a wall clock without zone, the micros of
//                 that wall clock read as if it were UTC (docs/sql-time.md)
//   STRUCT     -> no data of its own; one child vector per field
//   LIST/MAP   -> list_entry_t {offset, length} into one child vector
//                 (MAP's child is STRUCT(key, value))
//   SQLNULL    -> the type of an untyped NULL literal; becomes any type on cast
//   INTERVAL   -> interval_t {months, days, micros} (common/interval.hpp)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lakestream {

using idx_t = uint64_t;
using hugeint_t = __int128;
using date_t = int32_t;
using timestamp_t = int64_t;
using string_t = std::string_view;

// A span of time with its calendar parts kept apart (see common/interval.hpp).
struct interval_t {
  int32_t months;
  int32_t days;
  int64_t micros;
};

struct list_entry_t {
  uint64_t offset;
  uint64_t length;
};

// Rows per DataChunk.
constexpr idx_t STANDARD_VECTOR_SIZE = 2048;

enum class TypeId : uint8_t {
  INVALID = 0,
  SQLNULL,
  BOOLEAN,
  INTEGER,
  BIGINT,
  DOUBLE,
  DECIMAL,
  VARCHAR,
  DATE,
  TIMESTAMP,
  STRUCT,
  LIST,
  MAP,
  INTERVAL,  // appended: persisted ids above stay stable
  TIMESTAMP_NTZ,
};

class LogicalType;
using child_list_t = std::vector<std::pair<std::string, LogicalType>>;

class LogicalType {
 public:
  LogicalType() : id_(TypeId::INVALID) {}
  LogicalType(TypeId id) : id_(id) {}  // NOLINT: implicit on purpose (LogicalType t = TypeId::BIGINT)

  static LogicalType Decimal(uint8_t width, uint8_t scale);
  static LogicalType Struct(child_list_t children);
  static LogicalType List(const LogicalType& child);
  static LogicalType Map(const LogicalType& key, const LogicalType& value);

  TypeId id() const { return id_; }
  uint8_t width() const { return width_; }
  uint8_t scale() const { return scale_; }
  // STRUCT fields; LIST has one child named "element"; MAP one STRUCT(key, value) child.
  const child_list_t& children() const;
  const LogicalType& ListChild() const;  // LIST and MAP

  bool IsNumeric() const;   // INTEGER, BIGINT, DOUBLE, DECIMAL
  bool IsIntegral() const;  // INTEGER, BIGINT
  bool IsNested() const;    // STRUCT, LIST, MAP
  bool IsTimestamp() const;  // TIMESTAMP or TIMESTAMP_NTZ (both int64 micros)
  // Bytes per row in a vector's main buffer (0 for STRUCT).
  idx_t PhysicalSize() const;

  // SQL spelling: INTEGER, DECIMAL(10,2), STRUCT(a INTEGER, b VARCHAR), INTEGER[], MAP(VARCHAR, BIGINT).
  std::string ToString() const;

  bool operator==(const LogicalType& other) const;
  bool operator!=(const LogicalType& other) const { return !(*this == other); }

  static const LogicalType BOOLEAN_T;

 private:
  TypeId id_;
  uint8_t width_ = 0;
  uint8_t scale_ = 0;
  std::shared_ptr<child_list_t> children_;
};

// Parses a SQL type name as users write it (INT, INTEGER, INT4, BIGINT, LONG,
// DOUBLE, FLOAT, REAL, DECIMAL(p,s), NUMERIC, STRING, VARCHAR, TEXT, BOOLEAN,
// BOOL, DATE, TIMESTAMP, TIMESTAMP_LTZ, TIMESTAMPTZ, TIMESTAMP_NTZ, ...). The
// multi-word forms (TIMESTAMP WITH[OUT] TIME ZONE) are the parser's.. Parameters for DECIMAL are passed
// separately. Returns INVALID for an unknown name.
LogicalType TypeFromName(const std::string& raw);

// The smallest type both sides can be converted to without loss, for
// arithmetic, comparisons, UNION ALL and CASE branches. Returns INVALID when
// there is none (e.g. DATE and BOOLEAN).
LogicalType MaxLogicalType(const LogicalType& a, const LogicalType& b);

// Decimal type that holds every value of an integer type exactly.
LogicalType DecimalForIntegral(const LogicalType& type);

}  // namespace lakestream
