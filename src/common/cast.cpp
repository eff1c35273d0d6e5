#include "common/cast.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/date.hpp"
#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/interval.hpp"

namespace lakestream {

std::string DoubleToString(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%.1f", v);
    return buf;
  }
  // Shortest representation that round-trips.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

static std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

static bool ParseInt64(std::string_view text, int64_t& out) {
  std::string_view s = TrimSpaces(text);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  if (res.ec == std::errc() && res.ptr == s.data() + s.size()) return !s.empty();
  // Accept "12.5"/"1e3" style text by way of DECIMAL, truncating toward zero
  // as a numeric cast does (Spark). 18 fractional digits leave 20 integer
  // digits, more than any BIGINT has.
  hugeint_t h;
  if (!Decimal::TryParse(s, 38, 18, h)) return false;
  h /= Decimal::PowerOfTen(18);
  if (h > INT64_MAX || h < INT64_MIN) return false;
  out = static_cast<int64_t>(h);
  return true;
}

static bool ParseDouble(std::string_view text, double& out) {
  std::string s(TrimSpaces(text));
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

static bool ParseBool(std::string_view text, bool& out) {
  std::string s(TrimSpaces(text));
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "true" || s == "t" || s == "1" || s == "yes" || s == "y") {
    out = true;
    return true;
  }
  if (s == "false" || s == "f" || s == "0" || s == "no" || s == "n") {
    out = false;
    return true;
  }
  return false;
}

bool CastIsPossible(const LogicalType& from, const LogicalType& to) {
  if (from == to || from.id() == TypeId::SQLNULL) return true;
  if (to.id() == TypeId::VARCHAR) return true;
  if (from.id() == TypeId::VARCHAR) return !to.IsNested();
  if (from.IsNumeric() && (to.IsNumeric() || to.id() == TypeId::BOOLEAN)) return true;
  if (from.id() == TypeId::BOOLEAN && to.IsNumeric()) return true;
  bool from_time = from.id() == TypeId::DATE || from.IsTimestamp();
  bool to_time = to.id() == TypeId::DATE || to.IsTimestamp();
  if (from_time && to_time) return true;
  if (from.IsNested() && to.IsNested() && from.id() == to.id()) return true;
  return false;
}

static std::string Quote(const Value& v) {
  if (v.type().id() == TypeId::VARCHAR) return "string '" + v.GetString() + "'";
  return v.type().ToString() + " value " + v.ToString();
}

bool TryCastValue(const Value& input, const LogicalType& target, Value& result, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "Could not convert " + Quote(input) + " to " + target.ToString() + why;
    return false;
  };
  if (input.IsNull()) {
    result = Value(target);
    return true;
  }
  const LogicalType& source = input.type();
  if (source == target) {
    result = input;
    return true;
  }
  TypeId from = source.id();
  switch (target.id()) {
    case TypeId::VARCHAR:
      result = Value::VARCHAR(input.ToString());
      return true;
    case TypeId::BOOLEAN: {
      if (from == TypeId::VARCHAR) {
        bool b;
        if (!ParseBool(input.GetString(), b)) return fail("");
        result = Value::BOOLEAN(b);
        return true;
      }
      if (source.IsNumeric()) {
        result = Value::BOOLEAN(input.AsDouble() != 0);
        return true;
      }
      break;
    }
    case TypeId::INTEGER:
    case TypeId::BIGINT: {
      int64_t v;
      if (from == TypeId::VARCHAR) {
        if (!ParseInt64(input.GetString(), v)) return fail("");
      } else if (from == TypeId::BOOLEAN) {
        v = input.GetBoolean() ? 1 : 0;
      } else if (from == TypeId::INTEGER || from == TypeId::BIGINT) {
        v = input.AsBigint();
      } else if (from == TypeId::DOUBLE) {
        // Fractions truncate toward zero (Spark; DuckDB rounds): 3.5 -> 3, -3.5 -> -3.
        double d = std::trunc(input.GetDouble());
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return fail(": out of range");
        v = static_cast<int64_t>(d);
      } else if (from == TypeId::DECIMAL) {
        hugeint_t h = input.GetHugeint() / Decimal::PowerOfTen(source.scale());  // truncates, as for DOUBLE
        if (h > INT64_MAX || h < INT64_MIN) return fail(": out of range");
        v = static_cast<int64_t>(h);
      } else {
        break;
      }
      if (target.id() == TypeId::INTEGER) {
        if (v > INT32_MAX || v < INT32_MIN) return fail(": out of range");
        result = Value::INTEGER(static_cast<int32_t>(v));
      } else {
        result = Value::BIGINT(v);
      }
      return true;
    }
    case TypeId::DOUBLE: {
      if (from == TypeId::VARCHAR) {
        double d;
        if (!ParseDouble(input.GetString(), d)) return fail("");
        result = Value::DOUBLE(d);
        return true;
      }
      if (from == TypeId::BOOLEAN) {
        result = Value::DOUBLE(input.GetBoolean() ? 1.0 : 0.0);
        return true;
      }
      if (source.IsNumeric()) {
        result = Value::DOUBLE(input.AsDouble());
        return true;
      }
      break;
    }
    case TypeId::DECIMAL: {
      hugeint_t h;
      if (from == TypeId::VARCHAR) {
        if (!Decimal::TryParse(input.GetString(), target.width(), target.scale(), h)) return fail("");
      } else if (from == TypeId::INTEGER || from == TypeId::BIGINT || from == TypeId::BOOLEAN) {
        int64_t v = from == TypeId::BOOLEAN ? (input.GetBoolean() ? 1 : 0) : input.AsBigint();
        if (target.scale() > 18 && v != 0) {
          if (!Decimal::TryParse(std::to_string(v), target.width(), target.scale(), h)) return fail(": out of range");
        } else {
          h = static_cast<hugeint_t>(v) * Decimal::PowerOfTen(target.scale());
        }
      } else if (from == TypeId::DECIMAL) {
        h = Decimal::Rescale(input.GetHugeint(), source.scale(), target.scale());
      } else if (from == TypeId::DOUBLE) {
        double d = input.GetDouble();
        if (!std::isfinite(d)) return fail("");
        char buf[64];
        snprintf(buf, sizeof(buf), "%.17g", d);
        if (!Decimal::TryParse(buf, target.width(), target.scale(), h)) return fail(": out of range");
      } else {
        break;
      }
      if (!Decimal::FitsWidth(h, target.width())) return fail(": out of range");
      result = Value::DECIMAL(h, target.width(), target.scale());
      return true;
    }
    case TypeId::DATE: {
      if (from == TypeId::VARCHAR) {
        date_t d;
        if (!Date::TryParse(input.GetString(), d)) {
          // Spark: the date part of the text's own wall clock, zone or not.
          timestamp_t wall;
          std::string_view zone_text;
          if (!Timestamp::TryParseWall(input.GetString(), wall, zone_text)) return fail(" (expected YYYY-MM-DD)");
          d = Timestamp::GetDate(wall);
        }
        result = Value::DATE(d);
        return true;
      }
      if (from == TypeId::TIMESTAMP) {
        result = Value::DATE(Timestamp::GetDate(SessionTimeZone().UtcToLocal(input.GetTimestamp())));
        return true;
      }
      if (from == TypeId::TIMESTAMP_NTZ) {
        result = Value::DATE(Timestamp::GetDate(input.GetTimestamp()));
        return true;
      }
      break;
    }
    case TypeId::TIMESTAMP: {
      // Spark: a text without offset, a date and an NTZ wall clock are all
      // read in the session time zone.
      if (from == TypeId::VARCHAR) {
        timestamp_t ts;
        if (!Timestamp::TryParseInZone(input.GetString(), SessionTimeZone(), ts)) {
          return fail(" (expected YYYY-MM-DD[ HH:MM:SS[.ffffff]] with an optional offset such as +05:30 or Z, "
                      "or a zone such as America/New_York)");
        }
        result = Value::TIMESTAMP(ts);
        return true;
      }
      if (from == TypeId::DATE) {
        result = Value::TIMESTAMP(SessionTimeZone().LocalToUtc(Timestamp::FromDate(input.GetDate())));
        return true;
      }
      if (from == TypeId::TIMESTAMP_NTZ) {
        result = Value::TIMESTAMP(SessionTimeZone().LocalToUtc(input.GetTimestamp()));
        return true;
      }
      break;
    }
    case TypeId::TIMESTAMP_NTZ: {
      if (from == TypeId::VARCHAR) {
        timestamp_t ts;
        if (!Timestamp::TryParseNtz(input.GetString(), ts)) return fail(" (expected YYYY-MM-DD[ HH:MM:SS[.ffffff]])");
        result = Value::TIMESTAMP_NTZ(ts);
        return true;
      }
      if (from == TypeId::DATE) {
        result = Value::TIMESTAMP_NTZ(Timestamp::FromDate(input.GetDate()));
        return true;
      }
      if (from == TypeId::TIMESTAMP) {
        result = Value::TIMESTAMP_NTZ(SessionTimeZone().UtcToLocal(input.GetTimestamp()));
        return true;
      }
      break;
    }
    case TypeId::INTERVAL: {
      if (from != TypeId::VARCHAR) break;
      interval_t v;
      std::string why;
      if (!Interval::TryParse(input.GetString(), v, &why)) {
        if (error) *error = why;
        return false;
      }
      result = Value::INTERVAL(v);
      return true;
    }
    case TypeId::STRUCT: {
      if (from != TypeId::STRUCT || source.children().size() != target.children().size()) break;
      std::vector<Value> fields;
      for (size_t i = 0; i < target.children().size(); i++) {
        Value f;
        if (!TryCastValue(input.Children()[i], target.children()[i].second, f, error)) return false;
        fields.push_back(std::move(f));
      }
      result = Value::STRUCT(target, std::move(fields));
      return true;
    }
    case TypeId::LIST:
    case TypeId::MAP: {
      if (from != target.id()) break;
      std::vector<Value> elements;
      for (auto& e : input.Children()) {
        Value c;
        if (!TryCastValue(e, target.ListChild(), c, error)) return false;
        elements.push_back(std::move(c));
      }
      result = Value::LIST(target, std::move(elements));
      return true;
    }
    default: break;
  }
  if (error) *error = "Cannot cast " + source.ToString() + " to " + target.ToString() + ": no conversion exists";
  return false;
}

// Fast loops for the numeric casts that dominate real queries.
template <class SRC, class DST>
static void WidenLoop(const Vector& source, Vector& result, idx_t count) {
  auto* in = source.GetData<SRC>();
  auto* out = result.GetData<DST>();
  // NULL slots hold arbitrary bytes; converting them is harmless for these widening casts.
  for (idx_t i = 0; i < count; i++) out[i] = static_cast<DST>(in[i]);
  std::memcpy(result.Validity(), source.Validity(), count);
}

void CastVector(const Vector& source, Vector& result, idx_t count, bool try_cast) {
  const LogicalType& from = source.GetType();
  const LogicalType& to = result.GetType();
  if (count > result.Capacity()) result.Resize(count);
  if (from == to) {
    result.Copy(source, nullptr, count, 0, 0);
    return;
  }
  if (from.id() == TypeId::INTEGER && to.id() == TypeId::BIGINT) return WidenLoop<int32_t, int64_t>(source, result, count);
  if (from.id() == TypeId::INTEGER && to.id() == TypeId::DOUBLE) return WidenLoop<int32_t, double>(source, result, count);
  if (from.id() == TypeId::BIGINT && to.id() == TypeId::DOUBLE) return WidenLoop<int64_t, double>(source, result, count);
  if (from.id() == TypeId::DATE && to.IsTimestamp()) {
    auto* in = source.GetData<date_t>();
    auto* out = result.GetData<timestamp_t>();
    const TimeZone& zone = SessionTimeZone();
    bool wall = to.id() == TypeId::TIMESTAMP_NTZ || zone.IsUtc();
    for (idx_t i = 0; i < count; i++) {
      if (!source.IsValid(i)) {
        out[i] = 0;
      } else {
        out[i] = wall ? Timestamp::FromDate(in[i]) : zone.LocalToUtc(Timestamp::FromDate(in[i]));
      }
    }
    std::memcpy(result.Validity(), source.Validity(), count);
    return;
  }
  if (from.IsIntegral() && to.id() == TypeId::DECIMAL && to.scale() <= 18) {
    hugeint_t factor = Decimal::PowerOfTen(to.scale());
    auto* out = result.GetData<hugeint_t>();
    for (idx_t i = 0; i < count; i++) {
      if (!source.IsValid(i)) {
        result.SetValid(i, false);
        continue;
      }
      int64_t v = from.id() == TypeId::INTEGER ? source.GetData<int32_t>()[i] : source.GetData<int64_t>()[i];
      hugeint_t h = static_cast<hugeint_t>(v) * factor;
      if (!Decimal::FitsWidth(h, to.width())) {
        if (try_cast) {
          result.SetValid(i, false);
          continue;
        }
        throw ConversionError("Could not convert " + from.ToString() + " value " + std::to_string(v) + " to " +
                              to.ToString() + ": out of range");
      }
      out[i] = h;
      result.SetValid(i, true);
    }
    return;
  }
  if (from.id() == TypeId::DECIMAL && to.id() == TypeId::DECIMAL && to.scale() >= from.scale()) {
    hugeint_t factor = Decimal::PowerOfTen(to.scale() - from.scale());
    auto* in = source.GetData<hugeint_t>();
    auto* out = result.GetData<hugeint_t>();
    bool widening = to.width() - to.scale() >= from.width() - from.scale();
    if (widening) {
      for (idx_t i = 0; i < count; i++) out[i] = source.IsValid(i) ? in[i] * factor : 0;
      std::memcpy(result.Validity(), source.Validity(), count);
      return;
    }
  }
  if (from.id() == TypeId::DECIMAL && to.id() == TypeId::DOUBLE) {
    auto* in = source.GetData<hugeint_t>();
    auto* out = result.GetData<double>();
    double div = static_cast<double>(Decimal::PowerOfTen(from.scale()));
    for (idx_t i = 0; i < count; i++) out[i] = source.IsValid(i) ? static_cast<double>(in[i]) / div : 0;
    std::memcpy(result.Validity(), source.Validity(), count);
    return;
  }
  if (to.id() == TypeId::VARCHAR && (from.IsIntegral() || from.id() == TypeId::DATE)) {
    auto* out = result.GetData<string_t>();
    char buf[32];
    for (idx_t i = 0; i < count; i++) {
      bool valid = source.IsValid(i);
      result.SetValid(i, valid);
      if (!valid) continue;
      if (from.id() == TypeId::DATE) {
        out[i] = result.AddString(Date::ToString(source.GetData<date_t>()[i]));
        continue;
      }
      int64_t v = from.id() == TypeId::INTEGER ? source.GetData<int32_t>()[i] : source.GetData<int64_t>()[i];
      auto res = std::to_chars(buf, buf + sizeof(buf), v);
      out[i] = result.AddString(std::string_view(buf, res.ptr - buf));
    }
    return;
  }
  // General path: one value at a time through the shared rules.
  std::string error;
  for (idx_t i = 0; i < count; i++) {
    Value v = source.GetValue(i);
    Value out;
    if (!TryCastValue(v, to, out, &error)) {
      if (try_cast) {
        result.SetValid(i, false);
        continue;
      }
      throw ConversionError(error);
    }
    result.SetValue(i, out);
  }
}

}  // namespace lakestream
