// Arithmetic operators: + - * / % negate, over INTEGER, BIGINT, DOUBLE and
// DECIMAL, plus DATE +/- INTEGER, DATE - DATE and TIMESTAMP - TIMESTAMP.
//
// Semantics (documented for users in the SQL reference):
//  * Mixed numeric arguments are widened with MaxLogicalType; the bind returns
//    the widened argument types so the binder inserts the casts.
//  * Integer and decimal overflow raise ConversionError
//    "Overflow in addition of INTEGER (2147483647 + 1)" (ANSI/Spark-ANSI and
//    DuckDB behaviour). So does DOUBLE + - * / when finite operands give an
//    infinite result, as in PostgreSQL and the SQL standard (DuckDB 1.x and
//    Spark return Infinity): a silent `inf` from `1e300 * 1e10` would flow
//    into gold tables and sinks unnoticed.
//    Operands that already are inf or NaN propagate as IEEE says.
//  * Division or modulo by zero gives NULL (Spark non-ANSI and DuckDB `/`).
//  * INTEGER / INTEGER is DOUBLE (Spark, DuckDB `/`); DECIMAL / DECIMAL stays
//    exact: DECIMAL with Spark's result type (see DecimalResultType).
//  * DECIMAL result types follow Spark: + - : (max(s1,s2) + max(p1-s1,p2-s2) + 1,
//    max(s1,s2)); * : (p1+p2+1, s1+s2); / : scale max(6, s1+p2+1), precision
//    p1-s1+s2+scale; % : (min(p1-s1,p2-s2) + max(s1,s2), max(s1,s2)). Above 38
//    digits the precision is capped and the scale reduced, keeping at least
//    min(scale, 6) fraction digits (Spark's allowPrecisionLoss rule).
//  * DATE - DATE and TIMESTAMP - TIMESTAMP are INTERVALs, and every form with
//    an INTERVAL operand is bound in interval.cpp.
#include <cmath>
#include <type_traits>

#include "common/cast.hpp"
#include "common/date.hpp"
#include "common/decimal.hpp"
#include "function/scalar/arithmetic.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {

LogicalType AdjustDecimalType(int precision, int scale) {
  if (precision <= Decimal::MAX_WIDTH) return LogicalType::Decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
  int int_digits = precision - scale;
  int min_scale = std::min(scale, 6);
  int adjusted = std::max(Decimal::MAX_WIDTH - int_digits, min_scale);
  return LogicalType::Decimal(Decimal::MAX_WIDTH, static_cast<uint8_t>(adjusted));
}

[[noreturn]] void ThrowOverflow(const char* operation, const char* symbol, const LogicalType& type, const std::string& a,
                                const std::string& b) {
  std::string operands = b.empty() ? a : a + " " + symbol + " " + b;  // unary: caller formats `a`
  throw ConversionError(std::string("Overflow in ") + operation + " of " + type.ToString() + " (" + operands +
                        "); cast to a wider type (BIGINT, DECIMAL(38,s) or DOUBLE) first");
}

namespace {

template <class T>
std::string NumText(T v) {
  return std::to_string(v);
}

struct AddOp {
  static constexpr const char* kName = "addition";
  static constexpr const char* kSymbol = "+";
  template <class T>
  static bool Checked(T a, T b, T& out) { return !__builtin_add_overflow(a, b, &out); }
  static double Double(double a, double b) { return a + b; }
};
struct SubOp {
  static constexpr const char* kName = "subtraction";
  static constexpr const char* kSymbol = "-";
  template <class T>
  static bool Checked(T a, T b, T& out) { return !__builtin_sub_overflow(a, b, &out); }
  static double Double(double a, double b) { return a - b; }
};
struct MulOp {
  static constexpr const char* kName = "multiplication";
  static constexpr const char* kSymbol = "*";
  template <class T>
  static bool Checked(T a, T b, T& out) { return !__builtin_mul_overflow(a, b, &out); }
  static double Double(double a, double b) { return a * b; }
};

// INTEGER/BIGINT + - * with overflow checks.
template <class T, class OP>
scalar_kernel_t IntegerKernel(const LogicalType& type) {
  return [type](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecute<T, T, T>(args.data[0], args.data[1], result, count, [&](T a, T b) {
      T out;
      if (!OP::Checked(a, b, out)) ThrowOverflow(OP::kName, OP::kSymbol, type, NumText(a), NumText(b));
      return out;
    });
  };
}

// Called only for a non-finite result, so the common path costs one test.
void CheckDoubleOverflow(const char* operation, const char* symbol, double a, double b) {
  // ThrowOverflow's advice (cast to a wider type) cannot help: DOUBLE is the widest.
  if (std::isfinite(a) && std::isfinite(b)) {
    throw ConversionError(std::string("Overflow in ") + operation + " of DOUBLE (" + DoubleToString(a) + " " + symbol +
                          " " + DoubleToString(b) + "): the result is beyond DOUBLE's range (about 1.8e308); scale "
                          "the operands down first");
  }
}

template <class OP>
scalar_kernel_t DoubleKernel() {
  return [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecuteFlat<double, double, double>(args.data[0], args.data[1], result, count, [](double a, double b) {
      double out = OP::Double(a, b);
      if (!std::isfinite(out)) CheckDoubleOverflow(OP::kName, OP::kSymbol, a, b);
      return out;
    });
  };
}

// DECIMAL kernels. Values are int128, but a DECIMAL(w,s) vector holds only
// |v| < 10^w (every cast and kernel checks it), so the kernels pick per bind,
// from the operand and result types, the cheapest loop that cannot overflow:
//  * int64: every operand (rescaled) has at most 18 digits; the result type
//    holds every outcome, so there is no check per row (TPC-H's prices and
//    quantities, DECIMAL(15,2), take this path);
//  * int128 without checks: the operands have at most 37 digits together and
//    the result type holds every outcome;
//  * checked: the result type was capped at 38 digits, so a row may overflow
//    it; each row is checked against the result width (10^w precomputed) and
//    multiplied in 64x64->128 bits when both operands fit in int64.
// The unchecked loops compute in unsigned arithmetic and also run on NULL
// rows (stale slots), whose results the validity discards.
using uint128_t = unsigned __int128;

// Digits of DECIMAL(w,s) values once rescaled to `to_scale`.
int RescaledDigits(const LogicalType& t, int to_scale) { return t.width() + to_scale - t.scale(); }

bool FitsInt64(hugeint_t v) { return v == static_cast<hugeint_t>(static_cast<int64_t>(v)); }

template <class OP>
scalar_kernel_t DecimalAddSubKernel(const LogicalType& left, const LogicalType& right, LogicalType ret) {
  hugeint_t lf = Decimal::PowerOfTen(ret.scale() - left.scale());
  hugeint_t rf = Decimal::PowerOfTen(ret.scale() - right.scale());
  const int digits = std::max(RescaledDigits(left, ret.scale()), RescaledDigits(right, ret.scale()));
  // |x +- y| < 2 * 10^digits <= 10^(digits + 1): the result type holds every outcome.
  const bool unchecked = ret.width() > digits;
  constexpr bool kAdd = std::is_same_v<OP, AddOp>;
  if (unchecked && digits <= 18) {
    auto lf64 = static_cast<uint64_t>(lf), rf64 = static_cast<uint64_t>(rf);
    return [=](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      BinaryExecuteFlat<hugeint_t, hugeint_t, hugeint_t>(args.data[0], args.data[1], result, count, [&](hugeint_t a, hugeint_t b) {
        uint64_t x = static_cast<uint64_t>(a) * lf64, y = static_cast<uint64_t>(b) * rf64;
        return static_cast<hugeint_t>(static_cast<int64_t>(kAdd ? x + y : x - y));
      });
    };
  }
  if (unchecked && digits <= 37) {
    auto ulf = static_cast<uint128_t>(lf), urf = static_cast<uint128_t>(rf);
    return [=](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      BinaryExecuteFlat<hugeint_t, hugeint_t, hugeint_t>(args.data[0], args.data[1], result, count, [&](hugeint_t a, hugeint_t b) {
        uint128_t x = static_cast<uint128_t>(a) * ulf, y = static_cast<uint128_t>(b) * urf;
        return static_cast<hugeint_t>(kAdd ? x + y : x - y);
      });
    };
  }
  hugeint_t limit = Decimal::PowerOfTen(ret.width());
  return [=](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecute<hugeint_t, hugeint_t, hugeint_t>(args.data[0], args.data[1], result, count, [&](hugeint_t a, hugeint_t b) {
      hugeint_t x, y, out;
      if (__builtin_mul_overflow(a, lf, &x) || __builtin_mul_overflow(b, rf, &y) || !OP::Checked(x, y, out) ||
          out >= limit || out <= -limit) {
        ThrowOverflow(OP::kName, OP::kSymbol, ret, Decimal::ToString(a, left.scale()), Decimal::ToString(b, right.scale()));
      }
      return out;
    });
  };
}

scalar_kernel_t DecimalMulKernel(LogicalType left, LogicalType right, LogicalType ret) {
  uint8_t product_scale = left.scale() + right.scale();
  // |a * b| < 10^(wl + wr): unchecked when the result type (not capped) holds that.
  const bool unchecked = product_scale == ret.scale() && left.width() + right.width() <= ret.width();
  if (unchecked && left.width() <= 18 && right.width() <= 18) {
    return [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      BinaryExecuteFlat<hugeint_t, hugeint_t, hugeint_t>(args.data[0], args.data[1], result, count, [](hugeint_t a, hugeint_t b) {
        // 64 x 64 -> 128 bits: one multiply, and never past 2^126.
        return static_cast<hugeint_t>(static_cast<int64_t>(a)) * static_cast<int64_t>(b);
      });
    };
  }
  if (unchecked) {
    return [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      BinaryExecuteFlat<hugeint_t, hugeint_t, hugeint_t>(args.data[0], args.data[1], result, count, [](hugeint_t a, hugeint_t b) {
        return static_cast<hugeint_t>(static_cast<uint128_t>(a) * static_cast<uint128_t>(b));
      });
    };
  }
  hugeint_t limit = Decimal::PowerOfTen(ret.width());
  return [=](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecute<hugeint_t, hugeint_t, hugeint_t>(args.data[0], args.data[1], result, count, [&](hugeint_t a, hugeint_t b) {
      hugeint_t out;
      bool ok = true;
      if (FitsInt64(a) && FitsInt64(b)) {
        out = static_cast<hugeint_t>(static_cast<int64_t>(a)) * static_cast<int64_t>(b);
      } else {
        ok = !__builtin_mul_overflow(a, b, &out);
      }
      if (ok && product_scale > ret.scale()) out = Decimal::Rescale(out, product_scale, ret.scale());
      if (!ok || out >= limit || out <= -limit) {
        ThrowOverflow("multiplication", "*", ret, Decimal::ToString(a, left.scale()), Decimal::ToString(b, right.scale()));
      }
      return out;
    });
  };
}


// |a| * 10^e / |b| rounded half away from zero, by schoolbook long division so
// no intermediate exceeds 128 bits. False when the quotient passes 38 digits.
bool DivideScaled(hugeint_t a, hugeint_t b, int e, hugeint_t& out) {
  bool negative = (a < 0) != (b < 0);
  uint128_t ua = a < 0 ? static_cast<uint128_t>(-a) : static_cast<uint128_t>(a);
  uint128_t ub = b < 0 ? static_cast<uint128_t>(-b) : static_cast<uint128_t>(b);
  const uint128_t limit = static_cast<uint128_t>(Decimal::PowerOfTen(38));
  uint128_t q = ua / ub, r = ua % ub;
  // r * 10 fits in 128 bits while r < 2^128 / 10; beyond that, add r ten times.
  const bool small_divisor = ub < static_cast<uint128_t>(Decimal::PowerOfTen(37));
  for (int k = 0; k < e; k++) {
    uint128_t digit;
    if (small_divisor) {
      uint128_t r10 = r * 10;
      digit = r10 / ub;
      r = r10 % ub;
    } else {
      uint128_t acc = 0;
      digit = 0;
      for (int t = 0; t < 10; t++) {
        acc += r;
        if (acc >= ub) {
          acc -= ub;
          digit++;
        }
      }
      r = acc;
    }
    q = q * 10 + digit;
    if (q >= limit) return false;
  }
  if (r >= ub - r) q++;  // 2r >= b without overflow
  if (q >= limit) return false;
  out = negative ? -static_cast<hugeint_t>(q) : static_cast<hugeint_t>(q);
  return true;
}

scalar_kernel_t DecimalDivKernel(LogicalType left, LogicalType right, LogicalType ret) {
  int e = ret.scale() + right.scale() - left.scale();  // >= 0 by construction of the result type
  return [=](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecuteNullable<hugeint_t, hugeint_t, hugeint_t>(
        args.data[0], args.data[1], result, count, [&](hugeint_t a, hugeint_t b, hugeint_t& out) {
          if (b == 0) return false;
          if (!DivideScaled(a, b, e, out) || !Decimal::FitsWidth(out, ret.width())) {
            ThrowOverflow("division", "/", ret, Decimal::ToString(a, left.scale()), Decimal::ToString(b, right.scale()));
          }
          return true;
        });
  };
}

scalar_kernel_t DecimalModKernel(LogicalType left, LogicalType right, LogicalType ret) {
  hugeint_t lf = Decimal::PowerOfTen(ret.scale() - left.scale());
  hugeint_t rf = Decimal::PowerOfTen(ret.scale() - right.scale());
  return [=](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecuteNullable<hugeint_t, hugeint_t, hugeint_t>(
        args.data[0], args.data[1], result, count, [&](hugeint_t a, hugeint_t b, hugeint_t& out) {
          if (b == 0) return false;
          hugeint_t x, y;
          if (__builtin_mul_overflow(a, lf, &x) || __builtin_mul_overflow(b, rf, &y)) {
            ThrowOverflow("modulo", "%", ret, Decimal::ToString(a, left.scale()), Decimal::ToString(b, right.scale()));
          }
          out = x % y;
          return true;
        });
  };
}

template <class T>
scalar_kernel_t IntegerModKernel() {
  return [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    BinaryExecuteNullable<T, T, T>(args.data[0], args.data[1], result, count, [](T a, T b, T& out) {
      if (b == 0) return false;
      out = b == -1 ? 0 : a % b;  // MIN % -1 is UB in C++ but 0 in SQL
      return true;
    });
  };
}

const char* kNumericSignatures = "(INTEGER, INTEGER), (BIGINT, BIGINT), (DOUBLE, DOUBLE), (DECIMAL, DECIMAL)";

// The numeric type both arguments are widened to; throws for non-numeric input.
LogicalType NumericCommonType(const ScalarBindInput& input) {
  LogicalType common = TypeId::SQLNULL;
  for (auto& t : input.argument_types) {
    if (!t.IsNumeric() && t.id() != TypeId::SQLNULL) {
      ThrowArgumentError(input, std::string("\"") + input.name + "\" on " + kNumericSignatures);
    }
    common = MaxLogicalType(common, t);
  }
  return common.id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : common;
}

// The decimal type of one argument of a decimal operation (integers become
// the decimal that holds them exactly, untyped NULL takes the other side's).
LogicalType DecimalArgument(const LogicalType& t, const LogicalType& other) {
  if (t.id() == TypeId::DECIMAL) return t;
  if (t.id() == TypeId::SQLNULL) return other.id() == TypeId::DECIMAL ? other : DecimalForIntegral(other);
  return DecimalForIntegral(t);
}

// DATE +/- INTEGER. Returns false when
// neither argument is temporal (the numeric rules apply then).
bool BindTemporal(const ScalarBindInput& input, bool subtract, BoundScalarFunction& out) {
  auto& t = input.argument_types;
  if (t.size() != 2) return false;
  TypeId a = t[0].id(), b = t[1].id();
  bool a_time = a == TypeId::DATE || a == TypeId::TIMESTAMP || a == TypeId::TIMESTAMP_NTZ;
  bool b_time = b == TypeId::DATE || b == TypeId::TIMESTAMP || b == TypeId::TIMESTAMP_NTZ;
  if (!a_time && !b_time) return false;
  auto date_plus = [](bool negate) -> scalar_kernel_t {
    return [negate](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      BinaryExecute<date_t, int32_t, date_t>(args.data[0], args.data[1], result, count, [&](date_t d, int32_t n) {
        int64_t r = static_cast<int64_t>(d) + (negate ? -static_cast<int64_t>(n) : n);
        if (r > INT32_MAX || r < INT32_MIN) ThrowOverflow("date arithmetic", negate ? "-" : "+", TypeId::DATE, Date::ToString(d), std::to_string(n));
        return static_cast<date_t>(r);
      });
    };
  };
  if (a == TypeId::DATE && t[1].IsIntegral()) {
    out = Bound({TypeId::DATE, TypeId::INTEGER}, TypeId::DATE, date_plus(subtract));
    return true;
  }
  if (!subtract && t[0].IsIntegral() && b == TypeId::DATE) {
    out = Bound({TypeId::DATE, TypeId::INTEGER}, TypeId::DATE, date_plus(false));
    // INTEGER + DATE: swap so the kernel sees (date, days).
    auto inner = out.kernel;
    out.argument_types = {TypeId::INTEGER, TypeId::DATE};
    out.kernel = [inner](DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx) {
      std::swap(args.data[0], args.data[1]);
      inner(args, result, count, ctx);
      std::swap(args.data[0], args.data[1]);
    };
    return true;
  }
  ThrowArgumentError(input, subtract ? "DATE - INTEGER, DATE - DATE, TIMESTAMP - TIMESTAMP, DATE - INTERVAL, TIMESTAMP - INTERVAL, numeric - numeric"
                                     : "DATE + INTEGER, INTEGER + DATE, DATE + INTERVAL, TIMESTAMP + INTERVAL, numeric + numeric");
}

enum class ArithOp { ADD, SUB, MUL, DIV, MOD };

BoundScalarFunction BindArithmetic(const ScalarBindInput& input, ArithOp op) {
  auto& types = input.argument_types;
  if (types.size() != 2) ThrowArgumentError(input, std::string("\"") + input.name + "\" on " + kNumericSignatures);
  BoundScalarFunction temporal;
  static constexpr char kSymbols[] = {'+', '-', '*', '/', '%'};
  if (BindIntervalArithmetic(input, kSymbols[static_cast<int>(op)], temporal)) return temporal;
  if ((op == ArithOp::ADD || op == ArithOp::SUB) && BindTemporal(input, op == ArithOp::SUB, temporal)) return temporal;
  LogicalType common = NumericCommonType(input);
  switch (common.id()) {
    case TypeId::INTEGER:
    case TypeId::BIGINT: {
      bool big = common.id() == TypeId::BIGINT;
      switch (op) {
        case ArithOp::ADD: return Bound({common, common}, common, big ? IntegerKernel<int64_t, AddOp>(common) : IntegerKernel<int32_t, AddOp>(common));
        case ArithOp::SUB: return Bound({common, common}, common, big ? IntegerKernel<int64_t, SubOp>(common) : IntegerKernel<int32_t, SubOp>(common));
        case ArithOp::MUL: return Bound({common, common}, common, big ? IntegerKernel<int64_t, MulOp>(common) : IntegerKernel<int32_t, MulOp>(common));
        case ArithOp::MOD: return Bound({common, common}, common, big ? IntegerModKernel<int64_t>() : IntegerModKernel<int32_t>());
        case ArithOp::DIV: break;  // DOUBLE below
      }
      common = TypeId::DOUBLE;
      break;
    }
    case TypeId::DECIMAL: {
      LogicalType l = DecimalArgument(types[0], types[1]);
      LogicalType r = DecimalArgument(types[1], types[0]);
      int p1 = l.width(), s1 = l.scale(), p2 = r.width(), s2 = r.scale();
      int s = std::max(s1, s2);
      switch (op) {
        case ArithOp::ADD:
        case ArithOp::SUB: {
          LogicalType ret = AdjustDecimalType(s + std::max(p1 - s1, p2 - s2) + 1, s);
          if (ret.scale() < s) {
            // Precision was capped: compute at the reduced scale (args cast down).
            l = LogicalType::Decimal(std::min(38, p1 - s1 + ret.scale()), std::min<int>(s1, ret.scale()));
            r = LogicalType::Decimal(std::min(38, p2 - s2 + ret.scale()), std::min<int>(s2, ret.scale()));
          }
          return Bound({l, r}, ret, op == ArithOp::ADD ? DecimalAddSubKernel<AddOp>(l, r, ret) : DecimalAddSubKernel<SubOp>(l, r, ret));
        }
        case ArithOp::MUL: {
          LogicalType ret = AdjustDecimalType(p1 + p2 + 1, s1 + s2);
          return Bound({l, r}, ret, DecimalMulKernel(l, r, ret));
        }
        case ArithOp::DIV: {
          int scale = std::max(6, s1 + p2 + 1);
          LogicalType ret = AdjustDecimalType(p1 - s1 + s2 + scale, scale);
          return Bound({l, r}, ret, DecimalDivKernel(l, r, ret));
        }
        case ArithOp::MOD: {
          LogicalType ret = AdjustDecimalType(std::min(p1 - s1, p2 - s2) + s, s);
          return Bound({l, r}, ret, DecimalModKernel(l, r, ret));
        }
      }
      break;
    }
    default: break;
  }
  // DOUBLE
  LogicalType d = TypeId::DOUBLE;
  switch (op) {
    case ArithOp::ADD: return Bound({d, d}, d, DoubleKernel<AddOp>());
    case ArithOp::SUB: return Bound({d, d}, d, DoubleKernel<SubOp>());
    case ArithOp::MUL: return Bound({d, d}, d, DoubleKernel<MulOp>());
    case ArithOp::DIV:
      return Bound({d, d}, d, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        BinaryExecuteNullable<double, double, double>(args.data[0], args.data[1], result, count,
                                                      [](double a, double b, double& out) {
                                                        if (b == 0) return false;
                                                        out = a / b;
                                                        if (!std::isfinite(out)) CheckDoubleOverflow("division", "/", a, b);
                                                        return true;
                                                      });
      });
    case ArithOp::MOD:
      return Bound({d, d}, d, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        BinaryExecuteNullable<double, double, double>(args.data[0], args.data[1], result, count,
                                                      [](double a, double b, double& out) {
                                                        if (b == 0) return false;
                                                        out = std::fmod(a, b);
                                                        return true;
                                                      });
      });
  }
  throw InternalError("unhandled arithmetic operator");
}

template <class T>
scalar_kernel_t NegateIntegerKernel(LogicalType type) {
  return [type](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    UnaryExecute<T, T>(args.data[0], result, count, [&](T v) {
      T out;
      if (__builtin_sub_overflow(T(0), v, &out)) ThrowOverflow("negation", "-", type, "-(" + NumText(v) + ")", "");
      return out;
    });
  };
}

BoundScalarFunction BindNegate(const ScalarBindInput& input) {
  if (input.argument_types.size() != 1) ThrowArgumentError(input, "negate(INTEGER), negate(BIGINT), negate(DOUBLE), negate(DECIMAL), negate(INTERVAL)");
  BoundScalarFunction interval;
  if (BindIntervalArithmetic(input, 'n', interval)) return interval;
  LogicalType t = NumericCommonType(input);
  switch (t.id()) {
    case TypeId::INTEGER: return Bound({t}, t, NegateIntegerKernel<int32_t>(t));
    case TypeId::BIGINT: return Bound({t}, t, NegateIntegerKernel<int64_t>(t));
    case TypeId::DECIMAL:
      return Bound({t}, t, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        UnaryExecute<hugeint_t, hugeint_t>(args.data[0], result, count, [](hugeint_t v) { return -v; });
      });
    default:
      return Bound({TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        UnaryExecute<double, double>(args.data[0], result, count, [](double v) { return -v; });
      });
  }
}

}  // namespace

void RegisterArithmeticFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("+", [](const ScalarBindInput& in) {
    // Unary plus is the identity on numbers.
    if (in.argument_types.size() == 1) {
      LogicalType t = NumericCommonType(in);
      return Bound({t}, t, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        result.Copy(args.data[0], nullptr, count, 0, 0);
      });
    }
    return BindArithmetic(in, ArithOp::ADD);
  });
  registry.Register("-", [](const ScalarBindInput& in) {
    return in.argument_types.size() == 1 ? BindNegate(in) : BindArithmetic(in, ArithOp::SUB);
  });
  registry.Register("*", [](const ScalarBindInput& in) { return BindArithmetic(in, ArithOp::MUL); });
  registry.Register("/", [](const ScalarBindInput& in) { return BindArithmetic(in, ArithOp::DIV); });
  registry.Register("%", [](const ScalarBindInput& in) { return BindArithmetic(in, ArithOp::MOD); });
  registry.Register("mod", [](const ScalarBindInput& in) { return BindArithmetic(in, ArithOp::MOD); });
  registry.Register("negate", BindNegate);
  RegisterMathFunctions(registry);
}

}  // namespace lakestream
