// Date and time functions.
//
//   current_timestamp()/now(), current_date(): the statement's start time
//     (FunctionContext), so every row and every call in one statement agree;
//     deterministic = false (never folded, views recompute).
//   date_trunc(unit, x): TIMESTAMP (Spark, also for a DATE argument; DuckDB
//     keeps DATE). Units: microsecond, millisecond, second, minute, hour, day,
//     week (Monday), month, quarter, year, decade, century.
//   trunc(date, unit): DATE truncated to year/yyyy/yy, quarter, month/mon/mm
//     or week (Spark's units; others are an error naming the unit).
//   date_part(field, x) (EXTRACT) and year() ... second(): INTEGER; fields
//     year, quarter, month, week (ISO), day, dayofweek/dow (1 = Sunday ... 7,
//     Spark), isodow (1 = Monday), dayofyear/doy, hour, minute, second (whole
//     seconds), millisecond(s)/microsecond(s) (including the seconds, DuckDB),
//     epoch (BIGINT seconds). Of an INTERVAL: year, month, day, hour, minute,
//     second as BIGINT, each with the interval's sign.
//   date_add(d, n), date_sub(d, n) (also with an INTERVAL n, DuckDB's form,
//     = d + n), datediff(end, start) (Spark order: days
//     from start to end), add_months(d, n) (clamped to the month's last day),
//     last_day(d).
//   to_date(s[, fmt]), to_timestamp(s[, fmt]), date_format(ts, fmt),
//     unix_timestamp([ts | s, fmt]), from_unixtime(secs[, fmt]): patterns as in
//     date_format.hpp. Text that does not parse is a ConversionError naming
//     the value and the pattern, like CAST (wrap in try_cast-style logic
//     upstream if NULL is wanted).
// Arguments: DATE/TIMESTAMP/VARCHAR wherever a date or timestamp is expected
// (the binder casts), integers where a count is expected.
//
// Time zones (Spark): a TIMESTAMP is an instant, and the calendar fields,
// truncation and formatting work on its wall clock in the session time zone
// (SessionTimeZone()); a TIMESTAMP_NTZ and a DATE are wall clocks already and
// ignore the zone. date_trunc keeps the argument's kind (NTZ in, NTZ out).
#include <memory>

#include "common/date.hpp"
#include "common/interval.hpp"
#include "function/scalar/arithmetic.hpp"
#include "function/scalar/date_format.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

bool IsTemporalOrText(const LogicalType& t) {
  return t.id() == TypeId::DATE || t.IsTimestamp() || t.id() == TypeId::VARCHAR || t.id() == TypeId::SQLNULL;
}

// The type a temporal argument is read as: NTZ stays NTZ, and a DATE is a wall
// clock too (midnight, no zone involved); everything else is a TIMESTAMP.
LogicalType WallOrInstant(const LogicalType& t) {
  return t.id() == TypeId::TIMESTAMP_NTZ || t.id() == TypeId::DATE ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP;
}

// The wall clock of `ts` for a kernel over `type`: the session zone's for a
// TIMESTAMP, the value itself for TIMESTAMP_NTZ.
timestamp_t WallClock(const TimeZone* zone, timestamp_t ts) { return zone ? zone->UtcToLocal(ts) : ts; }
const TimeZone* ZoneFor(const LogicalType& type) {
  return type.id() == TypeId::TIMESTAMP && !SessionTimeZone().IsUtc() ? &SessionTimeZone() : nullptr;
}

void RequireArgs(const ScalarBindInput& input, const std::vector<bool (*)(const LogicalType&)>& checks, idx_t min,
                 const std::string& accepted) {
  CheckArgumentCount(input, min, checks.size(), accepted);
  for (idx_t i = 0; i < input.argument_types.size(); i++) {
    if (!checks[i](input.argument_types[i])) ThrowArgumentError(input, accepted);
  }
}

bool IsIntegerArg(const LogicalType& t) { return t.IsIntegral() || t.id() == TypeId::SQLNULL; }
bool IsTextArg(const LogicalType& t) { return t.id() == TypeId::VARCHAR || t.id() == TypeId::SQLNULL; }
bool IsNumberArg(const LogicalType& t) { return t.IsNumeric() || t.id() == TypeId::SQLNULL; }

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const std::string& ConstantUnit(const ScalarBindInput& input, const char* what) {
  const std::string* unit = ConstantString(input, 0);
  if (!unit) throw BinderError(input.name + ": the " + std::string(what) + " must be a constant string, e.g. " + input.name + "('month', ts)");
  return *unit;
}

// ---- date_trunc ----

enum class Unit { MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, DECADE, CENTURY };

Unit ParseTruncUnit(const std::string& raw) {
  std::string u = Lower(raw);
  if (u.size() > 1 && u.back() == 's' && u != "ms" && u != "us") u.pop_back();  // plural
  if (u == "microsecond" || u == "us") return Unit::MICROSECOND;
  if (u == "millisecond" || u == "ms") return Unit::MILLISECOND;
  if (u == "second") return Unit::SECOND;
  if (u == "minute") return Unit::MINUTE;
  if (u == "hour") return Unit::HOUR;
  if (u == "day" || u == "dd" || u == "d") return Unit::DAY;
  if (u == "week") return Unit::WEEK;
  if (u == "month" || u == "mon" || u == "mm") return Unit::MONTH;
  if (u == "quarter") return Unit::QUARTER;
  if (u == "year" || u == "yyyy" || u == "yy") return Unit::YEAR;
  if (u == "decade") return Unit::DECADE;
  if (u == "century") return Unit::CENTURY;
  throw InvalidInputError("date_trunc: unknown unit '" + raw +
                          "'; use microsecond, millisecond, second, minute, hour, day, week, month, quarter, year, "
                          "decade or century");
}

date_t TruncDate(Unit unit, date_t d) {
  int32_t y, m, day;
  switch (unit) {
    case Unit::WEEK: return d - (Date::DayOfWeek(d) + 6) % 7;
    case Unit::MONTH: Date::ToCivil(d, y, m, day); return Date::FromCivil(y, m, 1);
    case Unit::QUARTER: Date::ToCivil(d, y, m, day); return Date::FromCivil(y, (m - 1) / 3 * 3 + 1, 1);
    case Unit::YEAR: Date::ToCivil(d, y, m, day); return Date::FromCivil(y, 1, 1);
    case Unit::DECADE: Date::ToCivil(d, y, m, day); return Date::FromCivil(y - ((y % 10) + 10) % 10, 1, 1);
    case Unit::CENTURY: Date::ToCivil(d, y, m, day); return Date::FromCivil(y - ((y - 1) % 100 + 100) % 100, 1, 1);
    default: return d;
  }
}

timestamp_t TruncTimestamp(Unit unit, timestamp_t ts) {
  auto floor_to = [ts](int64_t step) { int64_t r = ts % step; return r < 0 ? ts - r - step : ts - r; };
  switch (unit) {
    case Unit::MICROSECOND: return ts;
    case Unit::MILLISECOND: return floor_to(1000);
    case Unit::SECOND: return floor_to(MICROS_PER_SECOND);
    case Unit::MINUTE: return floor_to(60 * MICROS_PER_SECOND);
    case Unit::HOUR: return floor_to(3600 * MICROS_PER_SECOND);
    default: return Timestamp::FromDate(TruncDate(unit, Timestamp::GetDate(ts)));
  }
}

BoundScalarFunction BindDateTrunc(const ScalarBindInput& input) {
  const char* accepted = "date_trunc(unit VARCHAR, TIMESTAMP), date_trunc(unit VARCHAR, DATE)";
  RequireArgs(input, {IsTextArg, IsTemporalOrText}, 2, accepted);
  Unit unit = ParseTruncUnit(ConstantUnit(input, "unit"));
  // DATE arguments are cast to TIMESTAMP: Spark returns TIMESTAMP for both.
  // A TIMESTAMP is truncated on its session-zone wall clock (a day starts at
  // local midnight), an NTZ as it is.
  LogicalType type = input.argument_types[1].id() == TypeId::TIMESTAMP_NTZ ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP;
  return Bound({TypeId::VARCHAR, type}, type, [unit, type](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    const TimeZone* zone = ZoneFor(type);
    UnaryExecute<timestamp_t, timestamp_t>(a.data[1], r, c, [unit, zone](timestamp_t ts) {
      if (!zone) return TruncTimestamp(unit, ts);
      return zone->LocalToUtc(TruncTimestamp(unit, zone->UtcToLocal(ts)));
    });
  });
}

BoundScalarFunction BindTrunc(const ScalarBindInput& input) {
  CheckArgumentCount(input, 2, 2, "trunc(DATE, unit VARCHAR)");
  if (!IsTemporalOrText(input.argument_types[0]) || !IsTextArg(input.argument_types[1])) {
    ThrowArgumentError(input, "trunc(DATE, unit VARCHAR)");
  }
  const std::string* raw = ConstantString(input, 1);
  if (!raw) throw BinderError("trunc: the unit must be a constant string, e.g. trunc(d, 'MM')");
  Unit unit = ParseTruncUnit(*raw);
  if (unit != Unit::YEAR && unit != Unit::QUARTER && unit != Unit::MONTH && unit != Unit::WEEK) {
    throw InvalidInputError("trunc: unit '" + *raw + "' does not truncate a DATE; use year, quarter, month or week "
                            "(date_trunc truncates a TIMESTAMP to smaller units)");
  }
  return Bound({TypeId::DATE, TypeId::VARCHAR}, TypeId::DATE, [unit](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<date_t, date_t>(a.data[0], r, c, [unit](date_t d) { return TruncDate(unit, d); });
  });
}

// ---- date_part and the field functions ----

enum class Field { YEAR, QUARTER, MONTH, WEEK, DAY, DOW, ISODOW, DOY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, EPOCH };

Field ParseField(const std::string& raw) {
  std::string f = Lower(raw);
  if (f == "year" || f == "years" || f == "yyyy" || f == "y") return Field::YEAR;
  if (f == "quarter" || f == "qtr") return Field::QUARTER;
  if (f == "month" || f == "months" || f == "mon" || f == "mm") return Field::MONTH;
  if (f == "week" || f == "weeks" || f == "weekofyear" || f == "w") return Field::WEEK;
  if (f == "day" || f == "days" || f == "dayofmonth" || f == "d" || f == "dd") return Field::DAY;
  if (f == "dayofweek" || f == "dow") return Field::DOW;
  if (f == "isodow" || f == "dayofweek_iso" || f == "dow_iso") return Field::ISODOW;
  if (f == "dayofyear" || f == "doy") return Field::DOY;
  if (f == "hour" || f == "hours" || f == "h") return Field::HOUR;
  if (f == "minute" || f == "minutes" || f == "m" || f == "min") return Field::MINUTE;
  if (f == "second" || f == "seconds" || f == "s" || f == "sec") return Field::SECOND;
  if (f == "millisecond" || f == "milliseconds" || f == "ms") return Field::MILLISECOND;
  if (f == "microsecond" || f == "microseconds" || f == "us") return Field::MICROSECOND;
  if (f == "epoch") return Field::EPOCH;
  throw InvalidInputError("date_part: unknown field '" + raw +
                          "'; use year, quarter, month, week, day, dayofweek, isodow, dayofyear, hour, minute, second, "
                          "millisecond, microsecond or epoch");
}

int32_t IsoWeek(date_t d) {
  date_t thursday = d + 3 - (Date::DayOfWeek(d) + 6) % 7;
  int32_t y, m, day;
  Date::ToCivil(thursday, y, m, day);
  return (thursday - Date::FromCivil(y, 1, 1)) / 7 + 1;
}

int64_t ExtractField(Field field, timestamp_t ts) {
  date_t d = Timestamp::GetDate(ts);
  int64_t micros = Timestamp::MicrosOfDay(ts);
  int32_t y, m, day;
  switch (field) {
    case Field::YEAR: Date::ToCivil(d, y, m, day); return y;
    case Field::QUARTER: Date::ToCivil(d, y, m, day); return (m - 1) / 3 + 1;
    case Field::MONTH: Date::ToCivil(d, y, m, day); return m;
    case Field::WEEK: return IsoWeek(d);
    case Field::DAY: Date::ToCivil(d, y, m, day); return day;
    case Field::DOW: return Date::DayOfWeek(d) + 1;
    case Field::ISODOW: return (Date::DayOfWeek(d) + 6) % 7 + 1;
    case Field::DOY: Date::ToCivil(d, y, m, day); return d - Date::FromCivil(y, 1, 1) + 1;
    case Field::HOUR: return micros / (3600 * MICROS_PER_SECOND);
    case Field::MINUTE: return micros / (60 * MICROS_PER_SECOND) % 60;
    case Field::SECOND: return micros / MICROS_PER_SECOND % 60;
    case Field::MILLISECOND: return micros % (60 * MICROS_PER_SECOND) / 1000;
    case Field::MICROSECOND: return micros % (60 * MICROS_PER_SECOND);
    case Field::EPOCH: {
      int64_t s = ts / MICROS_PER_SECOND;
      return (ts % MICROS_PER_SECOND < 0) ? s - 1 : s;
    }
  }
  return 0;
}

// The field of argument `col` (0 for year(x), 1 for date_part('year', x)) of
// an argument of type `arg` as the user passed it.
BoundScalarFunction FieldFunction(Field field, idx_t col, const LogicalType& arg) {
  // Dates go through TIMESTAMP_NTZ (midnight, no zone): one kernel per field,
  // and the binder's DATE -> TIMESTAMP_NTZ cast is a multiply.
  LogicalType type = WallOrInstant(arg);
  if (field == Field::EPOCH) {
    // Seconds since the epoch of the instant; of an NTZ, of its wall clock read as UTC (Spark).
    return Bound({type}, TypeId::BIGINT, [col](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<timestamp_t, int64_t>(a.data[col], r, c, [](timestamp_t ts) { return ExtractField(Field::EPOCH, ts); });
    });
  }
  return Bound({type}, TypeId::INTEGER, [field, col, type](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    const TimeZone* zone = ZoneFor(type);
    UnaryExecute<timestamp_t, int32_t>(a.data[col], r, c, [field, zone](timestamp_t ts) {
      return static_cast<int32_t>(ExtractField(field, WallClock(zone, ts)));
    });
  });
}

// A part of an INTERVAL (Spark and DuckDB): years and months of the months,
// the days, and hours/minutes/whole seconds of the time; each keeps the sign.
BoundScalarFunction BindIntervalPart(const ScalarBindInput& input) {
  Field field = ParseField(ConstantUnit(input, "field"));
  if (field != Field::YEAR && field != Field::MONTH && field != Field::DAY && field != Field::HOUR &&
      field != Field::MINUTE && field != Field::SECOND) {
    throw InvalidInputError(input.name + ": field '" + *ConstantString(input, 0) +
                            "' of an INTERVAL is not supported; use year, month, day, hour, minute or second");
  }
  return Bound({TypeId::VARCHAR, TypeId::INTERVAL}, TypeId::BIGINT, [field](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<interval_t, int64_t>(a.data[1], r, c, [field](interval_t v) -> int64_t {
      switch (field) {
        case Field::YEAR: return v.months / 12;
        case Field::MONTH: return v.months % 12;
        case Field::DAY: return v.days;
        case Field::HOUR: return v.micros / (3600 * MICROS_PER_SECOND);
        case Field::MINUTE: return v.micros / (60 * MICROS_PER_SECOND) % 60;
        default: return v.micros / MICROS_PER_SECOND % 60;
      }
    });
  });
}

BoundScalarFunction BindDatePart(const ScalarBindInput& input) {
  if (input.argument_types.size() == 2 && input.argument_types[1].id() == TypeId::INTERVAL && IsTextArg(input.argument_types[0])) {
    return BindIntervalPart(input);
  }
  RequireArgs(input, {IsTextArg, IsTemporalOrText}, 2,
              "date_part(field VARCHAR, TIMESTAMP), date_part(field VARCHAR, DATE), date_part(field VARCHAR, INTERVAL)");
  Field field = ParseField(ConstantUnit(input, "field"));
  BoundScalarFunction f = FieldFunction(field, 1, input.argument_types[1]);
  f.argument_types.insert(f.argument_types.begin(), TypeId::VARCHAR);
  return f;
}

scalar_bind_t BindField(Field field, const std::string& name) {
  return [field, name](const ScalarBindInput& input) {
    RequireArgs(input, {IsTemporalOrText}, 1, name + "(TIMESTAMP), " + name + "(DATE)");
    return FieldFunction(field, 0, input.argument_types[0]);
  };
}

// ---- date arithmetic ----

BoundScalarFunction DateIntFunction(const ScalarBindInput& input, const std::string& accepted, date_t (*op)(date_t, int64_t)) {
  RequireArgs(input, {IsTemporalOrText, IsIntegerArg}, 2, accepted);
  return Bound({TypeId::DATE, TypeId::BIGINT}, TypeId::DATE, [op](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    BinaryExecute<date_t, int64_t, date_t>(a.data[0], a.data[1], r, c, [&](date_t d, int64_t n) { return op(d, n); });
  });
}

date_t CheckedDate(int64_t days, const char* fn) {
  if (days > INT32_MAX || days < INT32_MIN) throw ConversionError(std::string(fn) + ": date out of range");
  return static_cast<date_t>(days);
}

date_t AddDays(date_t d, int64_t n) {
  if (n > INT32_MAX || n < INT32_MIN) throw ConversionError("date_add: " + std::to_string(n) + " days is out of range");
  return CheckedDate(static_cast<int64_t>(d) + n, "date_add");
}
date_t SubDays(date_t d, int64_t n) {
  if (n > INT32_MAX || n < INT32_MIN) throw ConversionError("date_sub: " + std::to_string(n) + " days is out of range");
  return CheckedDate(static_cast<int64_t>(d) - n, "date_sub");
}
date_t AddMonths(date_t d, int64_t n) {
  date_t r;
  if (!Interval::TryAddMonths(d, n, r)) throw ConversionError("add_months: " + std::to_string(n) + " months is out of range");
  return r;
}

// date_add(x, INTERVAL ...) as DuckDB writes it: the same as x + INTERVAL.
bool ShiftByInterval(const ScalarBindInput& in, char op, BoundScalarFunction& out) {
  if (in.argument_types.size() != 2 || in.argument_types[1].id() != TypeId::INTERVAL) return false;
  if (!IsTemporalOrText(in.argument_types[0]) || in.argument_types[0].id() == TypeId::VARCHAR) return false;
  return BindIntervalArithmetic(in, op, out);
}

// ---- parsing and formatting ----

std::shared_ptr<const DateFormat> ConstantFormat(const ScalarBindInput& input, idx_t i) {
  if (i >= input.argument_types.size()) return nullptr;
  const std::string* fmt = ConstantString(input, i);
  if (!fmt) throw BinderError(input.name + ": the format must be a constant string, e.g. 'yyyy-MM-dd'");
  return std::make_shared<DateFormat>(*fmt);
}

// to_date (DATE), to_timestamp and to_timestamp_ltz (TIMESTAMP: a text's wall
// clock read in the session zone), to_timestamp_ntz (TIMESTAMP_NTZ).
template <TypeId RET>
BoundScalarFunction BindToDate(const ScalarBindInput& input) {
  constexpr bool TO_DATE = RET == TypeId::DATE;
  std::string accepted = input.name + "(VARCHAR[, format VARCHAR])";
  RequireArgs(input, {IsTemporalOrText, IsTextArg}, 1, accepted);
  LogicalType ret = RET;
  auto format = ConstantFormat(input, 1);
  if (!format) {
    // Same rules as CAST: the binder's cast does the work.
    return Bound({ret}, ret, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { r.Copy(a.data[0], nullptr, c, 0, 0); });
  }
  std::vector<LogicalType> args = {TypeId::VARCHAR, TypeId::VARCHAR};
  return Bound(args, ret, [format, name = input.name](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    auto parse = [&](string_t s) {
      timestamp_t ts;
      if (!format->Parse(s, ts)) {
        throw ConversionError(name + ": could not parse '" + std::string(s) + "' with the given format");
      }
      return ts;
    };
    if (TO_DATE) {
      UnaryExecute<string_t, date_t>(a.data[0], r, c, [&](string_t s) { return Timestamp::GetDate(parse(s)); });
    } else if (RET == TypeId::TIMESTAMP_NTZ) {
      UnaryExecute<string_t, timestamp_t>(a.data[0], r, c, parse);
    } else {
      const TimeZone& zone = SessionTimeZone();
      UnaryExecute<string_t, timestamp_t>(a.data[0], r, c, [&](string_t s) { return zone.LocalToUtc(parse(s)); });
    }
  });
}

BoundScalarFunction BindDateFormat(const ScalarBindInput& input) {
  RequireArgs(input, {IsTemporalOrText, IsTextArg}, 2, "date_format(TIMESTAMP, format VARCHAR)");
  auto format = ConstantFormat(input, 1);
  LogicalType type = WallOrInstant(input.argument_types[0]);
  return Bound({type, TypeId::VARCHAR}, TypeId::VARCHAR, [format, type](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    std::string buffer;
    const TimeZone* zone = ZoneFor(type);
    UnaryExecute<timestamp_t, string_t>(a.data[0], r, c, [&](timestamp_t ts) {
      buffer.clear();
      format->Format(WallClock(zone, ts), buffer);
      return r.AddString(buffer);
    });
  });
}

int64_t FloorSeconds(timestamp_t ts) { return ExtractField(Field::EPOCH, ts); }

BoundScalarFunction BindUnixTimestamp(const ScalarBindInput& input) {
  RequireArgs(input, {IsTemporalOrText, IsTextArg}, 0, "unix_timestamp(), unix_timestamp(TIMESTAMP), unix_timestamp(VARCHAR, format VARCHAR)");
  if (input.argument_types.empty()) {
    auto f = Bound({}, TypeId::BIGINT, [](DataChunk&, Vector& r, idx_t c, const FunctionContext& ctx) {
      for (idx_t i = 0; i < c; i++) r.GetData<int64_t>()[i] = FloorSeconds(ctx.statement_start);
      r.SetAllValid(c);
    });
    f.deterministic = false;
    return f;
  }
  auto format = ConstantFormat(input, 1);
  if (!format) {
    LogicalType type = input.argument_types[0].id() == TypeId::TIMESTAMP_NTZ ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP;
    return Bound({type}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<timestamp_t, int64_t>(a.data[0], r, c, FloorSeconds);
    });
  }
  return Bound({TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::BIGINT, [format](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    // Spark returns NULL for text that does not match the format here; the
    // text's wall clock is in the session zone.
    const TimeZone& zone = SessionTimeZone();
    UnaryExecuteNullable<string_t, int64_t>(a.data[0], r, c, [&](string_t s, int64_t& out) {
      timestamp_t ts;
      if (!format->Parse(s, ts)) return false;
      out = FloorSeconds(zone.LocalToUtc(ts));
      return true;
    });
  });
}

BoundScalarFunction BindFromUnixtime(const ScalarBindInput& input) {
  RequireArgs(input, {IsNumberArg, IsTextArg}, 1, "from_unixtime(seconds BIGINT[, format VARCHAR])");
  auto format = input.argument_types.size() == 2 ? ConstantFormat(input, 1) : std::make_shared<DateFormat>("yyyy-MM-dd HH:mm:ss");
  std::vector<LogicalType> args = {TypeId::BIGINT};
  if (input.argument_types.size() == 2) args.push_back(TypeId::VARCHAR);
  return Bound(args, TypeId::VARCHAR, [format](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    std::string buffer;
    const TimeZone& zone = SessionTimeZone();
    UnaryExecute<int64_t, string_t>(a.data[0], r, c, [&](int64_t secs) {
      int64_t micros;
      if (__builtin_mul_overflow(secs, MICROS_PER_SECOND, &micros)) throw ConversionError("from_unixtime: " + std::to_string(secs) + " seconds is out of range");
      buffer.clear();
      format->Format(zone.UtcToLocal(micros), buffer);  // the instant shown in the session zone (Spark)
      return r.AddString(buffer);
    });
  });
}

// current_timestamp() (TIMESTAMP, the instant), current_date() (DATE) and
// localtimestamp() (TIMESTAMP_NTZ): the latter two on the session zone's wall clock.
template <TypeId RET>
BoundScalarFunction BindNow(const ScalarBindInput& input) {
  CheckArgumentCount(input, 0, 0, input.name + "()");
  BoundScalarFunction f = Bound({}, RET, [](DataChunk&, Vector& r, idx_t c, const FunctionContext& ctx) {
    timestamp_t wall = SessionTimeZone().UtcToLocal(ctx.statement_start);
    for (idx_t i = 0; i < c; i++) {
      if (RET == TypeId::DATE) r.GetData<date_t>()[i] = Timestamp::GetDate(wall);
      else if (RET == TypeId::TIMESTAMP_NTZ) r.GetData<timestamp_t>()[i] = wall;
      else r.GetData<timestamp_t>()[i] = ctx.statement_start;
    }
    r.SetAllValid(c);
  });
  f.deterministic = false;
  return f;
}

}  // namespace

void RegisterDateFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("current_timestamp", BindNow<TypeId::TIMESTAMP>);
  registry.Register("now", BindNow<TypeId::TIMESTAMP>);
  registry.Register("current_date", BindNow<TypeId::DATE>);
  registry.Register("localtimestamp", BindNow<TypeId::TIMESTAMP_NTZ>);
  registry.Register("date_trunc", BindDateTrunc);
  registry.Register("trunc", BindTrunc);
  registry.Register("date_part", BindDatePart);
  registry.Register("datepart", BindDatePart);
  const std::vector<std::pair<std::string, Field>> fields = {
      {"year", Field::YEAR},       {"quarter", Field::QUARTER},   {"month", Field::MONTH},
      {"day", Field::DAY},         {"dayofmonth", Field::DAY},    {"dayofweek", Field::DOW},
      {"dayofyear", Field::DOY},   {"weekofyear", Field::WEEK},   {"hour", Field::HOUR},
      {"minute", Field::MINUTE},   {"second", Field::SECOND},
  };
  for (auto& [name, field] : fields) registry.Register(name, BindField(field, name));
  registry.Register("date_add", [](const ScalarBindInput& in) {
    BoundScalarFunction shifted;
    if (ShiftByInterval(in, '+', shifted)) return shifted;
    return DateIntFunction(in, "date_add(DATE, days INTEGER), date_add(DATE, INTERVAL)", AddDays);
  });
  registry.Register("date_sub", [](const ScalarBindInput& in) {
    BoundScalarFunction shifted;
    if (ShiftByInterval(in, '-', shifted)) return shifted;
    return DateIntFunction(in, "date_sub(DATE, days INTEGER), date_sub(DATE, INTERVAL)", SubDays);
  });
  registry.Register("add_months", [](const ScalarBindInput& in) { return DateIntFunction(in, "add_months(DATE, months INTEGER)", AddMonths); });
  registry.Register("datediff", [](const ScalarBindInput& in) {
    RequireArgs(in, {IsTemporalOrText, IsTemporalOrText}, 2, "datediff(end DATE, start DATE)");
    return Bound({TypeId::DATE, TypeId::DATE}, TypeId::INTEGER, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      BinaryExecuteFlat<date_t, date_t, int32_t>(a.data[0], a.data[1], r, c, [](date_t end, date_t start) {
        return static_cast<int32_t>(static_cast<int64_t>(end) - start);  // |difference| < 2^31 for valid dates
      });
    });
  });
  registry.Register("last_day", [](const ScalarBindInput& in) {
    RequireArgs(in, {IsTemporalOrText}, 1, "last_day(DATE)");
    return Bound({TypeId::DATE}, TypeId::DATE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<date_t, date_t>(a.data[0], r, c, [](date_t d) {
        int32_t y, m, day;
        Date::ToCivil(d, y, m, day);
        return Date::FromCivil(y, m, Date::DaysInMonth(y, m));
      });
    });
  });
  registry.Register("to_date", BindToDate<TypeId::DATE>);
  registry.Register("to_timestamp", BindToDate<TypeId::TIMESTAMP>);
  registry.Register("to_timestamp_ltz", BindToDate<TypeId::TIMESTAMP>);
  registry.Register("to_timestamp_ntz", BindToDate<TypeId::TIMESTAMP_NTZ>);
  registry.Register("date_format", BindDateFormat);
  registry.Register("unix_timestamp", BindUnixTimestamp);
  registry.Register("to_unix_timestamp", BindUnixTimestamp);
  registry.Register("from_unixtime", BindFromUnixtime);
  RegisterDateConstructFunctions(registry);
  RegisterTimeZoneFunctions(registry);
}

}  // namespace lakestream
