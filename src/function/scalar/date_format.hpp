// Spark/Java-style datetime patterns for date_format, to_date(s, fmt),
// to_timestamp(s, fmt), from_unixtime and unix_timestamp:
//   yyyy / yy / y  year;  MM / M month;  MMM Jan;  MMMM January;  dd / d day;
//   HH / H hour 0-23;  hh / h hour 1-12;  a AM/PM;  mm / m minute;
//   ss / s second;  S... fraction (as many digits as letters, up to 6);
//   EEE Mon;  EEEE Monday;  'text' literal ('' is a quote); other
//   non-letters are literal. Unknown pattern letters are an error.
// And C's strftime specifiers (DuckDB's strftime/strptime), DateSyntax::STRFTIME:
//   %Y %y %m %d %H %I %M %S %f %g (millis) %n (nanos) %p %b %h %B %a %A
//   %j (day of year) %U %W (week of year from Sunday / Monday) %u %w (weekday
//   1-7 from Monday / 0-6 from Sunday) %V %G (ISO week and year) %z %Z
//   (offset and zone: +00 and empty for a wall clock) %T %X %x %c %%;
//   %-d etc. drop the zero padding. strptime reads all but %U %W %V %G %z %Z.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

class TimeZone;

enum class DateSyntax : uint8_t { JAVA, STRFTIME };

class DateFormat {
 public:
  // Throws InvalidInputError naming the pattern for unknown letters. For
  // STRFTIME, `function` names the caller in errors (strftime, strptime); a
  // specifier strptime cannot read is a NotImplementedError.
  explicit DateFormat(std::string_view pattern, DateSyntax syntax = DateSyntax::JAVA, const std::string& function = "");

  // `ts` is the wall clock to print. `zone` is the zone of an instant
  // (TIMESTAMP) for %z/%Z, null for a wall-clock value (TIMESTAMP_NTZ, DATE).
  void Format(timestamp_t ts, std::string& out, const TimeZone* zone = nullptr) const;
  // False when `s` does not match the pattern or names an invalid date.
  bool Parse(std::string_view s, timestamp_t& result) const;

 private:
  struct Token {
    char letter;  // 0 for a literal
    int count;
    std::string literal;
  };
  void ParseStrftime(std::string_view fmt, const std::string& function);

  std::string pattern_;
  std::vector<Token> tokens_;
};

class ScalarFunctionRegistry;
// make_date, make_timestamp, months_between, next_day (date_construct.cpp);
// called by RegisterDateFunctions.
void RegisterDateConstructFunctions(ScalarFunctionRegistry& registry);
// current_timezone, from_utc_timestamp, to_utc_timestamp, convert_timezone
// (time_zone_functions.cpp); called by RegisterDateFunctions.
void RegisterTimeZoneFunctions(ScalarFunctionRegistry& registry);

}  // namespace lakestream
