// The engine's one JSON encoder; the encoding per type is documented in
// json_writer.hpp. Flat types are written straight from the vector; nested
// types recurse over child vectors, so no Value is built on the vector path.
#include "common/json_writer.hpp"

#include <cmath>

#include "common/cast.hpp"
#include "common/date.hpp"
#include "common/decimal.hpp"

namespace lakestream {

void AppendJsonString(std::string& out, std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  out.reserve(out.size() + s.size() + 2);
  out.push_back('"');
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(ch);  // UTF-8 bytes are kept as they are
        }
    }
  }
  out.push_back('"');
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
  if (options.decimal_as_string) {
    AppendJsonString(out, Decimal::ToString(v, scale));
  } else {
    out += Decimal::ToString(v, scale);
  }
}

static void AppendTimestamp(std::string& out, timestamp_t ts, const JsonOptions& options) {
  AppendJsonString(out, options.timestamp_iso ? Timestamp::ToIsoString(ts) : Timestamp::ToString(ts));
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
    case TypeId::INTEGER: out += std::to_string(vector.GetData<int32_t>()[row]); return;
    case TypeId::BIGINT: out += std::to_string(vector.GetData<int64_t>()[row]); return;
    case TypeId::DOUBLE: AppendDouble(out, vector.GetData<double>()[row]); return;
    case TypeId::DECIMAL: AppendDecimal(out, vector.GetData<hugeint_t>()[row], type.scale(), options); return;
    case TypeId::VARCHAR: AppendJsonString(out, vector.GetData<string_t>()[row]); return;
    case TypeId::DATE: AppendJsonString(out, Date::ToString(vector.GetData<date_t>()[row])); return;
    case TypeId::TIMESTAMP: AppendTimestamp(out, vector.GetData<timestamp_t>()[row], options); return;
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
