#include "common/types.hpp"

#include <algorithm>
#include <cctype>

#include "common/exception.hpp"

namespace lakestream {

const LogicalType LogicalType::BOOLEAN_T = LogicalType(TypeId::BOOLEAN);

LogicalType LogicalType::Decimal(uint8_t width, uint8_t scale) {
  LogicalType t(TypeId::DECIMAL);
  t.width_ = width;
  t.scale_ = scale;
  return t;
}

LogicalType LogicalType::Struct(child_list_t children) {
  LogicalType t(TypeId::STRUCT);
  t.children_ = std::make_shared<child_list_t>(std::move(children));
  return t;
}

LogicalType LogicalType::List(const LogicalType& child) {
  LogicalType t(TypeId::LIST);
  t.children_ = std::make_shared<child_list_t>(child_list_t{{"element", child}});
  return t;
}

LogicalType LogicalType::Map(const LogicalType& key, const LogicalType& value) {
  LogicalType t(TypeId::MAP);
  auto entry = Struct({{"key", key}, {"value", value}});
  t.children_ = std::make_shared<child_list_t>(child_list_t{{"entries", entry}});
  return t;
}

const child_list_t& LogicalType::children() const {
  static const child_list_t kEmpty;
  return children_ ? *children_ : kEmpty;
}

const LogicalType& LogicalType::ListChild() const {
  if (!children_ || children_->empty()) throw InternalError("ListChild on a type without children");
  return (*children_)[0].second;
}

bool LogicalType::IsNumeric() const {
  return id_ == TypeId::INTEGER || id_ == TypeId::BIGINT || id_ == TypeId::DOUBLE || id_ == TypeId::DECIMAL;
}

bool LogicalType::IsTimestamp() const { return id_ == TypeId::TIMESTAMP || id_ == TypeId::TIMESTAMP_NTZ; }

bool LogicalType::IsIntegral() const { return id_ == TypeId::INTEGER || id_ == TypeId::BIGINT; }

bool LogicalType::IsNested() const {
  return id_ == TypeId::STRUCT || id_ == TypeId::LIST || id_ == TypeId::MAP;
}

idx_t LogicalType::PhysicalSize() const {
  switch (id_) {
    case TypeId::BOOLEAN: return sizeof(bool);
    case TypeId::INTEGER:
    case TypeId::DATE: return sizeof(int32_t);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return sizeof(int64_t);
    case TypeId::DOUBLE: return sizeof(double);
    case TypeId::DECIMAL: return sizeof(hugeint_t);
    case TypeId::INTERVAL: return sizeof(interval_t);
    case TypeId::VARCHAR: return sizeof(string_t);
    case TypeId::LIST:
    case TypeId::MAP: return sizeof(list_entry_t);
    case TypeId::SQLNULL: return 1;
    case TypeId::STRUCT:
    case TypeId::INVALID: return 0;
  }
  return 0;
}

std::string LogicalType::ToString() const {
  switch (id_) {
    case TypeId::INVALID: return "INVALID";
    case TypeId::SQLNULL: return "NULL";
    case TypeId::BOOLEAN: return "BOOLEAN";
    case TypeId::INTEGER: return "INTEGER";
    case TypeId::BIGINT: return "BIGINT";
    case TypeId::DOUBLE: return "DOUBLE";
    case TypeId::DECIMAL: return "DECIMAL(" + std::to_string(width_) + "," + std::to_string(scale_) + ")";
    case TypeId::VARCHAR: return "VARCHAR";
    case TypeId::DATE: return "DATE";
    case TypeId::TIMESTAMP: return "TIMESTAMP";
    case TypeId::TIMESTAMP_NTZ: return "TIMESTAMP_NTZ";
    case TypeId::INTERVAL: return "INTERVAL";
    case TypeId::STRUCT: {
      std::string s = "STRUCT(";
      bool first = true;
      for (auto& [name, type] : children()) {
        if (!first) s += ", ";
        first = false;
        s += name + " " + type.ToString();
      }
      return s + ")";
    }
    case TypeId::LIST: return ListChild().ToString() + "[]";
    case TypeId::MAP: {
      auto& kv = ListChild().children();
      return "MAP(" + kv[0].second.ToString() + ", " + kv[1].second.ToString() + ")";
    }
  }
  return "INVALID";
}

bool LogicalType::operator==(const LogicalType& other) const {
  if (id_ != other.id_) return false;
  if (id_ == TypeId::DECIMAL) return width_ == other.width_ && scale_ == other.scale_;
  if (IsNested()) {
    auto& a = children();
    auto& b = other.children();
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++) {
      if (a[i].first != b[i].first || a[i].second != b[i].second) return false;
    }
  }
  return true;
}

LogicalType TypeFromName(const std::string& raw) {
  std::string name = raw;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  if (name == "BOOLEAN" || name == "BOOL") return TypeId::BOOLEAN;
  if (name == "INT" || name == "INTEGER" || name == "INT4" || name == "INT32" || name == "SMALLINT" ||
      name == "TINYINT" || name == "SHORT" || name == "BYTE" || name == "INT2" || name == "INT1")
    return TypeId::INTEGER;
  if (name == "BIGINT" || name == "LONG" || name == "INT8" || name == "INT64") return TypeId::BIGINT;
  if (name == "DOUBLE" || name == "FLOAT" || name == "REAL" || name == "FLOAT8" || name == "FLOAT4" ||
      name == "FLOAT64")
    return TypeId::DOUBLE;
  if (name == "DECIMAL" || name == "NUMERIC" || name == "DEC" || name == "NUMBER") return LogicalType::Decimal(18, 3);
  if (name == "STRING" || name == "VARCHAR" || name == "TEXT" || name == "CHAR" || name == "BPCHAR") return TypeId::VARCHAR;
  if (name == "DATE") return TypeId::DATE;
  if (name == "INTERVAL") return TypeId::INTERVAL;
  // Spark: TIMESTAMP is TIMESTAMP_LTZ (spark.sql.timestampType's default).
  if (name == "TIMESTAMP" || name == "TIMESTAMP_LTZ" || name == "TIMESTAMPTZ" || name == "DATETIME")
    return TypeId::TIMESTAMP;
  if (name == "TIMESTAMP_NTZ") return TypeId::TIMESTAMP_NTZ;
  return LogicalType();
}

LogicalType DecimalForIntegral(const LogicalType& type) {
  if (type.id() == TypeId::INTEGER) return LogicalType::Decimal(10, 0);
  if (type.id() == TypeId::BIGINT) return LogicalType::Decimal(19, 0);
  return type;
}

static int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::INTEGER: return 1;
    case TypeId::BIGINT: return 2;
    case TypeId::DECIMAL: return 3;
    case TypeId::DOUBLE: return 4;
    default: return 0;
  }
}

LogicalType MaxLogicalType(const LogicalType& a, const LogicalType& b) {
  if (a == b) return a;
  if (a.id() == TypeId::SQLNULL) return b;
  if (b.id() == TypeId::SQLNULL) return a;
  if (a.IsNumeric() && b.IsNumeric()) {
    if (a.id() == TypeId::DECIMAL || b.id() == TypeId::DECIMAL) {
      if (a.id() == TypeId::DOUBLE || b.id() == TypeId::DOUBLE) return TypeId::DOUBLE;
      LogicalType da = DecimalForIntegral(a);
      LogicalType db = DecimalForIntegral(b);
      int scale = std::max(da.scale(), db.scale());
      int digits = std::max(da.width() - da.scale(), db.width() - db.scale());
      int width = std::min(38, digits + scale);
      return LogicalType::Decimal(static_cast<uint8_t>(width), static_cast<uint8_t>(scale));
    }
    return NumericRank(a.id()) >= NumericRank(b.id()) ? a : b;
  }
  // A string literal compared with a date or timestamp is read as one.
  if (a.id() == TypeId::VARCHAR && (b.id() == TypeId::DATE || b.IsTimestamp())) return b;
  if (b.id() == TypeId::VARCHAR && (a.id() == TypeId::DATE || a.IsTimestamp())) return a;
  // ... and one compared with an interval as an interval ('1 day').
  if (a.id() == TypeId::VARCHAR && b.id() == TypeId::INTERVAL) return b;
  if (b.id() == TypeId::VARCHAR && a.id() == TypeId::INTERVAL) return a;
  if ((a.id() == TypeId::DATE && b.IsTimestamp()) || (a.IsTimestamp() && b.id() == TypeId::DATE))
    return a.id() == TypeId::DATE ? b : a;
  // Spark: NTZ meets TIMESTAMP as TIMESTAMP (the wall clock read in the session zone).
  if (a.IsTimestamp() && b.IsTimestamp()) return TypeId::TIMESTAMP;
  return LogicalType();
}

}  // namespace lakestream
