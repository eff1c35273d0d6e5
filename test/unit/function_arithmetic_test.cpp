// Arithmetic operators and math functions, driven through the registry.
#include "function_test_util.hpp"

namespace lakestream::test {
namespace {

TEST(FunctionArithmetic, IntegerOperators) {
  EXPECT_EQ(Eval("+", {Value::INTEGER(2), Value::INTEGER(3)}), Value::INTEGER(5));
  EXPECT_EQ(Eval("-", {Value::INTEGER(2), Value::INTEGER(3)}), Value::INTEGER(-1));
  EXPECT_EQ(Eval("*", {Value::BIGINT(4), Value::INTEGER(3)}), Value::BIGINT(12));
  EXPECT_EQ(Eval("%", {Value::INTEGER(7), Value::INTEGER(3)}), Value::INTEGER(1));
  EXPECT_EQ(Eval("%", {Value::INTEGER(-7), Value::INTEGER(3)}), Value::INTEGER(-1));
  EXPECT_EQ(Eval("mod", {Value::INTEGER(INT32_MIN), Value::INTEGER(-1)}), Value::INTEGER(0));
  EXPECT_EQ(Eval("negate", {Value::INTEGER(5)}), Value::INTEGER(-5));
  EXPECT_EQ(Eval("-", {Value::BIGINT(5)}), Value::BIGINT(-5));
  EXPECT_EQ(EvalType("+", {TypeId::INTEGER, TypeId::BIGINT}), LogicalType(TypeId::BIGINT));
  EXPECT_EQ(EvalType("+", {TypeId::SQLNULL, TypeId::SQLNULL}), LogicalType(TypeId::INTEGER));
}

TEST(FunctionArithmetic, IntegerDivisionIsDoubleAndZeroIsNull) {
  EXPECT_EQ(EvalType("/", {TypeId::INTEGER, TypeId::INTEGER}), LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(Eval("/", {Value::INTEGER(7), Value::INTEGER(2)}), Value::DOUBLE(3.5));
  EXPECT_TRUE(Eval("/", {Value::INTEGER(7), Value::INTEGER(0)}).IsNull());
  EXPECT_TRUE(Eval("%", {Value::INTEGER(7), Value::INTEGER(0)}).IsNull());
  EXPECT_TRUE(Eval("/", {Value::DOUBLE(1), Value::DOUBLE(0)}).IsNull());
  EXPECT_TRUE(Eval("/", {Dec("1.00", 5, 2), Dec("0", 5, 2)}).IsNull());
}

TEST(FunctionArithmetic, OverflowMessages) {
  auto msg = ErrorOf<ConversionError>([] { Eval("+", {Value::INTEGER(INT32_MAX), Value::INTEGER(1)}); });
  EXPECT_NE(msg.find("Overflow in addition of INTEGER (2147483647 + 1)"), std::string::npos) << msg;
  msg = ErrorOf<ConversionError>([] { Eval("*", {Value::BIGINT(INT64_MAX), Value::BIGINT(2)}); });
  EXPECT_NE(msg.find("Overflow in multiplication of BIGINT (9223372036854775807 * 2)"), std::string::npos) << msg;
  msg = ErrorOf<ConversionError>([] { Eval("-", {Value::INTEGER(INT32_MIN), Value::INTEGER(1)}); });
  EXPECT_NE(msg.find("Overflow in subtraction of INTEGER"), std::string::npos) << msg;
  msg = ErrorOf<ConversionError>([] { Eval("negate", {Value::INTEGER(INT32_MIN)}); });
  EXPECT_NE(msg.find("Overflow in negation of INTEGER"), std::string::npos) << msg;
  msg = ErrorOf<ConversionError>([] { Eval("abs", {Value::BIGINT(INT64_MIN)}); });
  EXPECT_NE(msg.find("Overflow in abs of BIGINT"), std::string::npos) << msg;
  msg = ErrorOf<ConversionError>([] { Eval("*", {Dec("99999999999999999999", 38, 0), Dec("99999999999999999999", 38, 0)}); });
  EXPECT_NE(msg.find("Overflow in multiplication of DECIMAL(38,0)"), std::string::npos) << msg;
}

TEST(FunctionArithmetic, NullsAndMixedRows) {
  auto run = RunRows("+", {TypeId::INTEGER, TypeId::INTEGER},
                     {{Value::INTEGER(1), Value::INTEGER(2)}, {Null(TypeId::INTEGER), Value::INTEGER(2)},
                      {Value::INTEGER(1), Null(TypeId::INTEGER)}, {Value::INTEGER(-4), Value::INTEGER(4)}});
  EXPECT_EQ(run.values[0], Value::INTEGER(3));
  EXPECT_TRUE(run.values[1].IsNull());
  EXPECT_TRUE(run.values[2].IsNull());
  EXPECT_EQ(run.values[3], Value::INTEGER(0));
  // A NULL in a row the kernel must not divide by (no exception, no UB).
  auto div = RunRows("%", {TypeId::INTEGER, TypeId::INTEGER}, {{Null(TypeId::INTEGER), Value::INTEGER(0)}});
  EXPECT_TRUE(div.values[0].IsNull());
}

TEST(FunctionArithmetic, DecimalResultTypes) {
  auto d = [](int p, int s) { return LogicalType::Decimal(p, s); };
  EXPECT_EQ(EvalType("+", {d(10, 2), d(5, 3)}), d(12, 3));
  EXPECT_EQ(EvalType("-", {d(10, 2), d(10, 2)}), d(11, 2));
  EXPECT_EQ(EvalType("*", {d(10, 2), d(5, 3)}), d(16, 5));
  EXPECT_EQ(EvalType("/", {d(10, 2), d(5, 3)}), d(19, 8));  // scale max(6, 2+5+1), precision 10-2+3+8
  EXPECT_EQ(EvalType("+", {TypeId::INTEGER, d(10, 2)}), d(13, 2));
  EXPECT_EQ(EvalType("+", {d(38, 10), d(38, 10)}), d(38, 9));  // capped: keeps min(scale,6) or 38-int digits
  EXPECT_EQ(EvalType("*", {d(38, 10), d(38, 10)}), d(38, 6));
  EXPECT_EQ(EvalType("+", {d(10, 2), TypeId::DOUBLE}), LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(EvalType("%", {d(10, 2), d(5, 3)}), d(5, 3));
}

TEST(FunctionArithmetic, DecimalValues) {
  EXPECT_EQ(Eval("+", {Dec("1.25", 10, 2), Dec("0.125", 5, 3)}).ToString(), "1.375");
  EXPECT_EQ(Eval("-", {Dec("1.25", 10, 2), Dec("3", 5, 0)}).ToString(), "-1.75");
  EXPECT_EQ(Eval("*", {Dec("1.25", 10, 2), Dec("-2.5", 5, 1)}).ToString(), "-3.125");
  EXPECT_EQ(Eval("/", {Dec("1.00", 10, 2), Dec("3.00", 10, 2)}).ToString(), "0.3333333333333");
  EXPECT_EQ(Eval("/", {Dec("2.00", 10, 2), Dec("3.00", 10, 2)}).ToString(), "0.6666666666667");
  EXPECT_EQ(Eval("/", {Dec("-2.00", 10, 2), Dec("3.00", 10, 2)}).ToString(), "-0.6666666666667");
  EXPECT_EQ(Eval("%", {Dec("7.5", 5, 1), Dec("2", 5, 0)}).ToString(), "1.5");
  EXPECT_EQ(Eval("+", {Value::INTEGER(1), Dec("0.50", 10, 2)}).ToString(), "1.50");
  // Division with a 38-digit divisor goes through the slow digit loop.
  Value big = Dec("12345678901234567890123456789012345678", 38, 0);
  EXPECT_EQ(Eval("/", {big, big}).ToString(), "1.000000");
  EXPECT_EQ(Eval("negate", {Dec("1.50", 5, 2)}).ToString(), "-1.50");
}

// The DECIMAL kernels pick a loop per bind (int64, int128 unchecked, checked;
// arithmetic.cpp): each is driven at the edges of its type, with negative
// values and NULL rows between valid ones, as rows of one vector.
std::vector<std::string> Texts(const ScalarRun& run) {
  std::vector<std::string> out;
  for (auto& v : run.values) out.push_back(v.ToString());
  return out;
}

TEST(FunctionArithmetic, DecimalKernelsAtTheirTypesLimits) {
  auto d = [](int p, int s) { return LogicalType::Decimal(p, s); };
  auto row = [](const char* a, uint8_t wa, uint8_t sa, const char* b, uint8_t wb, uint8_t sb) {
    return std::vector<Value>{a ? Dec(a, wa, sa) : Value(LogicalType::Decimal(wa, sa)),
                              b ? Dec(b, wb, sb) : Value(LogicalType::Decimal(wb, sb))};
  };
  // int64 loop: DECIMAL(18,2) + DECIMAL(18,2) -> DECIMAL(19,2), whose extremes pass int64's 18 digits.
  auto add = RunRows("+", {d(18, 2), d(18, 2)},
                     {row("9999999999999999.99", 18, 2, "9999999999999999.99", 18, 2), row(nullptr, 18, 2, "1", 18, 2),
                      row("-9999999999999999.99", 18, 2, "-9999999999999999.99", 18, 2), row("-0.01", 18, 2, "0.02", 18, 2)});
  EXPECT_EQ(add.bound.return_type, d(19, 2));
  EXPECT_EQ(Texts(add), (std::vector<std::string>{"19999999999999999.98", "NULL", "-19999999999999999.98", "0.01"}));
  auto sub = RunRows("-", {d(15, 2), d(10, 0)},
                     {row("-9999999999999.99", 15, 2, "9999999999", 10, 0), row("1.50", 15, 2, "-2", 10, 0)});
  EXPECT_EQ(Texts(sub), (std::vector<std::string>{"-10009999999998.99", "3.50"}));
  // Rescaled to 20 digits: the int128 loop.
  auto wide = RunRows("+", {d(18, 0), d(18, 2)}, {row("-999999999999999999", 18, 0, "-0.01", 18, 2)});
  EXPECT_EQ(Texts(wide), (std::vector<std::string>{"-999999999999999999.01"}));
  // 64 x 64 -> 128 bits: DECIMAL(18,0) * DECIMAL(18,0) -> DECIMAL(37,0).
  auto mul = RunRows("*", {d(18, 0), d(18, 0)},
                     {row("999999999999999999", 18, 0, "-999999999999999999", 18, 0), row("3", 18, 0, nullptr, 18, 0),
                      row("-999999999999999999", 18, 0, "-999999999999999999", 18, 0)});
  EXPECT_EQ(Texts(mul), (std::vector<std::string>{"-999999999999999998000000000000000001", "NULL",
                                                  "999999999999999998000000000000000001"}));
  // Unchecked int128: DECIMAL(25,2) * DECIMAL(12,2) -> DECIMAL(38,4).
  auto mul128 = RunRows("*", {d(25, 2), d(12, 2)}, {row("-99999999999999999999999.99", 25, 2, "9999999999.99", 12, 2)});
  EXPECT_EQ(Texts(mul128), (std::vector<std::string>{"-999999999998999999999999900000000.0001"}));
  // Capped result type (TPC-H Q1's price * (1 - discount) * (1 + tax)):
  // DECIMAL(32,4) * DECIMAL(16,2) -> DECIMAL(38,6), checked per row.
  auto capped = RunRows("*", {d(32, 4), d(16, 2)}, {row("-12345.6789", 32, 4, "1.05", 16, 2)});
  EXPECT_EQ(capped.bound.return_type, d(38, 6));
  EXPECT_EQ(Texts(capped), (std::vector<std::string>{"-12962.962845"}));
  auto msg = ErrorOf<ConversionError>(
      [&] { RunRows("*", {d(32, 4), d(16, 2)}, {row("9999999999999999999999999999.9999", 32, 4, "99999999999999.99", 16, 2)}); });
  EXPECT_NE(msg.find("Overflow in multiplication of DECIMAL(38,6)"), std::string::npos) << msg;
  // A capped sum: DECIMAL(38,0) + DECIMAL(38,0) stays checked.
  msg = ErrorOf<ConversionError>([&] {
    RunRows("+", {d(38, 0), d(38, 0)}, {row("99999999999999999999999999999999999999", 38, 0, "1", 38, 0)});
  });
  EXPECT_NE(msg.find("Overflow in addition of DECIMAL(38,0)"), std::string::npos) << msg;
}

TEST(FunctionComparison, DecimalOf18DigitsComparesSigned) {
  auto d = LogicalType::Decimal(18, 2);
  auto run = RunRows("<", {d, d},
                     {{Dec("-9999999999999999.99", 18, 2), Dec("9999999999999999.99", 18, 2)},
                      {Dec("0.01", 18, 2), Dec("-0.01", 18, 2)},
                      {Value(d), Dec("1", 18, 2)},
                      {Dec("-0.02", 18, 2), Dec("-0.01", 18, 2)}});
  EXPECT_EQ(Texts(run), (std::vector<std::string>{"true", "false", "NULL", "true"}));
  auto ge = RunRows(">=", {d, d}, {{Dec("5.00", 18, 2), Dec("5", 18, 2)}, {Dec("-5.00", 18, 2), Dec("5", 18, 2)}});
  EXPECT_EQ(Texts(ge), (std::vector<std::string>{"true", "false"}));
}

TEST(FunctionArithmetic, DateArithmetic) {
  Value d = Value("2024-02-28").CastAs(TypeId::DATE);
  EXPECT_EQ(Eval("+", {d, Value::INTEGER(2)}).ToString(), "2024-03-01");
  EXPECT_EQ(Eval("+", {Value::INTEGER(2), d}).ToString(), "2024-03-01");
  EXPECT_EQ(Eval("-", {d, Value::INTEGER(28)}).ToString(), "2024-01-31");
  // DATE - DATE and TIMESTAMP - TIMESTAMP are INTERVALs (Spark).
  EXPECT_EQ(Eval("-", {d, Value("2024-01-01").CastAs(TypeId::DATE)}).ToString(), "58 days");
  Value t1 = Value("2024-01-01 00:00:01").CastAs(TypeId::TIMESTAMP);
  Value t0 = Value("2024-01-01 00:00:00").CastAs(TypeId::TIMESTAMP);
  EXPECT_EQ(Eval("-", {t1, t0}).ToString(), "00:00:01");
  EXPECT_EQ(Eval("-", {t1, t0}).type().id(), TypeId::INTERVAL);
  auto msg = ErrorOf<BinderError>([&] { Eval("+", {d, d}); });
  EXPECT_NE(msg.find("'+(DATE, DATE)'"), std::string::npos) << msg;
}

TEST(FunctionArithmetic, BadTypes) {
  auto msg = ErrorOf<BinderError>([] { Eval("*", {Value("a"), Value::INTEGER(1)}); });
  EXPECT_NE(msg.find("*(VARCHAR, INTEGER)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(INTEGER, INTEGER)"), std::string::npos) << msg;
}

TEST(FunctionMath, RoundFloorCeil) {
  EXPECT_EQ(Eval("round", {Dec("2.345", 10, 3), Value::INTEGER(2)}).ToString(), "2.35");
  EXPECT_EQ(EvalType("round", {LogicalType::Decimal(10, 3)}), LogicalType::Decimal(8, 0));
  EXPECT_EQ(Eval("round", {Dec("-2.5", 10, 1)}).ToString(), "-3");
  EXPECT_EQ(Eval("round", {Dec("1234.5", 10, 1), Value::INTEGER(-2)}).ToString(), "1200");
  EXPECT_EQ(Eval("round", {Value::DOUBLE(2.5)}), Value::DOUBLE(3));
  EXPECT_EQ(Eval("round", {Value::DOUBLE(1.2345), Value::INTEGER(2)}), Value::DOUBLE(1.23));
  EXPECT_EQ(Eval("round", {Value::INTEGER(15), Value::INTEGER(-1)}), Value::INTEGER(20));
  EXPECT_EQ(Eval("round", {Value::INTEGER(15)}), Value::INTEGER(15));
  EXPECT_EQ(Eval("floor", {Dec("-1.5", 5, 1)}).ToString(), "-2");
  EXPECT_EQ(Eval("ceil", {Dec("-1.5", 5, 1)}).ToString(), "-1");
  EXPECT_EQ(Eval("ceiling", {Dec("1.1", 5, 1)}).ToString(), "2");
  EXPECT_EQ(Eval("floor", {Value::DOUBLE(1.7)}), Value::DOUBLE(1));
  EXPECT_EQ(Eval("ceil", {Value::INTEGER(3)}), Value::INTEGER(3));
}

TEST(FunctionMath, Others) {
  EXPECT_EQ(Eval("abs", {Value::INTEGER(-3)}), Value::INTEGER(3));
  EXPECT_EQ(Eval("abs", {Dec("-3.5", 5, 1)}).ToString(), "3.5");
  EXPECT_EQ(Eval("sign", {Value::DOUBLE(-0.5)}), Value::INTEGER(-1));
  EXPECT_EQ(Eval("sqrt", {Value::INTEGER(16)}), Value::DOUBLE(4));
  EXPECT_TRUE(Eval("sqrt", {Value::INTEGER(-1)}).IsNull());
  EXPECT_TRUE(Eval("ln", {Value::INTEGER(0)}).IsNull());
  EXPECT_EQ(Eval("power", {Value::INTEGER(2), Value::INTEGER(10)}), Value::DOUBLE(1024));
  EXPECT_EQ(Eval("pow", {Value::DOUBLE(4), Value::DOUBLE(0.5)}), Value::DOUBLE(2));
  EXPECT_EQ(Eval("log10", {Value::INTEGER(1000)}), Value::DOUBLE(3));
  EXPECT_EQ(Eval("exp", {Value::INTEGER(0)}), Value::DOUBLE(1));
  EXPECT_DOUBLE_EQ(Eval("log", {Value::INTEGER(2), Value::INTEGER(8)}).GetDouble(), 3.0);
  EXPECT_TRUE(Eval("abs", {Null(TypeId::INTEGER)}).IsNull());
  auto msg = ErrorOf<BinderError>([] { Eval("abs", {Value("x")}); });
  EXPECT_NE(msg.find("abs(VARCHAR)"), std::string::npos) << msg;
}

TEST(FunctionRegistry, UnknownFunctionSuggests) {
  auto msg = ErrorOf<BinderError>([] { ScalarFunctionRegistry::Get().Bind("foo", {TypeId::INTEGER}, {}, {}); });
  EXPECT_EQ(msg, "Scalar Function with name foo does not exist! Did you mean \"floor\"?");
  msg = ErrorOf<BinderError>([] { ScalarFunctionRegistry::Get().Bind("lowr", {TypeId::VARCHAR}, {}, {}); });
  EXPECT_NE(msg.find("\"lower\""), std::string::npos) << msg;
  EXPECT_TRUE(ScalarFunctionRegistry::Get().Exists("+"));
}

}  // namespace
}  // namespace lakestream::test
