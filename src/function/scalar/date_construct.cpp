// Date and time functions that build or compare calendar values (Spark):
//
//   make_date(year, month, day) -> DATE
//   make_timestamp(year, month, day, hour, min, sec[, timezone]) -> TIMESTAMP,
//     the wall clock read in `timezone` or else the session zone (Spark);
//     make_timestamp_ltz the same; make_timestamp_ntz(...) -> TIMESTAMP_NTZ
//     (six fields, no zone). sec may
//     have a fraction (DECIMAL/DOUBLE, microseconds kept); sec = 60 is the
//     next minute (Spark). Fields out of range are an error naming the value
//     (Spark with ANSI mode, the default since Spark 4; DuckDB also errors).
//   months_between(end, start[, round_off]) -> DOUBLE: whole months when both
//     days of month are equal or both are month ends, else the month
//     difference plus the remaining time over 31 days, rounded to 8 digits
//     unless round_off is false (Spark's definition).
//   next_day(date, 'Mon' | 'Monday' | 'MO') -> the first later DATE on that
//     weekday.
#include <cmath>

#include "common/date.hpp"
#include "function/scalar/date_format.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

bool IsIntegerOrNull(const LogicalType& t) { return t.IsIntegral() || t.id() == TypeId::SQLNULL; }
bool IsTemporal(const LogicalType& t) {
  return t.id() == TypeId::DATE || t.IsTimestamp() || t.id() == TypeId::VARCHAR || t.id() == TypeId::SQLNULL;
}

[[noreturn]] void BadField(const char* fn, const std::string& what, int64_t value) {
  throw ConversionError(std::string(fn) + ": " + what + " " + std::to_string(value) + " is out of range");
}

date_t MakeDate(const char* fn, int64_t y, int64_t m, int64_t d) {
  if (y < -290000 || y > 290000) BadField(fn, "year", y);
  if (m < 1 || m > 12) BadField(fn, "month", m);
  if (d < 1 || d > Date::DaysInMonth(static_cast<int32_t>(y), static_cast<int32_t>(m))) {
    throw ConversionError(std::string(fn) + ": day " + std::to_string(d) + " does not exist in " + std::to_string(y) + "-" +
                          std::to_string(m));
  }
  return Date::FromCivil(static_cast<int32_t>(y), static_cast<int32_t>(m), static_cast<int32_t>(d));
}

BoundScalarFunction BindMakeDate(const ScalarBindInput& input) {
  const char* accepted = "make_date(year INTEGER, month INTEGER, day INTEGER)";
  CheckArgumentCount(input, 3, 3, accepted);
  for (auto& t : input.argument_types) {
    if (!IsIntegerOrNull(t)) ThrowArgumentError(input, accepted);
  }
  return Bound({TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT}, TypeId::DATE,
               [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
                 auto* out = r.GetData<date_t>();
                 for (idx_t i = 0; i < c; i++) {
                   bool valid = AllValid(a, i);
                   r.SetValid(i, valid);
                   if (!valid) continue;
                   out[i] = MakeDate("make_date", a.data[0].GetData<int64_t>()[i], a.data[1].GetData<int64_t>()[i],
                                     a.data[2].GetData<int64_t>()[i]);
                 }
               });
}

template <TypeId RET>
BoundScalarFunction BindMakeTimestamp(const ScalarBindInput& input) {
  bool ntz = RET == TypeId::TIMESTAMP_NTZ;
  std::string accepted = input.name + "(year, month, day, hour, min INTEGER, sec DECIMAL" +
                         (ntz ? ")" : "[, timezone VARCHAR])");
  CheckArgumentCount(input, 6, ntz ? 6 : 7, accepted);
  for (idx_t i = 0; i < 5; i++) {
    if (!IsIntegerOrNull(input.argument_types[i])) ThrowArgumentError(input, accepted);
  }
  if (!input.argument_types[5].IsNumeric() && input.argument_types[5].id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  bool with_zone = input.argument_types.size() == 7;
  if (with_zone && input.argument_types[6].id() != TypeId::VARCHAR && input.argument_types[6].id() != TypeId::SQLNULL) {
    ThrowArgumentError(input, accepted);
  }
  // Seconds as DECIMAL(8,6): exact microseconds (Spark's sec is DECIMAL(8,6)).
  LogicalType sec_type = LogicalType::Decimal(8, 6);
  std::vector<LogicalType> args(5, TypeId::BIGINT);
  args.push_back(sec_type);
  if (with_zone) args.emplace_back(TypeId::VARCHAR);
  return Bound(args, RET, [with_zone](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    auto* out = r.GetData<timestamp_t>();
    std::shared_ptr<const TimeZone> row_zone;
    std::string row_zone_name;
    for (idx_t i = 0; i < c; i++) {
      bool valid = AllValid(a, i);
      r.SetValid(i, valid);
      if (!valid) continue;
      auto field = [&](idx_t k) { return a.data[k].GetData<int64_t>()[i]; };
      date_t d = MakeDate("make_timestamp", field(0), field(1), field(2));
      int64_t hour = field(3), minute = field(4);
      auto sec_micros = static_cast<int64_t>(a.data[5].GetData<hugeint_t>()[i]);
      if (hour < 0 || hour > 23) BadField("make_timestamp", "hour", hour);
      if (minute < 0 || minute > 59) BadField("make_timestamp", "minute", minute);
      // 60 seconds is allowed only as a whole minute (Spark).
      bool sec_ok = (sec_micros >= 0 && sec_micros < 60 * MICROS_PER_SECOND) || sec_micros == 60 * MICROS_PER_SECOND;
      if (!sec_ok) {
        throw ConversionError("make_timestamp: seconds " + a.data[5].GetValue(i).ToString() +
                              " is out of range (0 to below 60, or exactly 60)");
      }
      timestamp_t wall = Timestamp::FromDate(d) + (hour * 3600 + minute * 60) * MICROS_PER_SECOND + sec_micros;
      if (RET == TypeId::TIMESTAMP_NTZ) {
        out[i] = wall;
      } else if (with_zone) {
        std::string_view name = a.data[6].GetData<string_t>()[i];
        if (!row_zone || name != row_zone_name) {
          row_zone_name = std::string(name);
          row_zone = TimeZone::Get(row_zone_name);
        }
        out[i] = row_zone->LocalToUtc(wall);
      } else {
        out[i] = SessionTimeZone().LocalToUtc(wall);
      }
    }
  });
}

double MonthsBetween(timestamp_t end, timestamp_t start, bool round_off) {
  date_t d1 = Timestamp::GetDate(end), d2 = Timestamp::GetDate(start);
  int32_t y1, m1, day1, y2, m2, day2;
  Date::ToCivil(d1, y1, m1, day1);
  Date::ToCivil(d2, y2, m2, day2);
  int64_t month_diff = (static_cast<int64_t>(y1) * 12 + m1) - (static_cast<int64_t>(y2) * 12 + m2);
  bool last1 = day1 == Date::DaysInMonth(y1, m1), last2 = day2 == Date::DaysInMonth(y2, m2);
  if (day1 == day2 || (last1 && last2)) return static_cast<double>(month_diff);
  double seconds = static_cast<double>(day1 - day2) * 86400.0 +
                   static_cast<double>(Timestamp::MicrosOfDay(end) - Timestamp::MicrosOfDay(start)) / MICROS_PER_SECOND;
  double diff = static_cast<double>(month_diff) + seconds / (31.0 * 86400.0);
  // Java's Math.round(x * 1e8) / 1e8: half up.
  return round_off ? std::floor(diff * 1e8 + 0.5) / 1e8 : diff;
}

BoundScalarFunction BindMonthsBetween(const ScalarBindInput& input) {
  const char* accepted = "months_between(end TIMESTAMP, start TIMESTAMP[, round_off BOOLEAN])";
  CheckArgumentCount(input, 2, 3, accepted);
  if (!IsTemporal(input.argument_types[0]) || !IsTemporal(input.argument_types[1])) ThrowArgumentError(input, accepted);
  bool round_off = true;
  if (input.argument_types.size() == 3) {
    const Value* v = input.constant_arguments[2];
    if (!v || v->IsNull() || v->type().id() != TypeId::BOOLEAN) {
      throw BinderError("months_between: round_off must be a constant TRUE or FALSE");
    }
    round_off = v->GetBoolean();
  }
  std::vector<LogicalType> args = {TypeId::TIMESTAMP, TypeId::TIMESTAMP};
  if (input.argument_types.size() == 3) args.emplace_back(TypeId::BOOLEAN);
  return Bound(args, TypeId::DOUBLE, [round_off](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    // Calendar months of the wall clocks in the session zone (Spark).
    const TimeZone& zone = SessionTimeZone();
    BinaryExecute<timestamp_t, timestamp_t, double>(a.data[0], a.data[1], r, c, [round_off, &zone](timestamp_t e, timestamp_t s) {
      return MonthsBetween(zone.UtcToLocal(e), zone.UtcToLocal(s), round_off);
    });
  });
}

// 0 = Sunday ... 6 = Saturday, or -1.
int ParseWeekday(const std::string& raw) {
  static const char* const kNames[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
  std::string s;
  for (char ch : raw) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  for (int k = 0; k < 7; k++) {
    std::string name = kNames[k];
    if (s == name || s == name.substr(0, 3) || s == name.substr(0, 2)) return k;
  }
  return -1;
}

BoundScalarFunction BindNextDay(const ScalarBindInput& input) {
  const char* accepted = "next_day(DATE, day_of_week VARCHAR)";
  CheckArgumentCount(input, 2, 2, accepted);
  if (!IsTemporal(input.argument_types[0])) ThrowArgumentError(input, accepted);
  const std::string* name = ConstantString(input, 1);
  if (!name) throw BinderError("next_day: the day of week must be a constant string, e.g. next_day(d, 'Mon')");
  int target = ParseWeekday(*name);
  if (target < 0) {
    throw InvalidInputError("next_day: '" + *name + "' is not a day of the week; use Mon, Tue, ... or Monday, Tuesday, ...");
  }
  return Bound({TypeId::DATE, TypeId::VARCHAR}, TypeId::DATE, [target](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<date_t, date_t>(a.data[0], r, c, [target](date_t d) {
      int delta = (target - Date::DayOfWeek(d) + 7) % 7;
      return d + (delta == 0 ? 7 : delta);
    });
  });
}

}  // namespace

void RegisterDateConstructFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("make_date", BindMakeDate);
  registry.Register("make_timestamp", BindMakeTimestamp<TypeId::TIMESTAMP>);
  registry.Register("make_timestamp_ltz", BindMakeTimestamp<TypeId::TIMESTAMP>);
  registry.Register("make_timestamp_ntz", BindMakeTimestamp<TypeId::TIMESTAMP_NTZ>);
  registry.Register("months_between", BindMonthsBetween);
  registry.Register("next_day", BindNextDay);
}

}  // namespace lakestream
