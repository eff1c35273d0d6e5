// Public value and type: what a result cell holds and what a parameter is.
// Self-contained (standard library only), so applications and bindings
// need no engine header.
//
//   lakestream::SqlValue price = lakestream::SqlValue::Decimal(1999, 10, 2);  // 19.99
//   price.ToString();          // "19.99"
//   price.Type().ToString();   // "DECIMAL(10,2)"
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lakestream {

using idx_t = uint64_t;

// The SQL types a column or value can have.
enum class TypeKind : uint8_t {
  INVALID = 0,
  SQLNULL,  // the type of an untyped NULL literal
  BOOLEAN,
  INTEGER,    // 32-bit
  BIGINT,     // 64-bit
  DOUBLE,
  DECIMAL,    // width (precision) <= 38 and scale
  VARCHAR,    // UTF-8 text; also holds binary data (no separate BLOB type)
  DATE,       // days since 1970-01-01
  TIMESTAMP,  // an instant: microseconds since 1970-01-01 00:00:00 UTC (Spark's TIMESTAMP_LTZ)
  STRUCT,
  LIST,
  MAP,
  INTERVAL,  // months, days and microseconds; ToString() gives '1 month 2 days 03:00:00'
  TIMESTAMP_NTZ,  // a wall clock without zone: microseconds of it read as if UTC
};

// A column's (or value's) type.
struct ColumnType {
  TypeKind kind = TypeKind::INVALID;
  uint8_t width = 0;  // DECIMAL precision
  uint8_t scale = 0;  // DECIMAL digits after the point
  // STRUCT: one per field (child_names holds their names); LIST: one, the
  // element type; MAP: two, key and value.
  std::vector<ColumnType> children;
  std::vector<std::string> child_names;

  ColumnType() = default;
  ColumnType(TypeKind kind_p) : kind(kind_p) {}  // NOLINT: implicit on purpose (ColumnType t = TypeKind::BIGINT)
  static ColumnType Decimal(uint8_t width, uint8_t scale);
  static ColumnType List(ColumnType element);
  static ColumnType Struct(std::vector<std::string> names, std::vector<ColumnType> fields);
  static ColumnType Map(ColumnType key, ColumnType value);

  // SQL spelling, e.g. "BIGINT", "DECIMAL(18,2)", "STRUCT(a INTEGER, b VARCHAR[])".
  std::string ToString() const;
  // The type a SQL spelling names ("BIGINT", "decimal(18,2)", "INT[]", "STRING");
  // throws std::invalid_argument for text that is no type.
  static ColumnType Parse(const std::string& text);
  bool operator==(const ColumnType& other) const;
  bool operator!=(const ColumnType& other) const { return !(*this == other); }
};

// One SQL value. Getters check the kind: GetBigint() on a VARCHAR throws
// std::invalid_argument naming both types. A NULL reads as 0, false or ""
// from any getter: check IsNull() first.
class SqlValue {
 public:
  SqlValue() : type_(TypeKind::SQLNULL) {}  // an untyped NULL
  static SqlValue Null(ColumnType type = TypeKind::SQLNULL);
  static SqlValue Boolean(bool v);
  static SqlValue Integer(int32_t v);
  static SqlValue Bigint(int64_t v);
  static SqlValue Double(double v);
  // `unscaled` is the value times 10^scale: Decimal(1999, 10, 2) is 19.99.
  // Throws std::invalid_argument when width > 38 or scale > width.
  static SqlValue Decimal(int64_t unscaled, uint8_t width, uint8_t scale);
  // From text such as "-123.45"; the type is DECIMAL(width, scale) and the
  // text is rounded to `scale` digits. Throws std::invalid_argument when the
  // text is no number or does not fit.
  static SqlValue DecimalFromString(const std::string& text, uint8_t width, uint8_t scale);
  static SqlValue Varchar(std::string v);
  static SqlValue Date(int32_t days_since_epoch);
  static SqlValue Timestamp(int64_t micros_since_epoch);
  // From "YYYY-MM-DD" / "YYYY-MM-DD HH:MM:SS[.ffffff]"; throws std::invalid_argument.
  static SqlValue DateFromString(const std::string& text);
  static SqlValue TimestampFromString(const std::string& text);
  // Nested values. A LIST's element type is the first non-NULL element's
  // (`element_type` when every element is NULL or there are none).
  static SqlValue List(std::vector<SqlValue> elements, ColumnType element_type = TypeKind::SQLNULL);
  static SqlValue Struct(std::vector<std::string> names, std::vector<SqlValue> fields);

  const ColumnType& Type() const { return type_; }
  bool IsNull() const { return is_null_; }

  bool GetBoolean() const;
  int32_t GetInteger() const;
  int64_t GetBigint() const;  // BIGINT or INTEGER
  double GetDouble() const;
  const std::string& GetString() const;  // VARCHAR
  int32_t GetDate() const;               // days since 1970-01-01
  int64_t GetTimestamp() const;          // microseconds since 1970-01-01 (TIMESTAMP or TIMESTAMP_NTZ)
  // DECIMAL: the value times 10^Type().scale. Throws std::out_of_range when
  // it needs more than 64 bits (DECIMAL wider than 18 digits); ToString()
  // always has the exact value.
  int64_t GetUnscaled() const;
  // LIST elements, STRUCT fields (in Type().child_names order) or MAP
  // entries (each a STRUCT of key and value).
  const std::vector<SqlValue>& Children() const;

  // Conversions: any integral or DECIMAL value as int64 (DECIMAL truncated
  // towards zero; throws std::out_of_range when it does not fit), any
  // numeric value as double.
  int64_t AsBigint() const;
  double AsDouble() const;
  // Text as the shell prints it: 19.99, 2024-01-31, 2024-01-31 10:00:00, NULL,
  // [1, 2], {'a': 1}.
  std::string ToString() const;
  // JSON as the shell's -json mode and to_json() write it: numbers bare,
  // text and dates quoted and escaped, NULL as null, STRUCT and MAP as
  // objects, LIST as arrays.
  std::string ToJson() const;

  bool operator==(const SqlValue& other) const;
  bool operator!=(const SqlValue& other) const { return !(*this == other); }

 private:
  friend struct ValueConverter;  // engine side (main/public_value.hpp)
  ColumnType type_;
  bool is_null_ = true;
  int64_t integer_ = 0;     // BOOLEAN, INTEGER, BIGINT, DATE, TIMESTAMP, DECIMAL (low 64 bits)
  int64_t decimal_high_ = 0;  // DECIMAL: high 64 bits of the 128-bit unscaled value
  double double_ = 0;
  std::string string_;      // VARCHAR
  std::vector<SqlValue> children_;
};

}  // namespace lakestream
