// Time zones for TIMESTAMP (an instant, shown in the session zone) and the
// session time zone itself (SET TIME ZONE), following Spark SQL.
//
// Zones come from the system tz database (TZif files under $TZDIR or
// /usr/share/zoneinfo; GCC 12's libstdc++ has no std::chrono tzdb) or are a
// fixed offset ('+05:30', 'UTC-8', 'GMT+01:00', 'Z', 'UTC'). A loaded zone is
// immutable and cached for the process.
//
// Local time -> instant follows java.time (what Spark does): a wall clock in a
// DST gap moves forward by the gap's length; one in an overlap takes the
// earlier instant (the offset in effect before the transition).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "common/types.hpp"

namespace lakestream {

class TimeZone {
 public:
  // The zone named `name`: a region ('America/New_York'), 'UTC'/'GMT'/'Z' or
  // an offset ('+05:30', '-08', 'UTC+5', 'GMT-03:30'). Throws InvalidInputError
  // naming the zone and a valid form when there is no such zone or its file is
  // corrupt. Never falls back to UTC.
  static std::shared_ptr<const TimeZone> Get(const std::string& name);
  // The same as a Status (for storage code and tests).
  static Status Load(const std::string& name, std::shared_ptr<const TimeZone>* out);
  // Parses TZif data (RFC 8536, versions 1 to 4); `name` is for the zone's
  // name and the error text. Exposed for tests of corrupt files.
  static Status FromTzif(const std::string& name, std::string_view data, std::shared_ptr<const TimeZone>* out);
  static std::shared_ptr<const TimeZone> Utc();
  // The machine's zone: $TZ if set, else the zone /etc/localtime links to,
  // else UTC (SET TIME ZONE LOCAL).
  static std::shared_ptr<const TimeZone> Local();

  // The name as given when the zone was looked up ('America/New_York', '+05:30').
  const std::string& Name() const { return name_; }
  bool IsUtc() const { return fixed_ && fixed_offset_ == 0; }

  // Seconds east of UTC in effect at `utc_seconds`.
  int64_t OffsetAt(int64_t utc_seconds) const;
  // Instant (micros since epoch, UTC) -> wall clock in this zone, and back.
  timestamp_t UtcToLocal(timestamp_t utc_micros) const;
  timestamp_t LocalToUtc(timestamp_t local_micros) const;

 private:
  struct LocalType {
    int32_t offset;
    bool is_dst;
  };
  // A POSIX TZ rule ("EST5EDT,M3.2.0,M11.1.0"): the TZif footer, for instants
  // after the last listed transition.
  struct RuleDate {
    char kind = 'M';  // 'M' month.week.day, 'J' Julian 1..365 without Feb 29, 'N' zero-based day of year
    int32_t month = 0, week = 0, weekday = 0, day = 0;
    int32_t time = 7200;  // seconds after local midnight
  };
  struct PosixRule {
    bool valid = false;
    int32_t std_offset = 0;  // seconds east of UTC
    bool has_dst = false;
    int32_t dst_offset = 0;
    RuleDate start, end;
  };
  static bool ParsePosixRule(std::string_view text, PosixRule& rule);
  static int64_t RuleLocalSeconds(const RuleDate& d, int32_t year);
  int64_t RuleOffsetAt(int64_t utc_seconds) const;

  std::string name_;
  bool fixed_ = false;
  int32_t fixed_offset_ = 0;
  std::vector<int64_t> transitions_;    // ascending, UTC seconds
  std::vector<uint8_t> transition_type_;  // index into types_ per transition
  std::vector<LocalType> types_;
  PosixRule rule_;
};

// The setting SET TIME ZONE writes (Spark's name, also settable with SET
// spark.sql.session.timeZone = '...'), and the value the parser gives SET TIME
// ZONE LOCAL (spaces keep it apart from every zone name).
inline constexpr const char* kSessionTimeZoneSetting = "spark.sql.session.timeZone";
inline constexpr const char* kSessionTimeZoneLocal = "TIME ZONE LOCAL";

// The time zone of the statement running on this thread: TIMESTAMP values are
// shown in it and strings without an offset read in it. Statements run on the
// thread that started them, so the runner sets it from the connection's
// setting when a statement begins (main/statement_runner.cpp). UTC by default.
const TimeZone& SessionTimeZone();
void SetSessionTimeZone(std::shared_ptr<const TimeZone> zone);

}  // namespace lakestream
