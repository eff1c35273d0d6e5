#include "common/value.hpp"

#include <cmath>

#include "common/cast.hpp"
#include "common/date.hpp"
#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/interval.hpp"

namespace lakestream {

Value::Value(const char* s) : Value(Value::VARCHAR(s)) {}
Value::Value(const std::string& s) : Value(Value::VARCHAR(s)) {}

Value Value::BOOLEAN(bool v) {
  Value r{LogicalType(TypeId::BOOLEAN)};
  r.is_null_ = false;
  r.u_.boolean = v;
  return r;
}

Value Value::INTEGER(int32_t v) {
  Value r{LogicalType(TypeId::INTEGER)};
  r.is_null_ = false;
  r.u_.integer = v;
  return r;
}

Value Value::BIGINT(int64_t v) {
  Value r{LogicalType(TypeId::BIGINT)};
  r.is_null_ = false;
  r.u_.bigint = v;
  return r;
}

Value Value::DOUBLE(double v) {
  Value r{LogicalType(TypeId::DOUBLE)};
  r.is_null_ = false;
  r.u_.dbl = v;
  return r;
}

Value Value::DECIMAL(hugeint_t unscaled, uint8_t width, uint8_t scale) {
  Value r(LogicalType::Decimal(width, scale));
  r.is_null_ = false;
  r.u_.hugeint = unscaled;
  return r;
}

Value Value::VARCHAR(std::string v) {
  Value r{LogicalType(TypeId::VARCHAR)};
  r.is_null_ = false;
  r.str_ = std::move(v);
  return r;
}

Value Value::DATE(date_t days) {
  Value r{LogicalType(TypeId::DATE)};
  r.is_null_ = false;
  r.u_.integer = days;
  return r;
}

Value Value::INTERVAL(interval_t v) {
  Value r{LogicalType(TypeId::INTERVAL)};
  r.is_null_ = false;
  r.u_.interval = v;
  return r;
}

Value Value::TIMESTAMP(timestamp_t micros) {
  Value r{LogicalType(TypeId::TIMESTAMP)};
  r.is_null_ = false;
  r.u_.bigint = micros;
  return r;
}

Value Value::TIMESTAMP_NTZ(timestamp_t micros) {
  Value r{LogicalType(TypeId::TIMESTAMP_NTZ)};
  r.is_null_ = false;
  r.u_.bigint = micros;
  return r;
}

Value Value::STRUCT(const LogicalType& type, std::vector<Value> fields) {
  Value r(type);
  r.is_null_ = false;
  r.children_ = std::move(fields);
  return r;
}

Value Value::LIST(const LogicalType& list_type, std::vector<Value> elements) {
  Value r(list_type);
  r.is_null_ = false;
  r.children_ = std::move(elements);
  return r;
}

int64_t Value::AsBigint() const {
  switch (type_.id()) {
    case TypeId::BOOLEAN: return u_.boolean ? 1 : 0;
    case TypeId::INTEGER:
    case TypeId::DATE: return u_.integer;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return u_.bigint;
    case TypeId::DOUBLE: return static_cast<int64_t>(u_.dbl);
    case TypeId::DECIMAL: return static_cast<int64_t>(Decimal::Rescale(u_.hugeint, type_.scale(), 0));
    default: throw InternalError("AsBigint on " + type_.ToString());
  }
}

double Value::AsDouble() const {
  switch (type_.id()) {
    case TypeId::DOUBLE: return u_.dbl;
    case TypeId::DECIMAL:
      return static_cast<double>(u_.hugeint) / static_cast<double>(Decimal::PowerOfTen(type_.scale()));
    default: return static_cast<double>(AsBigint());
  }
}

static std::string NestedToString(const Value& v) {
  const auto& t = v.type();
  std::string s;
  if (t.id() == TypeId::STRUCT) {
    s = "{";
    for (size_t i = 0; i < v.Children().size(); i++) {
      if (i) s += ", ";
      s += "'" + t.children()[i].first + "': " + v.Children()[i].ToSQLString();
    }
    return s + "}";
  }
  if (t.id() == TypeId::MAP) {
    s = "{";
    for (size_t i = 0; i < v.Children().size(); i++) {
      if (i) s += ", ";
      auto& kv = v.Children()[i].Children();
      s += kv[0].ToString() + "=" + kv[1].ToString();
    }
    return s + "}";
  }
  s = "[";
  for (size_t i = 0; i < v.Children().size(); i++) {
    if (i) s += ", ";
    s += v.Children()[i].ToSQLString();
  }
  return s + "]";
}

std::string Value::ToString() const {
  if (is_null_) return "NULL";
  switch (type_.id()) {
    case TypeId::BOOLEAN: return u_.boolean ? "true" : "false";
    case TypeId::INTEGER: return std::to_string(u_.integer);
    case TypeId::BIGINT: return std::to_string(u_.bigint);
    case TypeId::DOUBLE: return DoubleToString(u_.dbl);
    case TypeId::DECIMAL: return Decimal::ToString(u_.hugeint, type_.scale());
    case TypeId::VARCHAR: return str_;
    case TypeId::DATE: return Date::ToString(u_.integer);
    case TypeId::TIMESTAMP: return Timestamp::ToStringInZone(u_.bigint, SessionTimeZone());
    case TypeId::TIMESTAMP_NTZ: return Timestamp::ToString(u_.bigint);
    case TypeId::INTERVAL: return Interval::ToString(u_.interval);
    case TypeId::STRUCT:
    case TypeId::LIST:
    case TypeId::MAP: return NestedToString(*this);
    default: return "NULL";
  }
}

std::string Value::ToSQLString() const {
  if (is_null_) return "NULL";
  switch (type_.id()) {
    case TypeId::VARCHAR: {
      std::string s = "'";
      for (char c : str_) {
        if (c == '\'') s += '\'';
        s += c;
      }
      return s + "'";
    }
    case TypeId::DATE:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return "'" + ToString() + "'";
    case TypeId::INTERVAL: return "INTERVAL '" + ToString() + "'";
    default: return ToString();
  }
}

Value Value::CastAs(const LogicalType& target) const {
  Value result;
  std::string error;
  if (!TryCastValue(*this, target, result, &error)) throw ConversionError(error);
  return result;
}

bool Value::TryCastAs(const LogicalType& target, Value& result) const {
  return TryCastValue(*this, target, result, nullptr);
}

template <class T>
static int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int Value::Compare(const Value& other) const {
  if (is_null_ || other.is_null_) {
    if (is_null_ && other.is_null_) return 0;
    return is_null_ ? 1 : -1;
  }
  TypeId a = type_.id();
  TypeId b = other.type_.id();
  if (type_.IsNumeric() && other.type_.IsNumeric() && type_ != other.type_) {
    if (a == TypeId::DOUBLE || b == TypeId::DOUBLE) return Cmp(AsDouble(), other.AsDouble());
    LogicalType common = MaxLogicalType(type_, other.type_);
    return CastAs(common).Compare(other.CastAs(common));
  }
  if (a != b) return Cmp(static_cast<int>(a), static_cast<int>(b));
  switch (a) {
    case TypeId::BOOLEAN: return Cmp(u_.boolean, other.u_.boolean);
    case TypeId::INTEGER:
    case TypeId::DATE: return Cmp(u_.integer, other.u_.integer);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return Cmp(u_.bigint, other.u_.bigint);
    case TypeId::DOUBLE: {
      double x = u_.dbl, y = other.u_.dbl;
      if (std::isnan(x) || std::isnan(y)) return Cmp(std::isnan(x), std::isnan(y));
      return Cmp(x, y);
    }
    case TypeId::DECIMAL:
      if (type_.scale() != other.type_.scale()) {
        uint8_t s = std::max(type_.scale(), other.type_.scale());
        return Cmp(Decimal::Rescale(u_.hugeint, type_.scale(), s), Decimal::Rescale(other.u_.hugeint, other.type_.scale(), s));
      }
      return Cmp(u_.hugeint, other.u_.hugeint);
    case TypeId::VARCHAR: return Cmp(str_, other.str_);
    case TypeId::INTERVAL: return Cmp(Interval::Normalize(u_.interval), Interval::Normalize(other.u_.interval));
    default: {
      for (size_t i = 0; i < std::min(children_.size(), other.children_.size()); i++) {
        int c = children_[i].Compare(other.children_[i]);
        if (c) return c;
      }
      return Cmp(children_.size(), other.children_.size());
    }
  }
}

}  // namespace lakestream
