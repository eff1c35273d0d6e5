// Calendar arithmetic for DATE (days since 1970-01-01) and TIMESTAMP
// (microseconds since 1970-01-01 00:00:00 UTC), proleptic Gregorian.
#pragma once

#include <string>
#include <string_view>

#include "common/time_zone.hpp"
#include "common/types.hpp"

namespace lakestream {

constexpr int64_t MICROS_PER_SECOND = 1000000;
constexpr int64_t MICROS_PER_DAY = 86400LL * MICROS_PER_SECOND;

struct Date {
  static date_t FromCivil(int32_t year, int32_t month, int32_t day);
  static void ToCivil(date_t date, int32_t& year, int32_t& month, int32_t& day);
  static bool IsValidCivil(int32_t year, int32_t month, int32_t day);
  static int32_t DaysInMonth(int32_t year, int32_t month);
  // Accepts YYYY-MM-DD (optionally followed by spaces). False on bad input.
  static bool TryParse(std::string_view text, date_t& result);
  static std::string ToString(date_t date);  // YYYY-MM-DD
  // 0 = Sunday ... 6 = Saturday.
  static int32_t DayOfWeek(date_t date);
};

struct Timestamp {
  static timestamp_t FromDate(date_t date) { return static_cast<timestamp_t>(date) * MICROS_PER_DAY; }
  // Floor division, so times before 1970 map to the right day.
  static date_t GetDate(timestamp_t ts);
  static int64_t MicrosOfDay(timestamp_t ts);
  // Accepts 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM[:SS[.ffffff]]', 'T' as separator,
  // and a trailing 'Z', '+HH:MM'/'-HH:MM' offset or region name (converted to
  // UTC). A text without one is read as UTC: for formats that define it so
  // (Delta partition values, JSON). SQL casts use TryParseInZone with the
  // session zone.
  static bool TryParse(std::string_view text, timestamp_t& result);
  // The same, a text without a zone being a wall clock in `zone`.
  static bool TryParseInZone(std::string_view text, const TimeZone& zone, timestamp_t& result);
  // TIMESTAMP_NTZ: the wall clock as written; a valid zone suffix is dropped (Spark).
  static bool TryParseNtz(std::string_view text, timestamp_t& result);
  // The wall clock and the zone text after it (empty when none).
  static bool TryParseWall(std::string_view text, timestamp_t& wall, std::string_view& zone_text);
  // The wall clock of instant `ts` in `zone`, formatted as ToString does.
  static std::string ToStringInZone(timestamp_t ts, const TimeZone& zone);
  // 'YYYY-MM-DD HH:MM:SS[.ffffff]' (fraction only when non-zero, trailing zeros trimmed).
  static std::string ToString(timestamp_t ts);
  // ISO-8601 UTC with 'T' and 'Z', e.g. 2024-01-31T10:00:00.5Z (for JSON).
  static std::string ToIsoString(timestamp_t ts);
  static timestamp_t Now();
};

}  // namespace lakestream
