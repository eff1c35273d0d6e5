// DuckDB's date functions beside the Spark set of date.cpp:
//
//   today()                       current_date
//   week(d)                       weekofyear (ISO week)
//   epoch(ts)                     DOUBLE seconds since 1970 (fraction kept)
//   epoch_ms(ts) / epoch_ms(n)    BIGINT milliseconds / the TIMESTAMP_NTZ n ms after 1970
//   to_timestamp(seconds)         TIMESTAMP (an instant); to_timestamp(text[, fmt]) is date.cpp's
//   date_diff / datediff('part', a, b)   part boundaries crossed from a to b
//   date_sub('part', a, b)        complete parts from a to b (as age() counts them)
//   age(a, b)                     INTERVAL a - b in years, months, days and time
//   strftime(ts, fmt), strptime(text, fmt), try_strptime(text, fmt)
//                                 C-style specifiers (date_format.hpp lists them);
//                                 the format must be a constant
//   dayname(d), monthname(d)      English names
//   time_bucket(width, ts[, origin])  the start of ts's bucket of width INTERVAL,
//                                 buckets counted from origin (default 2000-01-03,
//                                 a Monday, or 2000-01-01 for month widths)
//
// A TIMESTAMP is an instant and is read as its wall clock in the session time
// zone (as date.cpp does); DATE and TIMESTAMP_NTZ are wall clocks already.
// Spark's datediff(end, start) and date_sub(date, days) stay as they are:
// the part-name overloads are told apart by their three arguments.
#include <cmath>
#include <memory>
#include <optional>

#include "common/date.hpp"
#include "common/time_zone.hpp"
#include "function/scalar/date_format.hpp"
#include "function/scalar/duckdb_functions.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

bool IsTemporal(const LogicalType& t) { return t.id() == TypeId::DATE || t.IsTimestamp(); }

// The kind each temporal argument is cast to: DATE -> TIMESTAMP_NTZ
// (midnight), TIMESTAMP and TIMESTAMP_NTZ as they are.
LogicalType WallType(const LogicalType& t) { return t.id() == TypeId::TIMESTAMP ? TypeId::TIMESTAMP : TypeId::TIMESTAMP_NTZ; }

const TimeZone* ZoneOf(const LogicalType& t) {
  return t.id() == TypeId::TIMESTAMP && !SessionTimeZone().IsUtc() ? &SessionTimeZone() : nullptr;
}
timestamp_t Wall(const TimeZone* zone, timestamp_t ts) { return zone ? zone->UtcToLocal(ts) : ts; }

// ---- strftime / strptime: C-style specifiers (date_format.hpp, DateSyntax::STRFTIME)

BoundScalarFunction BindStrftime(const ScalarBindInput& input) {
  const char* accepted = "strftime(TIMESTAMP, format VARCHAR)";
  CheckArgumentCount(input, 2, 2, accepted);
  // DuckDB also takes strftime(format, ts).
  bool swapped = input.argument_types[0].id() == TypeId::VARCHAR && IsTemporal(input.argument_types[1]);
  idx_t fmt_at = swapped ? 0 : 1;
  idx_t value_at = 1 - fmt_at;
  const LogicalType& value_type = input.argument_types[value_at];
  if (!IsTemporal(value_type) && value_type.id() != TypeId::VARCHAR && value_type.id() != TypeId::SQLNULL) {
    ThrowArgumentError(input, accepted);
  }
  const std::string* fmt = ConstantString(input, fmt_at);
  if (!fmt) throw BinderError("strftime(): the format must be a constant string, e.g. strftime(ts, '%Y-%m-%d')");
  auto format = std::make_shared<DateFormat>(*fmt, DateSyntax::STRFTIME, "strftime");
  LogicalType kind = value_type.id() == TypeId::TIMESTAMP ? LogicalType(TypeId::TIMESTAMP) : LogicalType(TypeId::TIMESTAMP_NTZ);
  std::vector<LogicalType> args(2, TypeId::VARCHAR);
  args[value_at] = kind;
  return Bound(std::move(args), TypeId::VARCHAR, [kind, format, value_at](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    const TimeZone* zone = ZoneOf(kind);
    // %z/%Z: an instant prints the session zone, a wall clock +00 and nothing.
    const TimeZone* printed_zone = kind.id() == TypeId::TIMESTAMP ? &SessionTimeZone() : nullptr;
    std::string buffer;
    UnaryExecute<timestamp_t, string_t>(a.data[value_at], r, c, [&](timestamp_t ts) {
      buffer.clear();
      format->Format(Wall(zone, ts), buffer, printed_zone);
      return r.AddString(buffer);
    });
  });
}

// strptime(text, fmt): TIMESTAMP_NTZ (DuckDB's TIMESTAMP); text that does
// not match is an error naming it (DuckDB), try_strptime gives NULL.
template <bool TRY>
BoundScalarFunction BindStrptime(const ScalarBindInput& input) {
  std::string accepted = input.name + "(VARCHAR, format VARCHAR)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (t.id() != TypeId::VARCHAR && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  const std::string* fmt = ConstantString(input, 1);
  if (!fmt) throw BinderError(input.name + "(): the format must be a constant string, e.g. strptime(s, '%Y-%m-%d')");
  auto format = std::make_shared<DateFormat>(*fmt, DateSyntax::STRFTIME, "strptime");
  std::string pattern = *fmt;
  return Bound({TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::TIMESTAMP_NTZ,
               [format, pattern](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
                 UnaryExecuteNullable<string_t, timestamp_t>(a.data[0], r, c, [&](string_t s, timestamp_t& out) {
                   if (format->Parse(s, out)) return true;
                   if (TRY) return false;
                   throw InvalidInputError("strptime(): could not parse '" + std::string(s) + "' with the format '" +
                                           pattern + "'; use try_strptime() to get NULL instead");
                 });
               });
}

BoundScalarFunction BindNamedField(const ScalarBindInput& input, const char* java_pattern) {
  std::string accepted = input.name + "(DATE), " + input.name + "(TIMESTAMP)";
  CheckArgumentCount(input, 1, 1, accepted);
  if (!IsTemporal(input.argument_types[0]) && input.argument_types[0].id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  LogicalType kind = WallType(input.argument_types[0]);
  auto format = std::make_shared<DateFormat>(java_pattern);
  return Bound({kind}, TypeId::VARCHAR, [kind, format](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    const TimeZone* zone = ZoneOf(kind);
    std::string buffer;
    UnaryExecute<timestamp_t, string_t>(a.data[0], r, c, [&](timestamp_t ts) {
      buffer.clear();
      format->Format(Wall(zone, ts), buffer);
      return r.AddString(buffer);
    });
  });
}

// ---- epoch ----------------------------------------------------------------

BoundScalarFunction BindEpoch(const ScalarBindInput& input) {
  const char* accepted = "epoch(TIMESTAMP), epoch(DATE)";
  CheckArgumentCount(input, 1, 1, accepted);
  if (!IsTemporal(input.argument_types[0]) && input.argument_types[0].id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  LogicalType t = WallType(input.argument_types[0]);
  return Bound({t}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<timestamp_t, double>(a.data[0], r, c, [](timestamp_t ts) { return static_cast<double>(ts) / 1e6; });
  });
}

BoundScalarFunction BindEpochMs(const ScalarBindInput& input) {
  const char* accepted = "epoch_ms(TIMESTAMP), epoch_ms(DATE), epoch_ms(milliseconds BIGINT)";
  CheckArgumentCount(input, 1, 1, accepted);
  const LogicalType& t = input.argument_types[0];
  if (t.IsIntegral()) {
    return Bound({TypeId::BIGINT}, TypeId::TIMESTAMP_NTZ, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<int64_t, timestamp_t>(a.data[0], r, c, [](int64_t ms) {
        timestamp_t out;
        if (__builtin_mul_overflow(ms, int64_t{1000}, &out)) throw InvalidInputError("epoch_ms(" + std::to_string(ms) + "): the timestamp is out of range");
        return out;
      });
    });
  }
  if (!IsTemporal(t) && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  return Bound({WallType(t)}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<timestamp_t, int64_t>(a.data[0], r, c, [](timestamp_t ts) {
      return ts >= 0 ? ts / 1000 : -((-ts + 999) / 1000);  // floor
    });
  });
}

scalar_bind_t ToTimestampSeconds(const scalar_bind_t& text_form) {
  return [text_form](const ScalarBindInput& input) {
    if (input.argument_types.size() != 1 || !input.argument_types[0].IsNumeric()) return text_form(input);
    return Bound({TypeId::DOUBLE}, TypeId::TIMESTAMP, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<double, timestamp_t>(a.data[0], r, c, [](double s) {
        double micros = std::round(s * 1e6);
        if (!(micros > -9.2e18 && micros < 9.2e18)) throw InvalidInputError("to_timestamp(" + Value::DOUBLE(s).ToString() + "): the number of seconds is out of the TIMESTAMP range");
        return static_cast<timestamp_t>(micros);
      });
    });
  };
}

// ---- date_diff / date_sub / age --------------------------------------------

enum class Part { YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND };

Part ParsePart(const std::string& function, std::string name) {
  for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (name.size() > 1 && name.back() == 's') name.pop_back();
  static const std::vector<std::pair<std::string, Part>> kParts = {
      {"year", Part::YEAR}, {"yr", Part::YEAR}, {"y", Part::YEAR}, {"quarter", Part::QUARTER},
      {"month", Part::MONTH}, {"mon", Part::MONTH}, {"week", Part::WEEK}, {"w", Part::WEEK},
      {"day", Part::DAY}, {"d", Part::DAY}, {"dayofmonth", Part::DAY}, {"hour", Part::HOUR}, {"hr", Part::HOUR},
      {"h", Part::HOUR}, {"minute", Part::MINUTE}, {"min", Part::MINUTE}, {"m", Part::MINUTE},
      {"second", Part::SECOND}, {"sec", Part::SECOND}, {"s", Part::SECOND}, {"millisecond", Part::MILLISECOND},
      {"m", Part::MINUTE}, {"ms", Part::MILLISECOND}, {"msec", Part::MILLISECOND}, {"microsecond", Part::MICROSECOND},
      {"us", Part::MICROSECOND}, {"usec", Part::MICROSECOND}};
  for (auto& [n, p] : kParts) {
    if (n == name) return p;
  }
  throw InvalidInputError(function + "(): unknown date part '" + name + "'; use year, quarter, month, week, day, hour, minute, second, millisecond or microsecond");
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int64_t MicrosPer(Part p) {
  switch (p) {
    case Part::WEEK: return MICROS_PER_DAY * 7;
    case Part::DAY: return MICROS_PER_DAY;
    case Part::HOUR: return int64_t{3600} * 1000000;
    case Part::MINUTE: return int64_t{60} * 1000000;
    case Part::SECOND: return 1000000;
    case Part::MILLISECOND: return 1000;
    default: return 1;
  }
}

// Months from a to b on the calendar (year and month fields only).
int64_t CalendarMonths(timestamp_t a, timestamp_t b) {
  int32_t ya, ma, da, yb, mb, db;
  Date::ToCivil(Timestamp::GetDate(a), ya, ma, da);
  Date::ToCivil(Timestamp::GetDate(b), yb, mb, db);
  return (int64_t{yb} - ya) * 12 + (mb - ma);
}

// date_diff: boundaries crossed.
int64_t DateDiff(Part p, timestamp_t a, timestamp_t b) {
  switch (p) {
    case Part::YEAR: {
      int32_t ya, yb, m, d;
      Date::ToCivil(Timestamp::GetDate(a), ya, m, d);
      Date::ToCivil(Timestamp::GetDate(b), yb, m, d);
      return int64_t{yb} - ya;
    }
    case Part::QUARTER: {
      int32_t ya, ma, yb, mb, d;
      Date::ToCivil(Timestamp::GetDate(a), ya, ma, d);
      Date::ToCivil(Timestamp::GetDate(b), yb, mb, d);
      return (int64_t{yb} * 4 + (mb - 1) / 3) - (int64_t{ya} * 4 + (ma - 1) / 3);
    }
    case Part::MONTH: return CalendarMonths(a, b);
    case Part::WEEK: return (static_cast<int64_t>(Timestamp::GetDate(b)) - Timestamp::GetDate(a)) / 7;
    case Part::MICROSECOND: return b - a;
    default: return FloorDiv(b, MicrosPer(p)) - FloorDiv(a, MicrosPer(p));
  }
}

// Whole months from a to b, as age() counts them (a later day or time in the
// last month does not complete it).
int64_t WholeMonths(timestamp_t a, timestamp_t b) {
  int64_t months = CalendarMonths(a, b);
  auto rest = [](timestamp_t ts) {
    int32_t y, m, d;
    Date::ToCivil(Timestamp::GetDate(ts), y, m, d);
    return int64_t{d} * MICROS_PER_DAY + Timestamp::MicrosOfDay(ts);
  };
  if (months > 0 && rest(b) < rest(a)) months--;
  if (months < 0 && rest(b) > rest(a)) months++;
  return months;
}

int64_t DateSub(Part p, timestamp_t a, timestamp_t b) {
  switch (p) {
    case Part::YEAR: return WholeMonths(a, b) / 12;
    case Part::QUARTER: return WholeMonths(a, b) / 3;
    case Part::MONTH: return WholeMonths(a, b);
    default: return (b - a) / MicrosPer(p);
  }
}

template <bool SUB>
scalar_bind_t BindPartDiff(const scalar_bind_t& spark_form) {
  return [spark_form](const ScalarBindInput& input) {
    std::string accepted = input.name + "(part VARCHAR, start TIMESTAMP, end TIMESTAMP)";
    if (input.argument_types.size() != 3) {
      if (spark_form) return spark_form(input);
      ThrowArgumentError(input, accepted);
    }
    auto& t = input.argument_types;
    if ((t[0].id() != TypeId::VARCHAR && t[0].id() != TypeId::SQLNULL) || !(IsTemporal(t[1]) || t[1].id() == TypeId::SQLNULL) ||
        !(IsTemporal(t[2]) || t[2].id() == TypeId::SQLNULL)) {
      ThrowArgumentError(input, accepted);
    }
    // Both sides as one kind so their wall clocks compare.
    LogicalType kind = t[1].id() == TypeId::TIMESTAMP || t[2].id() == TypeId::TIMESTAMP ? TypeId::TIMESTAMP : TypeId::TIMESTAMP_NTZ;
    const std::string* part_name = ConstantString(input, 0);
    std::optional<Part> constant_part;
    if (part_name) constant_part = ParsePart(input.name, *part_name);
    std::string name = input.name;
    return Bound({TypeId::VARCHAR, kind, kind}, TypeId::BIGINT, [kind, constant_part, name](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      const TimeZone* zone = ZoneOf(kind);
      auto* out = r.GetData<int64_t>();
      for (idx_t i = 0; i < c; i++) {
        bool valid = AllValid(a, i);
        r.SetValid(i, valid);
        if (!valid) continue;
        Part p = constant_part ? *constant_part : ParsePart(name, std::string(a.data[0].GetData<string_t>()[i]));
        timestamp_t x = Wall(zone, a.data[1].GetData<timestamp_t>()[i]);
        timestamp_t y = Wall(zone, a.data[2].GetData<timestamp_t>()[i]);
        out[i] = SUB ? DateSub(p, x, y) : DateDiff(p, x, y);
      }
    });
  };
}

// a - b field by field as PostgreSQL's and DuckDB's age(): a negative time
// borrows a day, negative days borrow a month of a's month's length,
// negative months a year; a before b is the negation of age(b, a).
interval_t Age(timestamp_t a, timestamp_t b) {
  if (a < b) {
    interval_t flipped = Age(b, a);
    return {-flipped.months, -flipped.days, -flipped.micros};
  }
  int32_t ya, ma, da, yb, mb, db;
  Date::ToCivil(Timestamp::GetDate(a), ya, ma, da);
  Date::ToCivil(Timestamp::GetDate(b), yb, mb, db);
  int64_t micros = Timestamp::MicrosOfDay(a) - Timestamp::MicrosOfDay(b);
  int64_t days = int64_t{da} - db;
  int64_t months = (int64_t{ya} - yb) * 12 + (ma - mb);
  if (micros < 0) {
    micros += MICROS_PER_DAY;
    days--;
  }
  if (days < 0) {
    days += Date::DaysInMonth(ya, ma);
    months--;
  }
  interval_t out;
  out.months = static_cast<int32_t>(months);
  out.days = static_cast<int32_t>(days);
  out.micros = micros;
  return out;
}

BoundScalarFunction BindAge(const ScalarBindInput& input) {
  const char* accepted = "age(TIMESTAMP, TIMESTAMP), age(TIMESTAMP)";
  CheckArgumentCount(input, 1, 2, accepted);
  for (auto& t : input.argument_types) {
    if (!IsTemporal(t) && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  bool any_instant = false;
  for (auto& t : input.argument_types) any_instant |= t.id() == TypeId::TIMESTAMP;
  LogicalType kind = any_instant ? TypeId::TIMESTAMP : TypeId::TIMESTAMP_NTZ;
  std::vector<LogicalType> args(input.argument_types.size(), kind);
  BoundScalarFunction f = Bound(args, TypeId::INTERVAL, [kind](DataChunk& a, Vector& r, idx_t c, const FunctionContext& ctx) {
    const TimeZone* zone = ZoneOf(kind);
    // age(ts) is the age at the start of the current day.
    timestamp_t today = Timestamp::FromDate(Timestamp::GetDate(Wall(ZoneOf(TypeId::TIMESTAMP), ctx.statement_start)));
    auto* out = r.GetData<interval_t>();
    for (idx_t i = 0; i < c; i++) {
      bool valid = AllValid(a, i);
      r.SetValid(i, valid);
      if (!valid) continue;
      timestamp_t x = Wall(zone, a.data[0].GetData<timestamp_t>()[i]);
      if (a.ColumnCount() == 1) {
        out[i] = Age(today, x);
      } else {
        out[i] = Age(x, Wall(zone, a.data[1].GetData<timestamp_t>()[i]));
      }
    }
  });
  f.deterministic = input.argument_types.size() == 2;
  return f;
}

// ---- time_bucket ------------------------------------------------------------

BoundScalarFunction BindTimeBucket(const ScalarBindInput& input) {
  const char* accepted = "time_bucket(INTERVAL, TIMESTAMP[, origin TIMESTAMP]), time_bucket(INTERVAL, DATE[, origin DATE])";
  CheckArgumentCount(input, 2, 3, accepted);
  auto& t = input.argument_types;
  if ((t[0].id() != TypeId::INTERVAL && t[0].id() != TypeId::SQLNULL) || !(IsTemporal(t[1]) || t[1].id() == TypeId::SQLNULL)) {
    ThrowArgumentError(input, accepted);
  }
  if (t.size() == 3 && !(IsTemporal(t[2]) || t[2].id() == TypeId::SQLNULL)) ThrowArgumentError(input, accepted);
  bool is_date = t[1].id() == TypeId::DATE;
  LogicalType kind = t[1].id() == TypeId::TIMESTAMP ? TypeId::TIMESTAMP : TypeId::TIMESTAMP_NTZ;
  std::vector<LogicalType> args{TypeId::INTERVAL, kind};
  if (t.size() == 3) args.push_back(kind);
  LogicalType ret = is_date ? LogicalType(TypeId::DATE) : kind;
  return Bound(args, ret, [kind, is_date](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    const TimeZone* zone = ZoneOf(kind);
    for (idx_t i = 0; i < c; i++) {
      bool valid = AllValid(a, i);
      r.SetValid(i, valid);
      if (!valid) continue;
      interval_t width = a.data[0].GetData<interval_t>()[i];
      timestamp_t ts = Wall(zone, a.data[1].GetData<timestamp_t>()[i]);
      timestamp_t bucket;
      if (width.months != 0) {
        if (width.days != 0 || width.micros != 0) {
          throw InvalidInputError("time_bucket(): a width mixing months with days or time is not supported; use whole months or a fixed length such as INTERVAL 7 DAY");
        }
        if (width.months < 0) throw InvalidInputError("time_bucket(): the bucket width must be positive");
        timestamp_t origin = a.ColumnCount() == 3 ? Wall(zone, a.data[2].GetData<timestamp_t>()[i]) : Timestamp::FromDate(Date::FromCivil(2000, 1, 1));
        int32_t y, m, d, oy, om, od;
        Date::ToCivil(Timestamp::GetDate(ts), y, m, d);
        Date::ToCivil(Timestamp::GetDate(origin), oy, om, od);
        int64_t months = (int64_t{y} - oy) * 12 + (m - om);
        int64_t start = FloorDiv(months, width.months) * width.months + int64_t{oy} * 12 + (om - 1);
        int32_t by = static_cast<int32_t>(FloorDiv(start, 12));
        bucket = Timestamp::FromDate(Date::FromCivil(by, static_cast<int32_t>(start - int64_t{by} * 12) + 1, 1));
      } else {
        int64_t micros = int64_t{width.days} * MICROS_PER_DAY + width.micros;
        if (micros <= 0) throw InvalidInputError("time_bucket(): the bucket width must be positive");
        timestamp_t origin = a.ColumnCount() == 3 ? Wall(zone, a.data[2].GetData<timestamp_t>()[i]) : Timestamp::FromDate(Date::FromCivil(2000, 1, 3));
        bucket = origin + FloorDiv(ts - origin, micros) * micros;
      }
      if (is_date) {
        r.GetData<date_t>()[i] = Timestamp::GetDate(bucket);
      } else {
        r.GetData<timestamp_t>()[i] = zone ? zone->LocalToUtc(bucket) : bucket;
      }
    }
  });
}

}  // namespace

void RegisterDateMoreFunctions(ScalarFunctionRegistry& registry, const BindLookup& find) {
  auto existing = [&](const char* name) {
    const scalar_bind_t* bind = find(name);
    if (!bind) throw InternalError(std::string("RegisterDateMoreFunctions: ") + name + " must be registered first");
    return *bind;
  };
  registry.Register("today", existing("current_date"));
  registry.Register("week", existing("weekofyear"));
  registry.Register("epoch", BindEpoch);
  registry.Register("epoch_ms", BindEpochMs);
  registry.Register("to_timestamp", ToTimestampSeconds(existing("to_timestamp")));
  registry.Register("date_diff", BindPartDiff<false>(nullptr));
  registry.Register("datediff", BindPartDiff<false>(existing("datediff")));
  registry.Register("date_sub", BindPartDiff<true>(existing("date_sub")));
  registry.Register("age", BindAge);
  registry.Register("strftime", BindStrftime);
  registry.Register("strptime", BindStrptime<false>);
  registry.Register("try_strptime", BindStrptime<true>);
  registry.Register("dayname", [](const ScalarBindInput& in) { return BindNamedField(in, "EEEE"); });
  registry.Register("monthname", [](const ScalarBindInput& in) { return BindNamedField(in, "MMMM"); });
  registry.Register("time_bucket", BindTimeBucket);
}

}  // namespace lakestream
