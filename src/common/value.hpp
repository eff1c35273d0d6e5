// Value: one SQL value of any type, for constants, results and tests.
// The hot paths work on Vectors; Value is for the edges (literals, the API,
// single-row access) where clarity beats speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

class Value {
 public:
  // An untyped NULL.
  Value() : type_(TypeId::SQLNULL), is_null_(true) {}
  // A NULL of the given type.
  explicit Value(const LogicalType& type) : type_(type), is_null_(true) {}
  // Convenience: a VARCHAR.
  Value(const char* s);         // NOLINT
  Value(const std::string& s);  // NOLINT

  static Value BOOLEAN(bool v);
  static Value INTEGER(int32_t v);
  static Value BIGINT(int64_t v);
  static Value DOUBLE(double v);
  // `unscaled` is the value times 10^scale.
  static Value DECIMAL(hugeint_t unscaled, uint8_t width, uint8_t scale);
  static Value VARCHAR(std::string v);
  static Value DATE(date_t days);
  static Value TIMESTAMP(timestamp_t micros);  // an instant, micros since the epoch UTC
  // A wall clock (common/types.hpp); named after its type, as the others are.
  static Value TIMESTAMP_NTZ(timestamp_t micros);  // NOLINT(readability-identifier-naming)
  static Value INTERVAL(interval_t v);
  static Value STRUCT(const LogicalType& type, std::vector<Value> fields);
  static Value LIST(const LogicalType& list_type, std::vector<Value> elements);

  const LogicalType& type() const { return type_; }
  bool IsNull() const { return is_null_; }

  bool GetBoolean() const { return u_.boolean; }
  int32_t GetInteger() const { return u_.integer; }
  int64_t GetBigint() const { return u_.bigint; }
  double GetDouble() const { return u_.dbl; }
  hugeint_t GetHugeint() const { return u_.hugeint; }  // DECIMAL: unscaled
  date_t GetDate() const { return u_.integer; }
  timestamp_t GetTimestamp() const { return u_.bigint; }
  interval_t GetInterval() const { return u_.interval; }
  const std::string& GetString() const { return str_; }
  // STRUCT fields or LIST/MAP elements.
  const std::vector<Value>& Children() const { return children_; }

  // Any integral, decimal or double value as int64 / double (no NULL check).
  int64_t AsBigint() const;
  double AsDouble() const;

  // The text form a user sees: 1500.00, 2024-01-31, 2024-01-31 10:00:00, NULL.
  std::string ToString() const;
  // The form of a SQL literal: strings quoted, NULL as NULL.
  std::string ToSQLString() const;

  // Converts to `target`; throws ConversionError naming the value and the
  // type when the value does not fit or does not parse.
  Value CastAs(const LogicalType& target) const;
  // Like CastAs but returns false instead of throwing (TRY_CAST).
  bool TryCastAs(const LogicalType& target, Value& result) const;

  // Total order for sorting and tests: NULLs last, then by value (values of
  // different numeric types compare numerically).
  int Compare(const Value& other) const;
  // Equality that treats NULL as equal to NULL (for tests and grouping).
  bool operator==(const Value& other) const { return Compare(other) == 0; }
  bool operator!=(const Value& other) const { return Compare(other) != 0; }

 private:
  LogicalType type_;
  bool is_null_;
  union {
    bool boolean;
    int32_t integer;
    int64_t bigint;
    double dbl;
    hugeint_t hugeint;
    interval_t interval;
  } u_{};
  std::string str_;
  std::vector<Value> children_;
};

}  // namespace lakestream
