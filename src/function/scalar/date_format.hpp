// Spark/Java-style datetime patterns for date_format, to_date(s, fmt),
// to_timestamp(s, fmt), from_unixtime and unix_timestamp:
//   yyyy / yy / y  year;  MM / M month;  MMM Jan;  MMMM January;  dd / d day;
//   HH / H hour 0-23;  hh / h hour 1-12;  a AM/PM;  mm / m minute;
//   ss / s second;  S... fraction (as many digits as letters, up to 6);
//   EEE Mon;  EEEE Monday;  'text' literal ('' is a quote); other
//   non-letters are literal. Unknown pattern letters are an error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

class DateFormat {
 public:
  // Throws InvalidInputError naming the pattern for unknown letters.
  explicit DateFormat(std::string_view pattern);

  void Format(timestamp_t ts, std::string& out) const;
  // False when `s` does not match the pattern or names an invalid date.
  bool Parse(std::string_view s, timestamp_t& result) const;

 private:
  struct Token {
    char letter;  // 0 for a literal
    int count;
    std::string literal;
  };
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
