#include "common/interval.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "common/date.hpp"

namespace lakestream {

namespace {

constexpr int64_t kMicrosPerMinute = 60 * MICROS_PER_SECOND;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;

enum class Unit { YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, INVALID };

std::string Lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

Unit ParseUnit(std::string_view raw) {
  std::string u = Lower(raw);
  if (u == "year" || u == "years" || u == "y" || u == "yr" || u == "yrs") return Unit::YEAR;
  if (u == "month" || u == "months" || u == "mon" || u == "mons") return Unit::MONTH;
  if (u == "week" || u == "weeks" || u == "w") return Unit::WEEK;
  if (u == "day" || u == "days" || u == "d") return Unit::DAY;
  if (u == "hour" || u == "hours" || u == "h" || u == "hr" || u == "hrs") return Unit::HOUR;
  if (u == "minute" || u == "minutes" || u == "m" || u == "min" || u == "mins") return Unit::MINUTE;
  if (u == "second" || u == "seconds" || u == "s" || u == "sec" || u == "secs") return Unit::SECOND;
  if (u == "millisecond" || u == "milliseconds" || u == "ms" || u == "msec" || u == "msecs") return Unit::MILLISECOND;
  if (u == "microsecond" || u == "microseconds" || u == "us" || u == "usec" || u == "usecs") return Unit::MICROSECOND;
  return Unit::INVALID;
}

// A signed decimal number split into integer digits and a fraction scaled to
// 10^18 (enough for any unit down to microseconds).
struct Number {
  bool negative = false;
  __int128 whole = 0;
  __int128 frac = 0;  // in units of 1e-18
};

constexpr __int128 kFracScale = static_cast<__int128>(1000000000000000000LL);

bool ParseNumber(std::string_view s, Number& n) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) n.negative = s[i++] == '-';
  size_t digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    n.whole = n.whole * 10 + (s[i++] - '0');
    if (n.whole > INT64_MAX) return false;
    digits++;
  }
  if (i < s.size() && s[i] == '.') {
    i++;
    __int128 scale = kFracScale / 10;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      n.frac += (s[i++] - '0') * scale;
      scale /= 10;
      digits++;
    }
  }
  return digits > 0 && i == s.size();
}

bool FitsInt32(__int128 v) { return v >= INT32_MIN && v <= INT32_MAX; }
bool FitsInt64(__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

bool SetError(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// Adds `n` of `unit` to `r`.
bool AddUnit(const Number& n, Unit unit, interval_t& r, std::string* error, std::string_view text) {
  __int128 sign = n.negative ? -1 : 1;
  __int128 months = r.months, days = r.days, micros = r.micros;
  auto add_micros = [&](int64_t per_unit) {
    micros += sign * (n.whole * per_unit + n.frac * per_unit / kFracScale);
  };
  switch (unit) {
    case Unit::YEAR:
    case Unit::MONTH:
      if (n.frac != 0) {
        return SetError(error, "interval '" + std::string(text) +
                                   "': a fraction of a year or month is not a whole number of months; use months or days");
      }
      months += sign * n.whole * (unit == Unit::YEAR ? 12 : 1);
      break;
    case Unit::WEEK:
      days += sign * n.whole * 7;
      micros += sign * (n.frac * 7 * MICROS_PER_DAY / kFracScale);
      break;
    case Unit::DAY:
      days += sign * n.whole;
      micros += sign * (n.frac * MICROS_PER_DAY / kFracScale);
      break;
    case Unit::HOUR: add_micros(kMicrosPerHour); break;
    case Unit::MINUTE: add_micros(kMicrosPerMinute); break;
    case Unit::SECOND: add_micros(MICROS_PER_SECOND); break;
    case Unit::MILLISECOND: add_micros(1000); break;
    case Unit::MICROSECOND: add_micros(1); break;
    case Unit::INVALID: return false;
  }
  if (!FitsInt32(months) || !FitsInt32(days) || !FitsInt64(micros)) {
    return SetError(error, "interval '" + std::string(text) + "' is out of range");
  }
  r.months = static_cast<int32_t>(months);
  r.days = static_cast<int32_t>(days);
  r.micros = static_cast<int64_t>(micros);
  return true;
}

// [-]H[H]:MM[:SS[.ffffff]] -> micros.
bool ParseTime(std::string_view s, int64_t& micros) {
  bool negative = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  int64_t parts[3] = {0, 0, 0};
  int count = 0;
  while (count < 3) {
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 10) parts[count] = parts[count] * 10 + (s[i++] - '0');
    if (i == start) return false;
    count++;
    if (i < s.size() && s[i] == ':') {
      i++;
      continue;
    }
    break;
  }
  if (count < 2 || parts[1] > 59 || parts[2] > 59) return false;
  int64_t frac = 0;
  if (i < s.size() && s[i] == '.' && count == 3) {
    i++;
    int64_t scale = 100000;
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      frac += (s[i++] - '0') * scale;
      scale /= 10;
    }
    if (i == start) return false;
  }
  if (i != s.size()) return false;
  micros = parts[0] * kMicrosPerHour + parts[1] * kMicrosPerMinute + parts[2] * MICROS_PER_SECOND + frac;
  if (negative) micros = -micros;
  return true;
}

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) i++;
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) i++;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

}  // namespace

hugeint_t Interval::Normalize(const interval_t& v) {
  return (static_cast<hugeint_t>(v.months) * 30 + v.days) * MICROS_PER_DAY + v.micros;
}

bool Interval::FromUnit(std::string_view number, std::string_view unit, interval_t& result, std::string* error) {
  result = interval_t{};
  Unit u = ParseUnit(unit);
  if (u == Unit::INVALID) {
    return SetError(error, "unknown interval unit '" + std::string(unit) +
                               "'; use YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND or MICROSECOND");
  }
  Number n;
  std::string text = std::string(number) + " " + std::string(unit);
  if (!ParseNumber(number, n)) return SetError(error, "interval '" + text + "': '" + std::string(number) + "' is not a number");
  return AddUnit(n, u, result, error, text);
}

bool Interval::TryParse(std::string_view text, interval_t& result, std::string* error) {
  result = interval_t{};
  auto words = Words(text);
  size_t i = 0;
  if (!words.empty() && Lower(words[0]) == "interval") i++;
  auto bad = [&](const std::string& why) {
    return SetError(error, "Could not read interval '" + std::string(text) + "'" + why +
                               " (expected e.g. '1 day 2 hours', '-3 months' or '1 year 04:05:06')");
  };
  if (i == words.size()) return bad(": it is empty");
  for (; i < words.size(); i++) {
    std::string_view w = words[i];
    if (w.find(':') != std::string_view::npos) {
      int64_t micros;
      if (!ParseTime(w, micros)) return bad(": '" + std::string(w) + "' is not a time HH:MM:SS");
      if (__builtin_add_overflow(result.micros, micros, &result.micros)) return bad(": out of range");
      continue;
    }
    // A number glued to its unit ('2days') or followed by it ('2 days').
    size_t split = 0;
    while (split < w.size() && (std::isdigit(static_cast<unsigned char>(w[split])) || w[split] == '.' || w[split] == '-' || w[split] == '+')) split++;
    std::string_view number = w.substr(0, split);
    std::string_view unit = w.substr(split);
    if (unit.empty()) {
      if (i + 1 == words.size()) return bad(": '" + std::string(w) + "' has no unit");
      unit = words[++i];
    }
    Number n;
    if (!ParseNumber(number, n)) return bad(": '" + std::string(number) + "' is not a number");
    Unit u = ParseUnit(unit);
    if (u == Unit::INVALID) return bad(": unknown unit '" + std::string(unit) + "'");
    if (!AddUnit(n, u, result, error, text)) return false;
  }
  return true;
}

std::string Interval::ToString(const interval_t& v) {
  std::string out;
  auto part = [&out](int64_t n, const char* singular) {
    if (n == 0) return;
    if (!out.empty()) out += ' ';
    out += std::to_string(n) + " " + singular + (n == 1 || n == -1 ? "" : "s");
  };
  part(v.months / 12, "year");
  part(v.months % 12, "month");
  part(v.days, "day");
  if (v.micros != 0 || out.empty()) {
    if (!out.empty()) out += ' ';
    // |INT64_MIN| does not fit; go through unsigned.
    uint64_t m = v.micros < 0 ? 0 - static_cast<uint64_t>(v.micros) : static_cast<uint64_t>(v.micros);
    char buf[64];
    snprintf(buf, sizeof(buf), "%s%02llu:%02llu:%02llu", v.micros < 0 ? "-" : "",
             static_cast<unsigned long long>(m / kMicrosPerHour), static_cast<unsigned long long>(m / kMicrosPerMinute % 60),
             static_cast<unsigned long long>(m / MICROS_PER_SECOND % 60));
    out += buf;
    uint64_t frac = m % MICROS_PER_SECOND;
    if (frac != 0) {
      snprintf(buf, sizeof(buf), ".%06llu", static_cast<unsigned long long>(frac));
      std::string f = buf;
      while (f.back() == '0') f.pop_back();
      out += f;
    }
  }
  return out;
}

// Each computes into a local first: `r` may be `a` (TryAdd(total, part, total)).
bool Interval::TryAdd(const interval_t& a, const interval_t& b, interval_t& r) {
  interval_t out;
  if (__builtin_add_overflow(a.months, b.months, &out.months) || __builtin_add_overflow(a.days, b.days, &out.days) ||
      __builtin_add_overflow(a.micros, b.micros, &out.micros)) {
    return false;
  }
  r = out;
  return true;
}

bool Interval::TryNegate(const interval_t& a, interval_t& r) {
  interval_t out;
  if (__builtin_sub_overflow(0, a.months, &out.months) || __builtin_sub_overflow(0, a.days, &out.days) ||
      __builtin_sub_overflow(int64_t{0}, a.micros, &out.micros)) {
    return false;
  }
  r = out;
  return true;
}

bool Interval::TryMultiply(const interval_t& a, int64_t factor, interval_t& r) {
  int64_t months, days;
  if (__builtin_mul_overflow(static_cast<int64_t>(a.months), factor, &months) || !FitsInt32(months)) return false;
  if (__builtin_mul_overflow(static_cast<int64_t>(a.days), factor, &days) || !FitsInt32(days)) return false;
  int64_t micros;
  if (__builtin_mul_overflow(a.micros, factor, &micros)) return false;
  r = interval_t{static_cast<int32_t>(months), static_cast<int32_t>(days), micros};
  return true;
}

bool Interval::TryAddMonths(date_t date, int64_t months, date_t& result) {
  if (months > int64_t{12} * 200000 || months < int64_t{-12} * 200000) return false;
  int32_t y, m, d;
  Date::ToCivil(date, y, m, d);
  int64_t total = static_cast<int64_t>(y) * 12 + (m - 1) + months;
  int64_t ny = total >= 0 ? total / 12 : (total - 11) / 12;
  if (ny > 5000000 || ny < -5000000) return false;
  auto year = static_cast<int32_t>(ny);
  auto month = static_cast<int32_t>(total - ny * 12) + 1;
  result = Date::FromCivil(year, month, std::min(d, Date::DaysInMonth(year, month)));
  return true;
}

bool Interval::TryAddToDate(date_t date, const interval_t& v, date_t& result) {
  date_t moved;
  if (!TryAddMonths(date, v.months, moved)) return false;
  return !__builtin_add_overflow(moved, v.days, &result);
}

bool Interval::TryAddToTimestamp(timestamp_t ts, const interval_t& v, timestamp_t& result) {
  timestamp_t r = ts;
  if (v.months != 0) {
    date_t moved;
    if (!TryAddMonths(Timestamp::GetDate(ts), v.months, moved)) return false;
    if (__builtin_mul_overflow(static_cast<int64_t>(moved), MICROS_PER_DAY, &r) ||
        __builtin_add_overflow(r, Timestamp::MicrosOfDay(ts), &r)) {
      return false;
    }
  }
  int64_t day_micros;
  if (__builtin_mul_overflow(static_cast<int64_t>(v.days), MICROS_PER_DAY, &day_micros)) return false;
  return !__builtin_add_overflow(r, day_micros, &r) && !__builtin_add_overflow(r, v.micros, &result);
}

interval_t Interval::Between(timestamp_t a, timestamp_t b) {
  hugeint_t diff = static_cast<hugeint_t>(a) - b;
  interval_t r{};
  r.days = static_cast<int32_t>(diff / MICROS_PER_DAY);
  r.micros = static_cast<int64_t>(diff % MICROS_PER_DAY);
  return r;
}

}  // namespace lakestream
