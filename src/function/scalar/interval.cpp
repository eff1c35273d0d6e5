// INTERVAL arithmetic (the operators + - * and unary minus) and the calendar
// differences that produce an interval.
//
//   DATE +/- INTERVAL      DATE when the interval is a constant without a time
//                          part (Spark: year-month and day intervals keep the
//                          date); otherwise TIMESTAMP (the date at midnight
//                          moved by the interval; DuckDB always gives TIMESTAMP).
//   TIMESTAMP +/- INTERVAL TIMESTAMP; months first, clamped to the month's
//                          last day, then days, then microseconds. Months
//                          and days move the wall clock in the session time
//                          zone (a day across a DST change is 23 or 25
//                          hours, Spark); microseconds move the instant.
//   TIMESTAMP_NTZ +/- INTERVAL  TIMESTAMP_NTZ, on the wall clock, no zone.
//   INTERVAL +/- INTERVAL, INTERVAL * integer, integer * INTERVAL, -INTERVAL:
//                          component-wise.
//   DATE - DATE            INTERVAL of days (Spark; DuckDB gives BIGINT days).
//   TIMESTAMP - TIMESTAMP  INTERVAL of days and time (Spark and DuckDB); the
//                          same for two TIMESTAMP_NTZ (a mix compares as
//                          TIMESTAMP).
// Results outside the DATE/TIMESTAMP/INTERVAL range raise ConversionError
// naming the operands.
#include "common/date.hpp"
#include "common/interval.hpp"
#include "function/scalar/arithmetic.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

bool IsTime(TypeId t) { return t == TypeId::DATE || t == TypeId::TIMESTAMP || t == TypeId::TIMESTAMP_NTZ; }

[[noreturn]] void OutOfRange(const std::string& left, const char* symbol, const std::string& right) {
  throw ConversionError("Result of " + left + " " + symbol + " " + right +
                        " is out of range for the result type; use a smaller interval");
}

std::string Lit(const interval_t& v) { return "INTERVAL '" + Interval::ToString(v) + "'"; }

interval_t Negated(const interval_t& v) {
  interval_t n;
  if (!Interval::TryNegate(v, n)) throw ConversionError("Overflow in negation of " + Lit(v));
  return n;
}

// Kernel for (temporal, INTERVAL) in the order of the arguments: `swap` when
// the interval comes first (INTERVAL + DATE).
template <class T>
scalar_kernel_t TemporalKernel(bool subtract, bool swap, T (*apply)(T, const interval_t&, const char*)) {
  return [subtract, swap, apply](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    const Vector& when = args.data[swap ? 1 : 0];
    const Vector& span = args.data[swap ? 0 : 1];
    const char* symbol = subtract ? "-" : "+";
    BinaryExecute<T, interval_t, T>(when, span, result, count, [&](T t, interval_t v) {
      return apply(t, subtract ? Negated(v) : v, symbol);
    });
  };
}

date_t ApplyToDate(date_t d, const interval_t& v, const char* symbol) {
  date_t r;
  if (!Interval::TryAddToDate(d, v, r)) OutOfRange(Date::ToString(d), symbol, Lit(v));
  return r;
}

timestamp_t ApplyToTimestamp(timestamp_t ts, const interval_t& v, const char* symbol) {
  timestamp_t r;
  if (!Interval::TryAddToTimestamp(ts, v, r)) OutOfRange(Timestamp::ToString(ts), symbol, Lit(v));
  return r;
}

// An instant moved by an interval: the calendar parts on the session zone's
// wall clock, the microseconds on the instant (Spark's timestampAddInterval).
timestamp_t ApplyToInstant(timestamp_t ts, const interval_t& v, const char* symbol) {
  const TimeZone& zone = SessionTimeZone();
  if (zone.IsUtc() || (v.months == 0 && v.days == 0)) return ApplyToTimestamp(ts, v, symbol);
  timestamp_t wall;
  if (!Interval::TryAddToTimestamp(zone.UtcToLocal(ts), interval_t{v.months, v.days, 0}, wall)) {
    OutOfRange(Timestamp::ToStringInZone(ts, zone), symbol, Lit(v));
  }
  return ApplyToTimestamp(zone.LocalToUtc(wall), interval_t{0, 0, v.micros}, symbol);
}

// DATE/TIMESTAMP +/- INTERVAL with the temporal argument at `time_arg`.
BoundScalarFunction BindShift(const ScalarBindInput& input, bool subtract, idx_t time_arg) {
  idx_t span_arg = 1 - time_arg;
  bool swap = time_arg == 1;
  const Value* constant = input.constant_arguments[span_arg];
  bool keeps_date = input.argument_types[time_arg].id() == TypeId::DATE && constant && !constant->IsNull() &&
                    constant->type().id() == TypeId::INTERVAL && constant->GetInterval().micros == 0;
  bool ntz = input.argument_types[time_arg].id() == TypeId::TIMESTAMP_NTZ;
  LogicalType time_type = keeps_date ? TypeId::DATE : ntz ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP;
  std::vector<LogicalType> args(2, TypeId::INTERVAL);
  args[time_arg] = time_type;
  if (keeps_date) return Bound(args, time_type, TemporalKernel<date_t>(subtract, swap, ApplyToDate));
  if (ntz) return Bound(args, time_type, TemporalKernel<timestamp_t>(subtract, swap, ApplyToTimestamp));
  return Bound(args, time_type, TemporalKernel<timestamp_t>(subtract, swap, ApplyToInstant));
}

BoundScalarFunction BindIntervalPair(bool subtract) {
  return Bound({TypeId::INTERVAL, TypeId::INTERVAL}, TypeId::INTERVAL,
               [subtract](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                 BinaryExecute<interval_t, interval_t, interval_t>(args.data[0], args.data[1], result, count,
                                                                   [&](interval_t a, interval_t b) {
                                                                     interval_t r;
                                                                     bool ok = subtract ? Interval::TryAdd(a, Negated(b), r) : Interval::TryAdd(a, b, r);
                                                                     if (!ok) OutOfRange(Lit(a), subtract ? "-" : "+", Lit(b));
                                                                     return r;
                                                                   });
               });
}

BoundScalarFunction BindScale(idx_t span_arg) {
  std::vector<LogicalType> args(2, TypeId::BIGINT);
  args[span_arg] = TypeId::INTERVAL;
  return Bound(args, TypeId::INTERVAL, [span_arg](DataChunk& a, Vector& result, idx_t count, const FunctionContext&) {
    auto scale = [](interval_t v, int64_t n) {
      interval_t r;
      if (!Interval::TryMultiply(v, n, r)) OutOfRange(Lit(v), "*", std::to_string(n));
      return r;
    };
    if (span_arg == 0) {
      BinaryExecute<interval_t, int64_t, interval_t>(a.data[0], a.data[1], result, count, scale);
    } else {
      BinaryExecute<int64_t, interval_t, interval_t>(a.data[0], a.data[1], result, count,
                                                     [&](int64_t n, interval_t v) { return scale(v, n); });
    }
  });
}

BoundScalarFunction BindDifference(TypeId a, TypeId b) {
  if (a == TypeId::DATE && b == TypeId::DATE) {
    return Bound({TypeId::DATE, TypeId::DATE}, TypeId::INTERVAL, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      BinaryExecute<date_t, date_t, interval_t>(args.data[0], args.data[1], result, count, [](date_t x, date_t y) {
        return Interval::Between(Timestamp::FromDate(x), Timestamp::FromDate(y));
      });
    });
  }
  LogicalType type = a == TypeId::TIMESTAMP_NTZ && b == TypeId::TIMESTAMP_NTZ ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP;
  return Bound({type, type}, TypeId::INTERVAL,
               [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                 BinaryExecute<timestamp_t, timestamp_t, interval_t>(args.data[0], args.data[1], result, count,
                                                                     [](timestamp_t x, timestamp_t y) { return Interval::Between(x, y); });
               });
}

bool IsIntervalLike(TypeId t) { return t == TypeId::INTERVAL || t == TypeId::SQLNULL; }

}  // namespace

bool BindIntervalArithmetic(const ScalarBindInput& input, char op, BoundScalarFunction& out) {
  auto& t = input.argument_types;
  if (op == 'n') {
    if (t.size() != 1 || t[0].id() != TypeId::INTERVAL) return false;
    out = Bound({TypeId::INTERVAL}, TypeId::INTERVAL, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      UnaryExecute<interval_t, interval_t>(args.data[0], result, count, Negated);
    });
    return true;
  }
  if (t.size() != 2) return false;
  TypeId a = t[0].id(), b = t[1].id();
  bool any_interval = a == TypeId::INTERVAL || b == TypeId::INTERVAL;
  if (op == '-' && IsTime(a) && IsTime(b)) {
    out = BindDifference(a, b);
    return true;
  }
  if (!any_interval) return false;
  switch (op) {
    case '+':
    case '-':
      if (IsTime(a) && IsIntervalLike(b)) {
        out = BindShift(input, op == '-', 0);
        return true;
      }
      if (op == '+' && IsIntervalLike(a) && IsTime(b)) {
        out = BindShift(input, false, 1);
        return true;
      }
      if (IsIntervalLike(a) && IsIntervalLike(b)) {
        out = BindIntervalPair(op == '-');
        return true;
      }
      break;
    case '*':
      if (a == TypeId::INTERVAL && (t[1].IsIntegral() || b == TypeId::SQLNULL)) {
        out = BindScale(0);
        return true;
      }
      if (b == TypeId::INTERVAL && (t[0].IsIntegral() || a == TypeId::SQLNULL)) {
        out = BindScale(1);
        return true;
      }
      break;
    default: break;
  }
  const char* accepted = op != '+' && op != '-' ? "INTERVAL * INTEGER, INTEGER * INTERVAL"
                                   : "DATE + INTERVAL, TIMESTAMP + INTERVAL, INTERVAL + DATE, INTERVAL + TIMESTAMP, "
                                     "DATE - INTERVAL, TIMESTAMP - INTERVAL, INTERVAL + INTERVAL, INTERVAL - INTERVAL";
  ThrowArgumentError(input, accepted);
}

}  // namespace lakestream
