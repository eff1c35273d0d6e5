#include "common/date.hpp"

#include <chrono>
#include <cstdio>

namespace lakestream {

// Howard Hinnant's days_from_civil / civil_from_days.
date_t Date::FromCivil(int32_t y, int32_t m, int32_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<date_t>(era * 146097 + doe - 719468);
}

void Date::ToCivil(date_t date, int32_t& year, int32_t& month, int32_t& day) {
  int64_t z = static_cast<int64_t>(date) + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  day = static_cast<int32_t>(doy - (153 * mp + 2) / 5 + 1);
  month = static_cast<int32_t>(mp < 10 ? mp + 3 : mp - 9);
  year = static_cast<int32_t>(yoe + era * 400 + (month <= 2));
}

int32_t Date::DaysInMonth(int32_t year, int32_t month) {
  static const int32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2) {
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return leap ? 29 : 28;
  }
  return kDays[month - 1];
}

bool Date::IsValidCivil(int32_t year, int32_t month, int32_t day) {
  return year >= -290000 && year <= 290000 && month >= 1 && month <= 12 && day >= 1 &&
         day <= DaysInMonth(year, month);
}

int32_t Date::DayOfWeek(date_t date) {
  int64_t d = (static_cast<int64_t>(date) + 4) % 7;  // 1970-01-01 was a Thursday
  return static_cast<int32_t>(d < 0 ? d + 7 : d);
}

static bool ParseDigits(std::string_view s, size_t& pos, int max_digits, int32_t& out) {
  size_t start = pos;
  int64_t v = 0;
  while (pos < s.size() && pos - start < static_cast<size_t>(max_digits) && s[pos] >= '0' && s[pos] <= '9') {
    v = v * 10 + (s[pos] - '0');
    pos++;
  }
  out = static_cast<int32_t>(v);
  return pos > start;
}

static bool ParseDatePart(std::string_view s, size_t& pos, date_t& result) {
  int32_t y, m, d;
  bool negative = false;
  if (pos < s.size() && s[pos] == '-') {
    negative = true;
    pos++;
  }
  if (!ParseDigits(s, pos, 6, y)) return false;
  if (pos >= s.size() || s[pos] != '-') return false;
  pos++;
  if (!ParseDigits(s, pos, 2, m)) return false;
  if (pos >= s.size() || s[pos] != '-') return false;
  pos++;
  if (!ParseDigits(s, pos, 2, d)) return false;
  if (negative) y = -y;
  if (!Date::IsValidCivil(y, m, d)) return false;
  result = Date::FromCivil(y, m, d);
  return true;
}

static std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

bool Date::TryParse(std::string_view text, date_t& result) {
  std::string_view s = Trim(text);
  size_t pos = 0;
  if (!ParseDatePart(s, pos, result)) return false;
  return pos == s.size();
}

std::string Date::ToString(date_t date) {
  int32_t y, m, d;
  ToCivil(date, y, m, d);
  char buf[32];
  if (y < 0) {
    snprintf(buf, sizeof(buf), "-%04d-%02d-%02d", -y, m, d);
  } else {
    snprintf(buf, sizeof(buf), "%04d-%02d-%02d", y, m, d);
  }
  return buf;
}

date_t Timestamp::GetDate(timestamp_t ts) {
  int64_t days = ts / MICROS_PER_DAY;
  if (ts % MICROS_PER_DAY < 0) days--;
  return static_cast<date_t>(days);
}

int64_t Timestamp::MicrosOfDay(timestamp_t ts) {
  int64_t r = ts % MICROS_PER_DAY;
  return r < 0 ? r + MICROS_PER_DAY : r;
}

bool Timestamp::TryParseWall(std::string_view text, timestamp_t& wall, std::string_view& zone_text) {
  std::string_view s = Trim(text);
  zone_text = {};
  size_t pos = 0;
  date_t date;
  if (!ParseDatePart(s, pos, date)) return false;
  int64_t micros = 0;
  if (pos < s.size() && (s[pos] == ' ' || s[pos] == 'T')) {
    pos++;
    int32_t hh = 0, mm = 0, ss = 0;
    if (!ParseDigits(s, pos, 2, hh)) return false;
    if (pos >= s.size() || s[pos] != ':') return false;
    pos++;
    if (!ParseDigits(s, pos, 2, mm)) return false;
    if (pos < s.size() && s[pos] == ':') {
      pos++;
      if (!ParseDigits(s, pos, 2, ss)) return false;
      if (pos < s.size() && s[pos] == '.') {
        pos++;
        int64_t frac = 0;
        int digits = 0;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
          if (digits < 6) {
            frac = frac * 10 + (s[pos] - '0');
            digits++;
          }
          pos++;
        }
        if (digits == 0) return false;
        while (digits < 6) {
          frac *= 10;
          digits++;
        }
        micros += frac;
      }
    }
    if (hh > 23 || mm > 59 || ss > 60) return false;
    micros += (static_cast<int64_t>(hh) * 3600 + static_cast<int64_t>(mm) * 60 + ss) * MICROS_PER_SECOND;
    // Zone: Z, UTC, +HH[:MM], -HH[:MM] or a region name (after a space).
    while (pos < s.size() && s[pos] == ' ') pos++;
    zone_text = s.substr(pos);
    pos = s.size();
  }
  if (pos != s.size()) return false;
  wall = FromDate(date) + micros;
  return true;
}

bool Timestamp::TryParseInZone(std::string_view text, const TimeZone& zone, timestamp_t& result) {
  timestamp_t wall;
  std::string_view zone_text;
  if (!TryParseWall(text, wall, zone_text)) return false;
  if (zone_text.empty()) {
    result = zone.LocalToUtc(wall);
    return true;
  }
  std::string name(zone_text);
  if (name == "z") name = "Z";
  std::shared_ptr<const TimeZone> explicit_zone;
  if (!TimeZone::Load(name, &explicit_zone).ok()) return false;
  result = explicit_zone->LocalToUtc(wall);
  return true;
}

bool Timestamp::TryParse(std::string_view text, timestamp_t& result) {
  return TryParseInZone(text, *TimeZone::Utc(), result);
}

bool Timestamp::TryParseNtz(std::string_view text, timestamp_t& result) {
  std::string_view zone_text;
  if (!TryParseWall(text, result, zone_text)) return false;
  // Spark's cast to TIMESTAMP_NTZ reads and drops a zone; a bad one still fails.
  if (zone_text.empty()) return true;
  std::string name(zone_text);
  if (name == "z") name = "Z";
  std::shared_ptr<const TimeZone> zone;
  return TimeZone::Load(name, &zone).ok();
}

static std::string FormatTime(int64_t micros_of_day) {
  int64_t secs = micros_of_day / MICROS_PER_SECOND;
  int64_t frac = micros_of_day % MICROS_PER_SECOND;
  char buf[32];
  snprintf(buf, sizeof(buf), "%02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
           static_cast<long long>((secs / 60) % 60), static_cast<long long>(secs % 60));
  std::string out = buf;
  if (frac) {
    char fbuf[16];
    snprintf(fbuf, sizeof(fbuf), ".%06lld", static_cast<long long>(frac));
    std::string f = fbuf;
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out;
}

std::string Timestamp::ToString(timestamp_t ts) {
  return Date::ToString(GetDate(ts)) + " " + FormatTime(MicrosOfDay(ts));
}

std::string Timestamp::ToStringInZone(timestamp_t ts, const TimeZone& zone) {
  return ToString(zone.UtcToLocal(ts));
}

std::string Timestamp::ToIsoString(timestamp_t ts) {
  return Date::ToString(GetDate(ts)) + "T" + FormatTime(MicrosOfDay(ts)) + "Z";
}

timestamp_t Timestamp::Now() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(now).count();
}

}  // namespace lakestream
