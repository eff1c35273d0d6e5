// The engine's one JSON encoder; the encoding per type is documented in
// json_writer.hpp. Flat types are written straight from the vector; nested
// types recurse over child vectors, so no Value is built on the vector path.
#include "common/json_writer.hpp"

#include <array>
#include <charconv>
#include <cstring>
#include <cmath>

#include "common/cast.hpp"
#include "common/date.hpp"
#include "common/decimal.hpp"

namespace lakestream {

// Characters that need an escape: '"', '\\' and control characters.
static constexpr auto kNeedsEscape = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; c++) table[c] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}();

char* WriteJsonString(char* out, std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  *out++ = '"';
  while (p < end) {
    // Runs of characters that need no escape go in one copy.
    const auto* run = p;
    while (p < end && !kNeedsEscape[*p]) p++;
    if (p > run) {
      std::memcpy(out, run, static_cast<size_t>(p - run));
      out += p - run;
    }
    if (p == end) break;
    unsigned char c = *p++;
    *out++ = '\\';
    switch (c) {
      case '"': *out++ = '"'; break;
      case '\\': *out++ = '\\'; break;
      case '\b': *out++ = 'b'; break;
      case '\f': *out++ = 'f'; break;
      case '\n': *out++ = 'n'; break;
      case '\r': *out++ = 'r'; break;
      case '\t': *out++ = 't'; break;
      default:  // other control characters; UTF-8 bytes are kept as they are
        *out++ = 'u';
        *out++ = '0';
        *out++ = '0';
        *out++ = kHex[c >> 4];
        *out++ = kHex[c & 0xF];
    }
  }
  *out++ = '"';
  return out;
}

void AppendJsonString(std::string& out, std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end && !kNeedsEscape[*p]) p++;
  size_t at = out.size();
  if (p == end) {
    // The common case: nothing to escape, one copy between the quotes.
    out.resize(at + s.size() + 2);
    char* dst = out.data() + at;
    dst[0] = '"';
    if (!s.empty()) std::memcpy(dst + 1, s.data(), s.size());
    dst[s.size() + 1] = '"';
    return;
  }
  out.resize(at + 6 * s.size() + 2);
  char* end_written = WriteJsonString(out.data() + at, s);
  out.resize(static_cast<size_t>(end_written - out.data()));
}

// Integers without a temporary std::string.
template <class T>
static void AppendInteger(std::string& out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

static void AppendDouble(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "\"NaN\"";
  } else if (std::isinf(v)) {
    out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else {
    out += DoubleToString(v);
  }
}

static void AppendDecimal(std::string& out, hugeint_t v, uint8_t scale, const JsonOptions& options) {
  // Digits, '-' and '.' need no JSON escape; the quotes go around them in the same append.
  char buf[Decimal::kMaxTextSize + 2];
  size_t n = Decimal::Format(v, scale, buf + 1);
  if (options.decimal_as_string) {
    buf[0] = '"';
    buf[n + 1] = '"';
    out.append(buf, n + 2);
  } else {
    out.append(buf + 1, n);
  }
}

static void AppendTimestamp(std::string& out, timestamp_t ts, const JsonOptions& options) {
  AppendJsonString(out, options.timestamp_iso ? Timestamp::ToIsoString(ts) : Timestamp::ToString(ts));
}

// A wall clock has no zone to state: ISO without the 'Z'.
static void AppendTimestampNtz(std::string& out, timestamp_t ts, const JsonOptions& options) {
  std::string text = options.timestamp_iso ? Timestamp::ToIsoString(ts) : Timestamp::ToString(ts);
  if (options.timestamp_iso) text.pop_back();
  AppendJsonString(out, text);
}

// MAP keys become JSON object keys, which are always strings.
static void AppendJsonKey(std::string& out, const Value& key) {
  AppendJsonString(out, key.IsNull() ? "null" : key.ToString());
}

void AppendJsonValue(std::string& out, const Value& value, const JsonOptions& options) {
  if (value.IsNull()) {
    out += "null";
    return;
  }
  const LogicalType& type = value.type();
  switch (type.id()) {
    case TypeId::BOOLEAN: out += value.GetBoolean() ? "true" : "false"; return;
    case TypeId::INTEGER: out += std::to_string(value.GetInteger()); return;
    case TypeId::BIGINT: out += std::to_string(value.GetBigint()); return;
    case TypeId::DOUBLE: AppendDouble(out, value.GetDouble()); return;
    case TypeId::DECIMAL: AppendDecimal(out, value.GetHugeint(), type.scale(), options); return;
    case TypeId::VARCHAR: AppendJsonString(out, value.GetString()); return;
    case TypeId::DATE: AppendJsonString(out, Date::ToString(value.GetDate())); return;
    case TypeId::TIMESTAMP: AppendTimestamp(out, value.GetTimestamp(), options); return;
    case TypeId::TIMESTAMP_NTZ: AppendTimestampNtz(out, value.GetTimestamp(), options); return;
    case TypeId::INTERVAL: AppendJsonString(out, value.ToString()); return;
    case TypeId::STRUCT: {
      out.push_back('{');
      for (size_t i = 0; i < value.Children().size(); i++) {
        if (i) out.push_back(',');
        AppendJsonString(out, type.children()[i].first);
        out.push_back(':');
        AppendJsonValue(out, value.Children()[i], options);
      }
      out.push_back('}');
      return;
    }
    case TypeId::LIST: {
      out.push_back('[');
      for (size_t i = 0; i < value.Children().size(); i++) {
        if (i) out.push_back(',');
        AppendJsonValue(out, value.Children()[i], options);
      }
      out.push_back(']');
      return;
    }
    case TypeId::MAP: {
      out.push_back('{');
      for (size_t i = 0; i < value.Children().size(); i++) {
        if (i) out.push_back(',');
        auto& kv = value.Children()[i].Children();
        AppendJsonKey(out, kv[0]);
        out.push_back(':');
        AppendJsonValue(out, kv[1], options);
      }
      out.push_back('}');
      return;
    }
    default: out += "null"; return;
  }
}

void AppendJsonVectorValue(std::string& out, const Vector& vector, idx_t row, const JsonOptions& options) {
  if (!vector.IsValid(row)) {
    out += "null";
    return;
  }
  const LogicalType& type = vector.GetType();
  switch (type.id()) {
    case TypeId::BOOLEAN: out += vector.GetData<bool>()[row] ? "true" : "false"; return;
    case TypeId::INTEGER: AppendInteger(out, vector.GetData<int32_t>()[row]); return;
    case TypeId::BIGINT: AppendInteger(out, vector.GetData<int64_t>()[row]); return;
    case TypeId::DOUBLE: AppendDouble(out, vector.GetData<double>()[row]); return;
    case TypeId::DECIMAL: AppendDecimal(out, vector.GetData<hugeint_t>()[row], type.scale(), options); return;
    case TypeId::VARCHAR: AppendJsonString(out, vector.GetData<string_t>()[row]); return;
    case TypeId::DATE: AppendJsonString(out, Date::ToString(vector.GetData<date_t>()[row])); return;
    case TypeId::TIMESTAMP: AppendTimestamp(out, vector.GetData<timestamp_t>()[row], options); return;
    case TypeId::TIMESTAMP_NTZ: AppendTimestampNtz(out, vector.GetData<timestamp_t>()[row], options); return;
    case TypeId::INTERVAL: AppendJsonString(out, vector.GetValue(row).ToString()); return;
    case TypeId::STRUCT: {
      out.push_back('{');
      for (idx_t i = 0; i < vector.ChildCount(); i++) {
        if (i) out.push_back(',');
        AppendJsonString(out, type.children()[i].first);
        out.push_back(':');
        AppendJsonVectorValue(out, vector.Child(i), row, options);
      }
      out.push_back('}');
      return;
    }
    case TypeId::LIST: {
      auto entry = vector.GetData<list_entry_t>()[row];
      out.push_back('[');
      for (idx_t i = 0; i < entry.length; i++) {
        if (i) out.push_back(',');
        AppendJsonVectorValue(out, vector.Child(0), entry.offset + i, options);
      }
      out.push_back(']');
      return;
    }
    case TypeId::MAP: {
      auto entry = vector.GetData<list_entry_t>()[row];
      const Vector& entries = vector.Child(0);
      out.push_back('{');
      for (idx_t i = 0; i < entry.length; i++) {
        if (i) out.push_back(',');
        AppendJsonKey(out, entries.Child(0).GetValue(entry.offset + i));
        out.push_back(':');
        AppendJsonVectorValue(out, entries.Child(1), entry.offset + i, options);
      }
      out.push_back('}');
      return;
    }
    default: out += "null"; return;
  }
}

void AppendJsonObject(std::string& out, const std::vector<std::string>& names, const std::vector<const Vector*>& columns,
                      idx_t row, const JsonOptions& options) {
  out.push_back('{');
  for (size_t i = 0; i < columns.size(); i++) {
    if (i) out.push_back(',');
    AppendJsonString(out, i < names.size() ? names[i] : "col" + std::to_string(i + 1));
    out.push_back(':');
    AppendJsonVectorValue(out, *columns[i], row, options);
  }
  out.push_back('}');
}

}  // namespace lakestream
