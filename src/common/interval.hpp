// INTERVAL values: months, days and microseconds kept apart (as Spark's
// CalendarInterval and DuckDB store them), because a month has no fixed
// number of days and a day has no fixed number of microseconds across
// calendars. Arithmetic on DATE/TIMESTAMP applies the months first (clamped
// to the last day of the target month: 2024-01-31 + 1 month = 2024-02-29),
// then the days, then the microseconds (Spark's order).
//
// Comparison and grouping use one total order: a month counts as 30 days and
// a day as 24 hours (DuckDB), so INTERVAL '1 month' = INTERVAL '30 days'.
#pragma once

#include <string>
#include <string_view>

#include "common/types.hpp"

namespace lakestream {

struct Interval {
  // The total order key: months * 30 days + days * 24 h + micros, in micros.
  static hugeint_t Normalize(const interval_t& v);

  // Text as users and CAST write it: '1 day 2 hours', '-3 months',
  // '1 year 2 months 3 days 04:05:06.5', '2 weeks', '-01:30:00', with an
  // optional leading 'interval'. Units: year, month, week, day, hour, minute,
  // second, millisecond, microsecond (singular, plural or short forms such as
  // hrs, mins, secs, ms, us). False with `error` set on bad text or overflow.
  static bool TryParse(std::string_view text, interval_t& result, std::string* error);
  // `number` (an integer or decimal text, optionally signed) of one `unit`,
  // e.g. ("2", "DAY"). Fractions of a year or month are refused (Spark).
  static bool FromUnit(std::string_view number, std::string_view unit, interval_t& result, std::string* error);
  // DuckDB's rendering: '1 year 2 months 3 days 04:05:06.5', '-1 day',
  // '00:00:00' for zero.
  static std::string ToString(const interval_t& v);

  // Component-wise; false on overflow of any component.
  static bool TryAdd(const interval_t& a, const interval_t& b, interval_t& result);
  static bool TryNegate(const interval_t& a, interval_t& result);
  static bool TryMultiply(const interval_t& a, int64_t factor, interval_t& result);

  // Calendar arithmetic; false when the result leaves the DATE/TIMESTAMP range.
  // AddToDate requires v.micros == 0.
  static bool TryAddMonths(date_t date, int64_t months, date_t& result);
  static bool TryAddToDate(date_t date, const interval_t& v, date_t& result);
  static bool TryAddToTimestamp(timestamp_t ts, const interval_t& v, timestamp_t& result);
  // A - B as days and microseconds (never months), like Spark's day-time
  // interval and DuckDB.
  static interval_t Between(timestamp_t a, timestamp_t b);
};

// The total order above, for typed kernels (min/max).
inline bool operator<(const interval_t& a, const interval_t& b) { return Interval::Normalize(a) < Interval::Normalize(b); }

}  // namespace lakestream
