#include "pg_format.hpp"

#include <arpa/inet.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace lakestream::pg {

int32_t OidOf(const ColumnType& type) {
  switch (type.kind) {
    case TypeKind::BOOLEAN: return kBool;
    case TypeKind::INTEGER: return kInt4;
    case TypeKind::BIGINT: return kInt8;
    case TypeKind::DOUBLE: return kFloat8;
    case TypeKind::DECIMAL: return kNumeric;
    case TypeKind::DATE: return kDate;
    case TypeKind::TIMESTAMP: return kTimestamptz;
    case TypeKind::TIMESTAMP_NTZ: return kTimestamp;
    case TypeKind::STRUCT:
    case TypeKind::LIST:
    case TypeKind::MAP: return kJson;
    default: return kText;
  }
}

int16_t TypeSizeOf(int32_t oid) {
  switch (oid) {
    case kBool: return 1;
    case kInt2: return 2;
    case kInt4:
    case kDate:
    case kFloat4: return 4;
    case kInt8:
    case kFloat8:
    case kTimestamp:
    case kTimestamptz: return 8;
    default: return -1;
  }
}

int32_t TypeModOf(const ColumnType& type) {
  if (type.kind != TypeKind::DECIMAL) return -1;
  return ((static_cast<int32_t>(type.width) << 16) | type.scale) + 4;
}

namespace {

template <class T>
void AppendNumber(T v, std::string* out) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

void AppendDouble(double v, std::string* out) {
  if (std::isnan(v)) {
    out->append("NaN");
  } else if (std::isinf(v)) {
    out->append(v > 0 ? "Infinity" : "-Infinity");
  } else {
    AppendNumber(v, out);
  }
}

}  // namespace

void AppendText(const ColumnView& column, idx_t row, std::string* out) {
  switch (column.Type().kind) {
    case TypeKind::BOOLEAN: out->push_back(column.Booleans()[row] ? 't' : 'f'); return;
    case TypeKind::INTEGER: AppendNumber(column.Integers()[row], out); return;
    case TypeKind::BIGINT: AppendNumber(column.Bigints()[row], out); return;
    case TypeKind::DOUBLE: AppendDouble(column.Doubles()[row], out); return;
    case TypeKind::VARCHAR: out->append(column.Strings()[row]); return;
    case TypeKind::STRUCT:
    case TypeKind::LIST:
    case TypeKind::MAP: out->append(column.GetValue(row).ToJson()); return;
    case TypeKind::TIMESTAMP:
      out->append(column.GetValue(row).ToString());
      out->append("+00");
      return;
    default: out->append(column.GetValue(row).ToString()); return;
  }
}

namespace {

// Postgres counts dates and timestamps from 2000-01-01, lakestream from 1970-01-01.
constexpr int64_t kPgEpochDays = 10957;

void AppendBe(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; i--) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Decimal text ("-1234.25") as a binary numeric: ndigits, weight, sign,
// dscale, then base-10000 digits grouped from the decimal point.
void AppendBinaryNumeric(const std::string& text, std::string* out) {
  bool negative = !text.empty() && text[0] == '-';
  std::string digits = text.substr(negative ? 1 : 0);
  auto point = digits.find('.');
  std::string integer = digits.substr(0, point);
  std::string fraction = point == std::string::npos ? "" : digits.substr(point + 1);
  auto dscale = static_cast<uint16_t>(fraction.size());
  integer.insert(0, (4 - integer.size() % 4) % 4, '0');
  fraction.append((4 - fraction.size() % 4) % 4, '0');
  std::vector<uint16_t> groups;
  for (size_t i = 0; i < integer.size(); i += 4) groups.push_back(static_cast<uint16_t>(std::stoi(integer.substr(i, 4))));
  auto weight = static_cast<int>(groups.size()) - 1;
  for (size_t i = 0; i < fraction.size(); i += 4) groups.push_back(static_cast<uint16_t>(std::stoi(fraction.substr(i, 4))));
  // Leading and trailing zero groups are not sent.
  size_t first = 0;
  while (first < groups.size() && groups[first] == 0) {
    first++;
    weight--;
  }
  size_t last = groups.size();
  while (last > first && groups[last - 1] == 0) last--;
  if (first == last) weight = 0;
  AppendBe(last - first, 2, out);
  AppendBe(static_cast<uint16_t>(weight), 2, out);
  AppendBe(negative && first != last ? 0x4000 : 0, 2, out);
  AppendBe(dscale, 2, out);
  for (size_t i = first; i < last; i++) AppendBe(groups[i], 2, out);
}

}  // namespace

void AppendBinary(const ColumnView& column, idx_t row, std::string* out) {
  switch (column.Type().kind) {
    case TypeKind::BOOLEAN: out->push_back(column.Booleans()[row] ? 1 : 0); return;
    case TypeKind::INTEGER: AppendBe(static_cast<uint32_t>(column.Integers()[row]), 4, out); return;
    case TypeKind::BIGINT: AppendBe(static_cast<uint64_t>(column.Bigints()[row]), 8, out); return;
    case TypeKind::DOUBLE: {
      uint64_t bits;
      std::memcpy(&bits, &column.Doubles()[row], 8);
      AppendBe(bits, 8, out);
      return;
    }
    case TypeKind::VARCHAR: out->append(column.Strings()[row]); return;
    case TypeKind::DATE: AppendBe(static_cast<uint32_t>(column.Dates()[row] - kPgEpochDays), 4, out); return;
    case TypeKind::TIMESTAMP:
    case TypeKind::TIMESTAMP_NTZ:
      AppendBe(static_cast<uint64_t>(column.Timestamps()[row] - kPgEpochDays * 86400000000LL), 8, out);
      return;
    case TypeKind::DECIMAL: AppendBinaryNumeric(column.GetValue(row).ToString(), out); return;
    default: AppendText(column, row, out); return;  // json and text: binary is the text
  }
}

namespace {

int64_t ReadBinaryInt(const std::string& bytes) {
  uint64_t v = 0;
  for (unsigned char c : bytes) v = (v << 8) | c;
  int bits = static_cast<int>(bytes.size()) * 8;
  if (bits < 64 && (v >> (bits - 1)) & 1) v |= ~uint64_t{0} << bits;  // sign-extend
  return static_cast<int64_t>(v);
}

int64_t ParseInt(const std::string& text) {
  int64_t v = 0;
  auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size()) {
    throw std::invalid_argument("\"" + text + "\" is not an integer");
  }
  return v;
}

// A binary numeric (ndigits, weight, sign, dscale, then base-10000 digits)
// as decimal text, which the engine casts to the DECIMAL it needs.
std::string BinaryNumericText(const std::string& bytes) {
  if (bytes.size() < 8) throw std::invalid_argument("a binary numeric of " + std::to_string(bytes.size()) + " bytes");
  auto u16 = [&](size_t at) { return static_cast<int>(ReadBinaryInt(bytes.substr(at, 2)) & 0xffff); };
  int ndigits = u16(0);
  int weight = static_cast<int16_t>(u16(2));
  int sign = u16(4);
  int dscale = u16(6);
  if (bytes.size() != 8 + 2 * static_cast<size_t>(ndigits)) throw std::invalid_argument("a malformed binary numeric");
  if (sign == 0xC000) return "NaN";
  std::string integer;
  std::string fraction;
  for (int i = 0; i < ndigits; i++) {
    std::string group = std::to_string(u16(8 + 2 * static_cast<size_t>(i)));
    if (i <= weight) {
      integer += integer.empty() ? group : std::string(4 - group.size(), '0') + group;
    } else {
      fraction += std::string(4 - group.size(), '0') + group;
    }
  }
  for (int i = ndigits; i <= weight; i++) integer += integer.empty() ? "0" : "0000";
  if (weight < -1) fraction = std::string(static_cast<size_t>(-1 - weight) * 4, '0') + fraction;
  if (integer.empty()) integer = "0";
  fraction.resize(static_cast<size_t>(dscale), '0');
  return (sign == 0x4000 ? "-" : "") + integer + (fraction.empty() ? "" : "." + fraction);
}

}  // namespace

SqlValue ParameterValue(int32_t oid, bool binary, const std::string& bytes) {
  if (binary) {
    switch (oid) {
      case kInt2:
      case kInt4:
      case kInt8:
        if (bytes.size() != static_cast<size_t>(TypeSizeOf(oid))) {
          throw std::invalid_argument("a binary integer of " + std::to_string(bytes.size()) + " bytes");
        }
        return SqlValue::Bigint(ReadBinaryInt(bytes));
      case kFloat8: {
        if (bytes.size() != 8) throw std::invalid_argument("a binary float8 of " + std::to_string(bytes.size()) + " bytes");
        auto bits = static_cast<uint64_t>(ReadBinaryInt(bytes));
        double d;
        std::memcpy(&d, &bits, 8);
        return SqlValue::Double(d);
      }
      case kFloat4: {
        if (bytes.size() != 4) throw std::invalid_argument("a binary float4 of " + std::to_string(bytes.size()) + " bytes");
        auto bits = static_cast<uint32_t>(ReadBinaryInt(bytes));
        float f;
        std::memcpy(&f, &bits, 4);
        return SqlValue::Double(f);
      }
      case kBool:
        if (bytes.size() != 1) throw std::invalid_argument("a binary bool of " + std::to_string(bytes.size()) + " bytes");
        return SqlValue::Boolean(bytes[0] != 0);
      case kDate:
        if (bytes.size() != 4) throw std::invalid_argument("a binary date of " + std::to_string(bytes.size()) + " bytes");
        return SqlValue::Date(static_cast<int32_t>(ReadBinaryInt(bytes) + kPgEpochDays));
      case kTimestamp:
      case kTimestamptz:
        if (bytes.size() != 8) throw std::invalid_argument("a binary timestamp of " + std::to_string(bytes.size()) + " bytes");
        return SqlValue::Timestamp(ReadBinaryInt(bytes) + kPgEpochDays * 86400000000LL);
      case kNumeric: return SqlValue::Varchar(BinaryNumericText(bytes));
      case kBytea:
      case kText:
      case kVarchar:
      case kUnspecified: return SqlValue::Varchar(bytes);
      default:
        throw std::invalid_argument("not supported yet: binary parameters of type OID " + std::to_string(oid) +
                                    "; send this parameter in text format");
    }
  }
  switch (oid) {
    case kInt2:
    case kInt4:
    case kInt8: return SqlValue::Bigint(ParseInt(bytes));
    case kFloat4:
    case kFloat8: {
      char* end = nullptr;
      double d = std::strtod(bytes.c_str(), &end);
      if (bytes.empty() || end != bytes.c_str() + bytes.size()) {
        throw std::invalid_argument("\"" + bytes + "\" is not a number");
      }
      return SqlValue::Double(d);
    }
    case kBool: {
      if (bytes == "t" || bytes == "true" || bytes == "1") return SqlValue::Boolean(true);
      if (bytes == "f" || bytes == "false" || bytes == "0") return SqlValue::Boolean(false);
      throw std::invalid_argument("\"" + bytes + "\" is not a boolean");
    }
    case kDate: return SqlValue::DateFromString(bytes);
    case kTimestamp: return SqlValue::TimestampFromString(bytes);
    default: return SqlValue::Varchar(bytes);  // numeric and the rest: the engine casts the text
  }
}

namespace {

bool Contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

std::string SqlStateOf(ErrorKind kind, const std::string& message) {
  if (Contains(message, "read-only") || Contains(message, "read only")) return "25006";
  switch (kind) {
    case ErrorKind::PARSER: return "42601";
    case ErrorKind::BINDER:
      if (Contains(message, "column")) return "42703";
      if (Contains(message, "function") || Contains(message, "Function")) return "42883";
      return "42000";
    case ErrorKind::CATALOG:
      if (Contains(message, "already exists")) return Contains(message, "User ") ? "42710" : "42P07";
      if (Contains(message, "Table") || Contains(message, "table") || Contains(message, "View")) return "42P01";
      return "42704";
    case ErrorKind::CONSTRAINT:
      if (Contains(message, "NOT NULL")) return "23502";
      return "23505";
    case ErrorKind::CONFLICT: return "40001";
    case ErrorKind::CONVERSION: return "22P02";
    case ErrorKind::IO: return "58030";
    case ErrorKind::CORRUPTION: return "XX001";
    case ErrorKind::NOT_IMPLEMENTED: return "0A000";
    case ErrorKind::INVALID_INPUT: return "22023";
    case ErrorKind::INTERRUPTED: return "57014";
    default: return "XX000";
  }
}

std::string LeadingKeywords(const std::string& sql, int count) {
  std::string out;
  size_t i = 0;
  int words = 0;
  while (i < sql.size() && words < count) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '(') {
      i++;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      while (i < sql.size() && sql[i] != '\n') i++;
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      auto end = sql.find("*/", i + 2);
      i = end == std::string::npos ? sql.size() : end + 2;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::string word;
      while (i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '_')) {
        word.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i++]))));
      }
      if (words > 0 && (word == "OR" || word == "REPLACE" || word == "TEMP" || word == "TEMPORARY" ||
                        word == "PERSISTENT" || word == "INCREMENTAL" || word == "LIVE" || word == "STREAMING")) {
        continue;  // CREATE OR REPLACE TEMP TABLE is tagged CREATE TABLE
      }
      if (!out.empty()) out.push_back(' ');
      out += word;
      words++;
    } else {
      break;
    }
  }
  return out;
}

bool IsRowChangeStatement(const std::string& keyword) {
  return keyword == "INSERT" || keyword == "UPDATE" || keyword == "DELETE" || keyword == "MERGE";
}

std::string CommandTag(const std::string& sql, const QueryResult& result, int64_t rows) {
  std::string first = LeadingKeywords(sql, 1);
  if (first == "INSERT") return "INSERT 0 " + std::to_string(rows);
  if (IsRowChangeStatement(first) || first == "COPY") return first + " " + std::to_string(rows);
  if (first == "CREATE" || first == "DROP" || first == "ALTER") {
    std::string two = LeadingKeywords(sql, 2);
    return two == "CREATE MATERIALIZED" || two == "DROP MATERIALIZED" || two == "ALTER MATERIALIZED"
               ? LeadingKeywords(sql, 3)
               : two;
  }
  if (result.ColumnCount() > 0) return "SELECT " + std::to_string(rows);
  return first;
}

}  // namespace lakestream::pg
