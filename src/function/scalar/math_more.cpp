// DuckDB's numeric functions beside math.cpp's:
//
//   sin cos tan asin acos atan cot atan2 degrees radians cbrt   DOUBLE
//   asin/acos outside [-1, 1] and cot(0) are errors (DuckDB), not NULL
//   gcd(a, b), lcm(a, b)      BIGINT, of the absolute values; gcd(0, 0) = 0
//   factorial(n)              BIGINT (DuckDB: HUGEINT); n < 0 or n > 20 is an error
//   even(x)                   DOUBLE rounded away from zero to the next even integer
//   bit_count(n)              INTEGER set bits of the two's complement
//   xor(a, b)                 bitwise exclusive or, of the arguments' integer type
//   isnan, isinf, isfinite    BOOLEAN of a DOUBLE
//   trunc(x)                  toward zero; DECIMAL(p, s) -> DECIMAL(p, 0), integers
//                             unchanged (trunc(DATE, unit) is date.cpp's)
//   random()                  DOUBLE in [0, 1), never constant-folded
//   setseed(x)                x in [-1, 1] reseeds random() (for the whole process:
//                             there is no per-connection generator); returns NULL
#include <cmath>
#include <mutex>
#include <numeric>
#include <random>

#include "common/decimal.hpp"
#include "function/scalar/duckdb_functions.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

void CheckNumeric(const ScalarBindInput& input, idx_t args, const std::string& accepted) {
  CheckArgumentCount(input, args, args, accepted);
  for (auto& t : input.argument_types) {
    if (!t.IsNumeric() && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
}

[[noreturn]] void OutOfDomain(const char* function, double v, const char* domain) {
  throw InvalidInputError(std::string(function) + "(" + Value::DOUBLE(v).ToString() + "): the argument must be " + domain);
}

double Cot(double v) {
  if (v == 0) OutOfDomain("cot", v, "non-zero");
  return 1.0 / std::tan(v);
}
double Asin(double v) {
  if (v < -1 || v > 1) OutOfDomain("asin", v, "between -1 and 1");
  return std::asin(v);
}
double Acos(double v) {
  if (v < -1 || v > 1) OutOfDomain("acos", v, "between -1 and 1");
  return std::acos(v);
}
double Sin(double v) { return std::sin(v); }
double Cos(double v) { return std::cos(v); }
double Tan(double v) { return std::tan(v); }
double Atan(double v) { return std::atan(v); }
double Cbrt(double v) { return std::cbrt(v); }
double Degrees(double v) { return v * (180.0 / M_PI); }
double Radians(double v) { return v * (M_PI / 180.0); }
double Even(double v) {
  double up = v >= 0 ? std::ceil(v) : std::floor(v);
  if (std::fmod(up, 2.0) != 0) up += v >= 0 ? 1 : -1;
  return up;
}

template <double (*FN)(double)>
scalar_bind_t Unary(const std::string& accepted) {
  return [accepted](const ScalarBindInput& input) {
    CheckNumeric(input, 1, accepted);
    return Bound({TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<double, double>(a.data[0], r, c, FN);
    });
  };
}

BoundScalarFunction BindAtan2(const ScalarBindInput& input) {
  CheckNumeric(input, 2, "atan2(y DOUBLE, x DOUBLE)");
  return Bound({TypeId::DOUBLE, TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    BinaryExecute<double, double, double>(a.data[0], a.data[1], r, c, [](double y, double x) { return std::atan2(y, x); });
  });
}

template <bool LCM>
BoundScalarFunction BindGcdLcm(const ScalarBindInput& input) {
  const char* accepted = LCM ? "lcm(BIGINT, BIGINT)" : "gcd(BIGINT, BIGINT)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (!t.IsIntegral() && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({TypeId::BIGINT, TypeId::BIGINT}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    BinaryExecute<int64_t, int64_t, int64_t>(a.data[0], a.data[1], r, c, [](int64_t x, int64_t y) -> int64_t {
      if (x == INT64_MIN || y == INT64_MIN) {
        throw InvalidInputError(std::string(LCM ? "lcm" : "gcd") + "(" + std::to_string(x) + ", " + std::to_string(y) + "): the absolute value of -9223372036854775808 does not fit in BIGINT");
      }
      int64_t g = std::gcd(x, y);
      if (!LCM) return g;
      if (x == 0 || y == 0) return 0;
      int64_t out;
      if (__builtin_mul_overflow(std::abs(x) / g, std::abs(y), &out)) {
        throw InvalidInputError("lcm(" + std::to_string(x) + ", " + std::to_string(y) + "): the result does not fit in BIGINT");
      }
      return out;
    });
  });
}

BoundScalarFunction BindFactorial(const ScalarBindInput& input) {
  const char* accepted = "factorial(INTEGER)";
  CheckArgumentCount(input, 1, 1, accepted);
  if (!input.argument_types[0].IsIntegral() && input.argument_types[0].id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  return Bound({TypeId::BIGINT}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<int64_t, int64_t>(a.data[0], r, c, [](int64_t n) {
      if (n < 0) throw InvalidInputError("factorial(" + std::to_string(n) + "): the factorial of a negative number is undefined");
      if (n > 20) throw InvalidInputError("factorial(" + std::to_string(n) + "): the result does not fit in BIGINT (the largest is factorial(20))");
      int64_t out = 1;
      for (int64_t k = 2; k <= n; k++) out *= k;
      return out;
    });
  });
}

BoundScalarFunction BindBitCount(const ScalarBindInput& input) {
  const char* accepted = "bit_count(INTEGER), bit_count(BIGINT)";
  CheckArgumentCount(input, 1, 1, accepted);
  const LogicalType& t = input.argument_types[0];
  if (t.id() == TypeId::BIGINT) {
    return Bound({t}, TypeId::INTEGER, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<int64_t, int32_t>(a.data[0], r, c, [](int64_t v) { return __builtin_popcountll(static_cast<uint64_t>(v)); });
    });
  }
  if (!t.IsIntegral() && t.id() != TypeId::SQLNULL && t.id() != TypeId::BOOLEAN) ThrowArgumentError(input, accepted);
  return Bound({TypeId::INTEGER}, TypeId::INTEGER, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<int32_t, int32_t>(a.data[0], r, c, [](int32_t v) { return __builtin_popcount(static_cast<uint32_t>(v)); });
  });
}

BoundScalarFunction BindXor(const ScalarBindInput& input) {
  const char* accepted = "xor(INTEGER, INTEGER), xor(BIGINT, BIGINT)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (!t.IsIntegral() && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  if (input.argument_types[0].id() == TypeId::BIGINT || input.argument_types[1].id() == TypeId::BIGINT) {
    return Bound({TypeId::BIGINT, TypeId::BIGINT}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      BinaryExecuteFlat<int64_t, int64_t, int64_t>(a.data[0], a.data[1], r, c, [](int64_t x, int64_t y) { return x ^ y; });
    });
  }
  return Bound({TypeId::INTEGER, TypeId::INTEGER}, TypeId::INTEGER, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    BinaryExecuteFlat<int32_t, int32_t, int32_t>(a.data[0], a.data[1], r, c, [](int32_t x, int32_t y) { return x ^ y; });
  });
}

template <int KIND>  // 0 isnan, 1 isinf, 2 isfinite
BoundScalarFunction BindFloatClass(const ScalarBindInput& input) {
  CheckNumeric(input, 1, input.name + "(DOUBLE)");
  return Bound({TypeId::DOUBLE}, TypeId::BOOLEAN, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<double, bool>(a.data[0], r, c, [](double v) {
      return KIND == 0 ? std::isnan(v) : KIND == 1 ? std::isinf(v) : std::isfinite(v);
    });
  });
}

scalar_bind_t TruncNumeric(const scalar_bind_t& date_trunc) {
  return [date_trunc](const ScalarBindInput& input) {
    if (input.argument_types.size() != 1 || !input.argument_types[0].IsNumeric()) {
      if (date_trunc) return date_trunc(input);
      ThrowArgumentError(input, "trunc(DOUBLE), trunc(DECIMAL), trunc(INTEGER)");
    }
    const LogicalType& t = input.argument_types[0];
    if (t.IsIntegral()) return Bound({t}, t, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { r.Copy(a.data[0], nullptr, c, 0, 0); });
    if (t.id() == TypeId::DECIMAL) {
      hugeint_t factor = Decimal::PowerOfTen(t.scale());
      return Bound({t}, LogicalType::Decimal(t.width(), 0), [factor](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
        UnaryExecute<hugeint_t, hugeint_t>(a.data[0], r, c, [&](hugeint_t v) { return v / factor; });
      });
    }
    return Bound({TypeId::DOUBLE}, TypeId::DOUBLE, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
      UnaryExecute<double, double>(a.data[0], r, c, [](double v) { return std::trunc(v); });
    });
  };
}

// The generator random() draws from; setseed() replaces its state.
struct RandomSource {
  std::mutex mutex;
  std::mt19937_64 engine{std::random_device{}()};
};
RandomSource& Random() {
  static RandomSource source;
  return source;
}

BoundScalarFunction BindRandom(const ScalarBindInput& input) {
  CheckArgumentCount(input, 0, 0, "random()");
  BoundScalarFunction f = Bound({}, TypeId::DOUBLE, [](DataChunk&, Vector& r, idx_t c, const FunctionContext&) {
    auto& source = Random();
    std::lock_guard<std::mutex> lock(source.mutex);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    auto* out = r.GetData<double>();
    for (idx_t i = 0; i < c; i++) out[i] = uniform(source.engine);
    r.SetAllValid(c);
  });
  f.deterministic = false;
  return f;
}

BoundScalarFunction BindSetseed(const ScalarBindInput& input) {
  CheckNumeric(input, 1, "setseed(DOUBLE between -1 and 1)");
  BoundScalarFunction f = Bound({TypeId::DOUBLE}, TypeId::SQLNULL, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    for (idx_t i = 0; i < c; i++) {
      r.SetValid(i, false);
      if (!a.data[0].IsValid(i)) continue;
      double seed = a.data[0].GetData<double>()[i];
      if (!(seed >= -1 && seed <= 1)) {
        throw InvalidInputError("setseed(" + Value::DOUBLE(seed).ToString() + "): the seed must be between -1 and 1");
      }
      auto& source = Random();
      std::lock_guard<std::mutex> lock(source.mutex);
      source.engine.seed(static_cast<uint64_t>((seed + 1.0) * 4294967295.0));
    }
  });
  f.deterministic = false;
  f.handles_nulls = true;
  return f;
}

}  // namespace

void RegisterMathMoreFunctions(ScalarFunctionRegistry& registry, const BindLookup& find) {
  registry.Register("sin", Unary<Sin>("sin(DOUBLE)"));
  registry.Register("cos", Unary<Cos>("cos(DOUBLE)"));
  registry.Register("tan", Unary<Tan>("tan(DOUBLE)"));
  registry.Register("asin", Unary<Asin>("asin(DOUBLE)"));
  registry.Register("acos", Unary<Acos>("acos(DOUBLE)"));
  registry.Register("atan", Unary<Atan>("atan(DOUBLE)"));
  registry.Register("cot", Unary<Cot>("cot(DOUBLE)"));
  registry.Register("cbrt", Unary<Cbrt>("cbrt(DOUBLE)"));
  registry.Register("degrees", Unary<Degrees>("degrees(DOUBLE)"));
  registry.Register("radians", Unary<Radians>("radians(DOUBLE)"));
  registry.Register("even", Unary<Even>("even(DOUBLE)"));
  registry.Register("atan2", BindAtan2);
  registry.Register("gcd", BindGcdLcm<false>);
  registry.Register("greatest_common_divisor", BindGcdLcm<false>);
  registry.Register("lcm", BindGcdLcm<true>);
  registry.Register("least_common_multiple", BindGcdLcm<true>);
  registry.Register("factorial", BindFactorial);
  registry.Register("bit_count", BindBitCount);
  registry.Register("xor", BindXor);
  registry.Register("isnan", BindFloatClass<0>);
  registry.Register("isinf", BindFloatClass<1>);
  registry.Register("isfinite", BindFloatClass<2>);
  const scalar_bind_t* date_trunc = find("trunc");
  registry.Register("trunc", TruncNumeric(date_trunc ? *date_trunc : scalar_bind_t()));
  registry.Register("random", BindRandom);
  registry.Register("setseed", BindSetseed);
}

}  // namespace lakestream
