// Numeric functions: abs, sign, round, floor, ceil/ceiling, sqrt, power/pow,
// ln, log, log10, log2, exp, pi.
//
// Semantics: abs/round/floor/ceil keep the argument type (INTEGER, BIGINT,
// DOUBLE) except DECIMAL(p,s), where round(x, n) gives DECIMAL(p-s+n+1, n) for
// 0 <= n < s (one more integer digit for the carry, Spark's rule) and floor/ceil
// give DECIMAL(p-s+1, 0). round uses half away from zero (Spark HALF_UP); the
// digit count n must be a constant because it decides the result type.
// floor/ceil of DOUBLE stay DOUBLE (DuckDB; Spark returns BIGINT, which can
// overflow). The transcendental functions take DOUBLE and return NULL outside
// their domain (sqrt of a negative, ln of <= 0) instead of NaN or an error,
// matching Spark's NULL for log and keeping one rule for all of them.
#include <cmath>

#include "common/decimal.hpp"
#include "function/scalar/arithmetic.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

// The single numeric argument type (untyped NULL -> DOUBLE); BinderError otherwise.
LogicalType NumericArgument(const ScalarBindInput& input, idx_t max_args, const std::string& accepted) {
  CheckArgumentCount(input, 1, max_args, accepted);
  LogicalType t = input.argument_types[0];
  if (t.id() == TypeId::SQLNULL) return TypeId::DOUBLE;
  if (!t.IsNumeric()) ThrowArgumentError(input, accepted);
  return t;
}

template <class T>
scalar_kernel_t AbsIntegerKernel(LogicalType type) {
  return [type](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    UnaryExecute<T, T>(args.data[0], result, count, [&](T v) {
      if (v == std::numeric_limits<T>::min()) ThrowOverflow("abs", "abs", type, "abs(" + std::to_string(v) + ")", "");
      return v < 0 ? -v : v;
    });
  };
}

BoundScalarFunction BindAbs(const ScalarBindInput& input) {
  LogicalType t = NumericArgument(input, 1, "abs(INTEGER), abs(BIGINT), abs(DOUBLE), abs(DECIMAL)");
  switch (t.id()) {
    case TypeId::INTEGER: return Bound({t}, t, AbsIntegerKernel<int32_t>(t));
    case TypeId::BIGINT: return Bound({t}, t, AbsIntegerKernel<int64_t>(t));
    case TypeId::DECIMAL:
      return Bound({t}, t, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        UnaryExecute<hugeint_t, hugeint_t>(args.data[0], result, count, [](hugeint_t v) { return v < 0 ? -v : v; });
      });
    default:
      return Bound({t}, t, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        UnaryExecute<double, double>(args.data[0], result, count, [](double v) { return std::fabs(v); });
      });
  }
}

template <class T>
int32_t SignOf(T v) {
  return v > 0 ? 1 : (v < 0 ? -1 : 0);
}

BoundScalarFunction BindSign(const ScalarBindInput& input) {
  LogicalType t = NumericArgument(input, 1, "sign(INTEGER), sign(BIGINT), sign(DOUBLE), sign(DECIMAL)");
  scalar_kernel_t k;
  switch (t.id()) {
    case TypeId::INTEGER:
      k = [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) { UnaryExecute<int32_t, int32_t>(a.data[0], r, n, SignOf<int32_t>); };
      break;
    case TypeId::BIGINT:
      k = [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) { UnaryExecute<int64_t, int32_t>(a.data[0], r, n, SignOf<int64_t>); };
      break;
    case TypeId::DECIMAL:
      k = [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) { UnaryExecute<hugeint_t, int32_t>(a.data[0], r, n, SignOf<hugeint_t>); };
      break;
    default:
      k = [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) { UnaryExecute<double, int32_t>(a.data[0], r, n, SignOf<double>); };
  }
  return Bound({t}, TypeId::INTEGER, std::move(k));
}

// Rounds v (scale 0) to a multiple of 10^digits, half away from zero.
hugeint_t RoundToPowerOfTen(hugeint_t v, int digits) { return Decimal::Rescale(v, digits, 0) * Decimal::PowerOfTen(digits); }

BoundScalarFunction BindRound(const ScalarBindInput& input) {
  const char* accepted = "round(INTEGER[, INTEGER]), round(BIGINT[, INTEGER]), round(DOUBLE[, INTEGER]), round(DECIMAL[, INTEGER])";
  LogicalType t = NumericArgument(input, 2, accepted);
  int n = 0;
  if (input.argument_types.size() == 2) {
    const Value* c = input.constant_arguments[1];
    if (!input.argument_types[1].IsIntegral() || !c || c->IsNull()) {
      throw BinderError("round(x, n): the number of digits n must be a constant integer, got " +
                        input.argument_types[1].ToString() + (c ? " NULL" : " expression") +
                        "; write e.g. round(x, 2)");
    }
    n = static_cast<int>(std::clamp<int64_t>(c->AsBigint(), -38, 38));
  }
  std::vector<LogicalType> args = {t};
  if (input.argument_types.size() == 2) args.push_back(TypeId::INTEGER);
  switch (t.id()) {
    case TypeId::INTEGER:
    case TypeId::BIGINT: {
      if (n >= 0) return Bound(args, t, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { r.Copy(a.data[0], nullptr, c, 0, 0); });
      int digits = -n;
      return Bound(args, t, [t, digits](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
        for (idx_t i = 0; i < c; i++) {
          r.SetValid(i, a.data[0].IsValid(i));
          if (!a.data[0].IsValid(i)) continue;
          hugeint_t v = t.id() == TypeId::INTEGER ? a.data[0].GetData<int32_t>()[i] : a.data[0].GetData<int64_t>()[i];
          hugeint_t out = RoundToPowerOfTen(v, digits);
          bool fits = t.id() == TypeId::INTEGER ? (out >= INT32_MIN && out <= INT32_MAX) : (out >= INT64_MIN && out <= INT64_MAX);
          if (!fits) ThrowOverflow("round", "round", t, "round(" + Decimal::HugeintToString(v) + ", " + std::to_string(-digits) + ")", "");
          if (t.id() == TypeId::INTEGER) r.GetData<int32_t>()[i] = static_cast<int32_t>(out);
          else r.GetData<int64_t>()[i] = static_cast<int64_t>(out);
        }
      });
    }
    case TypeId::DECIMAL: {
      int s = t.scale();
      if (n >= s) return Bound(args, t, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { r.Copy(a.data[0], nullptr, c, 0, 0); });
      int new_scale = std::max(n, 0);
      LogicalType ret = LogicalType::Decimal(static_cast<uint8_t>(std::min(38, t.width() - s + new_scale + 1)), static_cast<uint8_t>(new_scale));
      int extra = n < 0 ? -n : 0;
      return Bound(args, ret, [s, new_scale, extra](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
        UnaryExecute<hugeint_t, hugeint_t>(a.data[0], r, c, [&](hugeint_t v) {
          hugeint_t out = Decimal::Rescale(v, static_cast<uint8_t>(s), static_cast<uint8_t>(new_scale));
          return extra ? RoundToPowerOfTen(out, extra) : out;
        });
      });
    }
    default:
      return Bound(args, TypeId::DOUBLE, [n](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
        double factor = std::pow(10.0, n);
        UnaryExecute<double, double>(a.data[0], r, c, [&](double v) {
          if (!std::isfinite(v)) return v;
          double scaled = v * factor;
          if (!std::isfinite(scaled)) return v;  // so many digits that v is already exact
          return std::round(scaled) / factor;
        });
      });
  }
}

template <bool CEIL>
BoundScalarFunction BindFloorCeil(const ScalarBindInput& input) {
  LogicalType t = NumericArgument(input, 1, CEIL ? "ceil(INTEGER), ceil(BIGINT), ceil(DOUBLE), ceil(DECIMAL)"
                                                 : "floor(INTEGER), floor(BIGINT), floor(DOUBLE), floor(DECIMAL)");
  if (t.IsIntegral()) return Bound({t}, t, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { r.Copy(a.data[0], nullptr, c, 0, 0); });
  if (t.id() == TypeId::DECIMAL) {
    LogicalType ret = LogicalType::Decimal(static_cast<uint8_t>(std::min(38, t.width() - t.scale() + 1)), 0);
    hugeint_t factor = Decimal::PowerOfTen(t.scale());
    return Bound({t}, ret, [factor](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<hugeint_t, hugeint_t>(a.data[0], r, c, [&](hugeint_t v) {
        hugeint_t q = v / factor, rem = v % factor;  // truncates toward zero
        if (CEIL && rem > 0) q++;
        if (!CEIL && rem < 0) q--;
        return q;
      });
    });
  }
  return Bound({t}, t, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<double, double>(a.data[0], r, c, [](double v) { return CEIL ? std::ceil(v) : std::floor(v); });
  });
}

// DOUBLE -> DOUBLE functions; `fn` returns NaN for out-of-domain input, which becomes NULL.
template <double (*FN)(double)>
scalar_bind_t UnaryDouble(const std::string& accepted) {
  return [accepted](const ScalarBindInput& input) {
    NumericArgument(input, 1, accepted);
    return Bound({TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecuteNullable<double, double>(a.data[0], r, c, [](double v, double& out) {
        out = FN(v);
        return !std::isnan(out) || std::isnan(v);
      });
    });
  };
}

double Sqrt(double v) { return v < 0 ? NAN : std::sqrt(v); }
double Ln(double v) { return v <= 0 ? NAN : std::log(v); }
double Log10(double v) { return v <= 0 ? NAN : std::log10(v); }
double Log2(double v) { return v <= 0 ? NAN : std::log2(v); }
double Exp(double v) { return std::exp(v); }

BoundScalarFunction BindPower(const ScalarBindInput& input) {
  const char* accepted = "power(DOUBLE, DOUBLE)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (!t.IsNumeric() && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({TypeId::DOUBLE, TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    BinaryExecuteNullable<double, double, double>(a.data[0], a.data[1], r, c, [](double x, double y, double& out) {
      out = std::pow(x, y);
      return !std::isnan(out) || std::isnan(x) || std::isnan(y);
    });
  });
}

// log(x) is the natural log (Spark); log(base, x) the logarithm to `base`.
BoundScalarFunction BindLog(const ScalarBindInput& input) {
  const char* accepted = "log(DOUBLE), log(base DOUBLE, x DOUBLE)";
  CheckArgumentCount(input, 1, 2, accepted);
  if (input.argument_types.size() == 1) return UnaryDouble<Ln>(accepted)(input);
  for (auto& t : input.argument_types) {
    if (!t.IsNumeric() && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({TypeId::DOUBLE, TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    BinaryExecuteNullable<double, double, double>(a.data[0], a.data[1], r, c, [](double base, double x, double& out) {
      if (base <= 0 || base == 1 || x <= 0) return false;
      out = std::log(x) / std::log(base);
      return true;
    });
  });
}

}  // namespace

void RegisterMathFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("abs", BindAbs);
  registry.Register("sign", BindSign);
  registry.Register("signum", BindSign);
  registry.Register("round", BindRound);
  registry.Register("floor", BindFloorCeil<false>);
  registry.Register("ceil", BindFloorCeil<true>);
  registry.Register("ceiling", BindFloorCeil<true>);
  registry.Register("sqrt", UnaryDouble<Sqrt>("sqrt(DOUBLE)"));
  registry.Register("ln", UnaryDouble<Ln>("ln(DOUBLE)"));
  registry.Register("log10", UnaryDouble<Log10>("log10(DOUBLE)"));
  registry.Register("log2", UnaryDouble<Log2>("log2(DOUBLE)"));
  registry.Register("exp", UnaryDouble<Exp>("exp(DOUBLE)"));
  registry.Register("log", BindLog);
  registry.Register("power", BindPower);
  registry.Register("pow", BindPower);
  registry.Register("pi", [](const ScalarBindInput& input) {
    CheckArgumentCount(input, 0, 0, "pi()");
    return Bound({}, TypeId::DOUBLE, [](DataChunk&, Vector& r, idx_t c, const FunctionContext&) {
      for (idx_t i = 0; i < c; i++) r.GetData<double>()[i] = M_PI;
      r.SetAllValid(c);
    });
  });
}

}  // namespace lakestream
