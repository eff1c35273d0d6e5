#include "main/public_value.hpp"

#include <stdexcept>

#include "common/date.hpp"
#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/json_writer.hpp"
#include "parser/parser.hpp"

namespace lakestream {

// ---------------------------------------------------------------- ColumnType

ColumnType ColumnType::Decimal(uint8_t width, uint8_t scale) {
  if (width == 0 || width > 38 || scale > width) {
    throw std::invalid_argument("DECIMAL(" + std::to_string(width) + "," + std::to_string(scale) +
                                ") is not a valid type; the width must be 1 to 38 and the scale at most the width");
  }
  ColumnType t(TypeKind::DECIMAL);
  t.width = width;
  t.scale = scale;
  return t;
}

ColumnType ColumnType::List(ColumnType element) {
  ColumnType t(TypeKind::LIST);
  t.children.push_back(std::move(element));
  t.child_names.emplace_back("element");
  return t;
}

ColumnType ColumnType::Struct(std::vector<std::string> names, std::vector<ColumnType> fields) {
  if (names.size() != fields.size()) {
    throw std::invalid_argument("a STRUCT type needs one name per field: " + std::to_string(names.size()) +
                                " names for " + std::to_string(fields.size()) + " fields");
  }
  ColumnType t(TypeKind::STRUCT);
  t.children = std::move(fields);
  t.child_names = std::move(names);
  return t;
}

ColumnType ColumnType::Map(ColumnType key, ColumnType value) {
  ColumnType t(TypeKind::MAP);
  t.children = {std::move(key), std::move(value)};
  t.child_names = {"key", "value"};
  return t;
}

std::string ColumnType::ToString() const { return ValueConverter::ToEngine(*this).ToString(); }

ColumnType ColumnType::Parse(const std::string& text) {
  // The type grammar is CAST's: parse a cast of NULL and keep its type, and
  // refuse text that makes the cast something else ("INT) + (1").
  ExprPtr parsed;
  try {
    parsed = Parser::ParseExpression("CAST(NULL AS " + text + ")");
  } catch (const Exception&) {
    parsed.reset();
  }
  if (!parsed || parsed->type != ExpressionType::CAST || parsed->children.size() != 1 ||
      parsed->children[0]->type != ExpressionType::CONSTANT || !parsed->children[0]->value.IsNull()) {
    throw std::invalid_argument("'" + text + "' is not a SQL type; write one as in CAST(x AS type), e.g. BIGINT, "
                                "DECIMAL(18,2), VARCHAR, TIMESTAMP, INTEGER[], STRUCT(a INTEGER, b VARCHAR)");
  }
  return ValueConverter::ToPublic(parsed->cast_type);
}

bool ColumnType::operator==(const ColumnType& other) const {
  return kind == other.kind && width == other.width && scale == other.scale && children == other.children &&
         (kind != TypeKind::STRUCT || child_names == other.child_names);
}

ColumnType ValueConverter::ToPublic(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::DECIMAL: return ColumnType::Decimal(type.width(), type.scale());
    case TypeId::LIST: return ColumnType::List(ToPublic(type.ListChild()));
    case TypeId::MAP: {
      auto& entry = type.ListChild().children();
      return ColumnType::Map(ToPublic(entry[0].second), ToPublic(entry[1].second));
    }
    case TypeId::STRUCT: {
      std::vector<std::string> names;
      std::vector<ColumnType> fields;
      for (auto& [name, child] : type.children()) {
        names.push_back(name);
        fields.push_back(ToPublic(child));
      }
      return ColumnType::Struct(std::move(names), std::move(fields));
    }
    default: return ColumnType(static_cast<TypeKind>(static_cast<uint8_t>(type.id())));
  }
}

LogicalType ValueConverter::ToEngine(const ColumnType& type) {
  auto child = [&](size_t i) -> const ColumnType& {
    if (i >= type.children.size()) {
      throw InvalidInputError("the " + std::string(type.kind == TypeKind::MAP ? "MAP" : "LIST") +
                              " type has no child type; build it with ColumnType::List or ColumnType::Map");
    }
    return type.children[i];
  };
  switch (type.kind) {
    case TypeKind::DECIMAL: return LogicalType::Decimal(type.width, type.scale);
    case TypeKind::LIST: return LogicalType::List(ToEngine(child(0)));
    case TypeKind::MAP: return LogicalType::Map(ToEngine(child(0)), ToEngine(child(1)));
    case TypeKind::STRUCT: {
      child_list_t fields;
      for (size_t i = 0; i < type.children.size(); i++) {
        fields.emplace_back(i < type.child_names.size() ? type.child_names[i] : "f" + std::to_string(i + 1),
                            ToEngine(type.children[i]));
      }
      return LogicalType::Struct(std::move(fields));
    }
    default: return LogicalType(static_cast<TypeId>(static_cast<uint8_t>(type.kind)));
  }
}

// ---------------------------------------------------------------- SqlValue

static SqlValue Of(ColumnType type) {
  SqlValue v = SqlValue::Null(std::move(type));
  return v;
}

SqlValue SqlValue::Null(ColumnType type) {
  SqlValue v;
  v.type_ = std::move(type);
  return v;
}

SqlValue SqlValue::Boolean(bool v) { return ValueConverter::ToPublic(Value::BOOLEAN(v)); }
SqlValue SqlValue::Integer(int32_t v) { return ValueConverter::ToPublic(Value::INTEGER(v)); }
SqlValue SqlValue::Bigint(int64_t v) { return ValueConverter::ToPublic(Value::BIGINT(v)); }
SqlValue SqlValue::Double(double v) { return ValueConverter::ToPublic(Value::DOUBLE(v)); }
SqlValue SqlValue::Varchar(std::string v) { return ValueConverter::ToPublic(Value::VARCHAR(std::move(v))); }
SqlValue SqlValue::Date(int32_t days) { return ValueConverter::ToPublic(Value::DATE(days)); }
SqlValue SqlValue::Timestamp(int64_t micros) { return ValueConverter::ToPublic(Value::TIMESTAMP(micros)); }

SqlValue SqlValue::Decimal(int64_t unscaled, uint8_t width, uint8_t scale) {
  auto type = ColumnType::Decimal(width, scale);
  if (!lakestream::Decimal::FitsWidth(unscaled, width)) {
    throw std::invalid_argument(std::to_string(unscaled) + " (unscaled) does not fit " + type.ToString());
  }
  return ValueConverter::ToPublic(Value::DECIMAL(unscaled, width, scale));
}

SqlValue SqlValue::DecimalFromString(const std::string& text, uint8_t width, uint8_t scale) {
  auto type = ColumnType::Decimal(width, scale);
  hugeint_t unscaled = 0;
  if (!lakestream::Decimal::TryParse(text, width, scale, unscaled)) {
    throw std::invalid_argument("\"" + text + "\" is not a number that fits " + type.ToString());
  }
  return ValueConverter::ToPublic(Value::DECIMAL(unscaled, width, scale));
}

SqlValue SqlValue::DateFromString(const std::string& text) {
  date_t d = 0;
  if (!lakestream::Date::TryParse(text, d)) throw std::invalid_argument("\"" + text + "\" is not a date (YYYY-MM-DD)");
  return Date(d);
}

SqlValue SqlValue::TimestampFromString(const std::string& text) {
  timestamp_t ts = 0;
  if (!lakestream::Timestamp::TryParse(text, ts)) {
    throw std::invalid_argument("\"" + text + "\" is not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])");
  }
  return Timestamp(ts);
}

SqlValue SqlValue::List(std::vector<SqlValue> elements, ColumnType element_type) {
  for (auto& e : elements) {
    if (!e.IsNull()) {
      element_type = e.Type();
      break;
    }
  }
  SqlValue v = Of(ColumnType::List(std::move(element_type)));
  v.is_null_ = false;
  v.children_ = std::move(elements);
  return v;
}

SqlValue SqlValue::Struct(std::vector<std::string> names, std::vector<SqlValue> fields) {
  std::vector<ColumnType> types;
  types.reserve(fields.size());
  for (auto& f : fields) types.push_back(f.Type());
  SqlValue v = Of(ColumnType::Struct(std::move(names), std::move(types)));
  v.is_null_ = false;
  v.children_ = std::move(fields);
  return v;
}

static std::string KindName(const ColumnType& type) { return type.ToString(); }

// Throws unless the value is a non-NULL of one of the kinds.
static void Expect(const SqlValue& v, std::initializer_list<TypeKind> kinds, const char* getter) {
  if (v.IsNull()) return;  // the zero value (the fields of a NULL stay zero)
  for (TypeKind k : kinds) {
    if (v.Type().kind == k) return;
  }
  throw std::invalid_argument(std::string(getter) + "() on a " + KindName(v.Type()) + " value; use the getter of " +
                              KindName(v.Type()) + " or ToString()");
}

bool SqlValue::GetBoolean() const {
  Expect(*this, {TypeKind::BOOLEAN}, "GetBoolean");
  return integer_ != 0;
}
int32_t SqlValue::GetInteger() const {
  Expect(*this, {TypeKind::INTEGER}, "GetInteger");
  return static_cast<int32_t>(integer_);
}
int64_t SqlValue::GetBigint() const {
  Expect(*this, {TypeKind::BIGINT, TypeKind::INTEGER}, "GetBigint");
  return integer_;
}
double SqlValue::GetDouble() const {
  Expect(*this, {TypeKind::DOUBLE}, "GetDouble");
  return double_;
}
const std::string& SqlValue::GetString() const {
  Expect(*this, {TypeKind::VARCHAR}, "GetString");
  return string_;
}
int32_t SqlValue::GetDate() const {
  Expect(*this, {TypeKind::DATE}, "GetDate");
  return static_cast<int32_t>(integer_);
}
int64_t SqlValue::GetTimestamp() const {
  Expect(*this, {TypeKind::TIMESTAMP, TypeKind::TIMESTAMP_NTZ}, "GetTimestamp");
  return integer_;
}
int64_t SqlValue::GetUnscaled() const {
  Expect(*this, {TypeKind::DECIMAL}, "GetUnscaled");
  // The high half is the sign extension of the low half exactly when it fits.
  if (!is_null_ && decimal_high_ != (integer_ < 0 ? -1 : 0)) {
    throw std::out_of_range(ToString() + " needs more than 64 bits unscaled; read it with ToString()");
  }
  return integer_;
}
const std::vector<SqlValue>& SqlValue::Children() const {
  Expect(*this, {TypeKind::LIST, TypeKind::STRUCT, TypeKind::MAP}, "Children");
  return children_;
}

int64_t SqlValue::AsBigint() const {
  Expect(*this, {TypeKind::BIGINT, TypeKind::INTEGER, TypeKind::DECIMAL, TypeKind::BOOLEAN, TypeKind::DOUBLE},
         "AsBigint");
  if (type_.kind == TypeKind::DOUBLE) return ValueConverter::ToEngine(*this).AsBigint();
  if (is_null_ || type_.kind != TypeKind::DECIMAL) return integer_;
  hugeint_t whole = ValueConverter::ToEngine(*this).GetHugeint() / lakestream::Decimal::PowerOfTen(type_.scale);
  if (whole > INT64_MAX || whole < INT64_MIN) throw std::out_of_range(ToString() + " does not fit a BIGINT");
  return static_cast<int64_t>(whole);
}

double SqlValue::AsDouble() const {
  Expect(*this, {TypeKind::BIGINT, TypeKind::INTEGER, TypeKind::DECIMAL, TypeKind::DOUBLE}, "AsDouble");
  if (is_null_) return 0;
  return ValueConverter::ToEngine(*this).AsDouble();
}

std::string SqlValue::ToString() const { return ValueConverter::ToEngine(*this).ToString(); }

std::string SqlValue::ToJson() const {
  std::string out;
  AppendJsonValue(out, ValueConverter::ToEngine(*this));
  return out;
}

bool SqlValue::operator==(const SqlValue& other) const {
  return type_ == other.type_ && ValueConverter::ToEngine(*this) == ValueConverter::ToEngine(other);
}

SqlValue ValueConverter::ToPublic(const Value& value) {
  SqlValue v;
  v.type_ = ToPublic(value.type());
  v.is_null_ = value.IsNull();
  if (v.is_null_) return v;
  switch (value.type().id()) {
    case TypeId::BOOLEAN: v.integer_ = value.GetBoolean() ? 1 : 0; break;
    case TypeId::INTEGER:
    case TypeId::DATE: v.integer_ = value.GetInteger(); break;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: v.integer_ = value.GetBigint(); break;
    case TypeId::DOUBLE: v.double_ = value.GetDouble(); break;
    case TypeId::DECIMAL: {
      hugeint_t h = value.GetHugeint();
      v.integer_ = static_cast<int64_t>(h);
      v.decimal_high_ = static_cast<int64_t>(h >> 64);
      break;
    }
    case TypeId::VARCHAR: v.string_ = value.GetString(); break;
    case TypeId::INTERVAL: {
      // micros in integer_, months and days packed into decimal_high_.
      interval_t iv = value.GetInterval();
      v.integer_ = iv.micros;
      v.decimal_high_ = static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(iv.months)) << 32) |
                                             static_cast<uint32_t>(iv.days));
      break;
    }
    case TypeId::STRUCT:
    case TypeId::LIST:
    case TypeId::MAP:
      for (auto& child : value.Children()) v.children_.push_back(ToPublic(child));
      break;
    default: break;
  }
  return v;
}

Value ValueConverter::ToEngine(const SqlValue& v) {
  LogicalType type = ToEngine(v.type_);
  if (v.is_null_) return Value(type);
  switch (v.type_.kind) {
    case TypeKind::BOOLEAN: return Value::BOOLEAN(v.integer_ != 0);
    case TypeKind::INTEGER: return Value::INTEGER(static_cast<int32_t>(v.integer_));
    case TypeKind::BIGINT: return Value::BIGINT(v.integer_);
    case TypeKind::DOUBLE: return Value::DOUBLE(v.double_);
    case TypeKind::DECIMAL: {
      hugeint_t h = (static_cast<hugeint_t>(v.decimal_high_) << 64) |
                    static_cast<hugeint_t>(static_cast<uint64_t>(v.integer_));
      return Value::DECIMAL(h, v.type_.width, v.type_.scale);
    }
    case TypeKind::VARCHAR: return Value::VARCHAR(v.string_);
    case TypeKind::DATE: return Value::DATE(static_cast<date_t>(v.integer_));
    case TypeKind::TIMESTAMP: return Value::TIMESTAMP(v.integer_);
    case TypeKind::TIMESTAMP_NTZ: return Value::TIMESTAMP_NTZ(v.integer_);
    case TypeKind::INTERVAL: {
      auto packed = static_cast<uint64_t>(v.decimal_high_);
      interval_t iv{static_cast<int32_t>(static_cast<uint32_t>(packed >> 32)), static_cast<int32_t>(static_cast<uint32_t>(packed)),
                    v.integer_};
      return Value::INTERVAL(iv);
    }
    case TypeKind::STRUCT: {
      if (v.children_.size() != type.children().size()) {
        throw InvalidInputError("a STRUCT value has " + std::to_string(v.children_.size()) + " fields but its type " +
                                type.ToString() + " has " + std::to_string(type.children().size()));
      }
      std::vector<Value> fields;
      for (auto& c : v.children_) fields.push_back(ToEngine(c));
      return Value::STRUCT(type, std::move(fields));
    }
    case TypeKind::LIST:
    case TypeKind::MAP: {
      std::vector<Value> elements;
      for (auto& c : v.children_) elements.push_back(ToEngine(c));
      return Value::LIST(type, std::move(elements));
    }
    default: return Value(type);
  }
}

ErrorKind ToErrorKind(ExceptionType type) {
  switch (type) {
    case ExceptionType::PARSER: return ErrorKind::PARSER;
    case ExceptionType::BINDER: return ErrorKind::BINDER;
    case ExceptionType::CATALOG: return ErrorKind::CATALOG;
    case ExceptionType::CONSTRAINT: return ErrorKind::CONSTRAINT;
    case ExceptionType::CONFLICT: return ErrorKind::CONFLICT;
    case ExceptionType::CONVERSION: return ErrorKind::CONVERSION;
    case ExceptionType::IO: return ErrorKind::IO;
    case ExceptionType::CORRUPTION: return ErrorKind::CORRUPTION;
    case ExceptionType::NOT_IMPLEMENTED: return ErrorKind::NOT_IMPLEMENTED;
    case ExceptionType::INVALID_INPUT: return ErrorKind::INVALID_INPUT;
    case ExceptionType::INTERNAL: return ErrorKind::INTERNAL;
    case ExceptionType::INTERRUPT: return ErrorKind::INTERRUPTED;
    // The public kinds stay as they are; the message says "Permission Error".
    case ExceptionType::PERMISSION: return ErrorKind::INVALID_INPUT;
  }
  return ErrorKind::INTERNAL;
}

}  // namespace lakestream
