// Comparison operators, driven through the registry.
#include <cmath>

#include "function_test_util.hpp"

namespace lakestream::test {
namespace {

TEST(FunctionComparison, TypedOperators) {
  EXPECT_EQ(Eval("=", {Value::INTEGER(1), Value::INTEGER(1)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<>", {Value::INTEGER(1), Value::INTEGER(1)}), Value::BOOLEAN(false));
  EXPECT_EQ(Eval("!=", {Value::INTEGER(1), Value::INTEGER(2)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<", {Value::INTEGER(1), Value::BIGINT(2)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<=", {Value::DOUBLE(2), Value::INTEGER(2)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval(">", {Value("b"), Value("a")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval(">=", {Value("a"), Value("b")}), Value::BOOLEAN(false));
  EXPECT_EQ(Eval("=", {Value::BOOLEAN(true), Value::BOOLEAN(true)}), Value::BOOLEAN(true));
  // UTF-8 orders by code point: 'é' (U+00E9) > 'z'.
  EXPECT_EQ(Eval(">", {Value("é"), Value("z")}), Value::BOOLEAN(true));
}

TEST(FunctionComparison, DecimalsOfDifferentScale) {
  EXPECT_EQ(Eval("=", {Dec("1.50", 10, 2), Dec("1.5", 5, 1)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<", {Dec("1.49", 10, 2), Value::INTEGER(2)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval(">", {Dec("1.49", 10, 2), Value::DOUBLE(1.4)}), Value::BOOLEAN(true));
}

TEST(FunctionComparison, StringAgainstDateAndNumber) {
  Value d = Value("2024-01-31").CastAs(TypeId::DATE);
  EXPECT_EQ(Eval("=", {d, Value("2024-01-31")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<", {Value("2024-01-01"), d}), Value::BOOLEAN(true));
  Value ts = Value("2024-01-31 10:00:00").CastAs(TypeId::TIMESTAMP);
  EXPECT_EQ(Eval(">", {ts, d}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("=", {Value::INTEGER(1), Value("1")}), Value::BOOLEAN(true));
  auto msg = ErrorOf<BinderError>([&] { Eval("=", {d, Value::BOOLEAN(true)}); });
  EXPECT_NE(msg.find("Cannot compare values of type DATE and BOOLEAN"), std::string::npos) << msg;
}

TEST(FunctionComparison, NullsAndNaN) {
  auto run = RunRows("=", {TypeId::VARCHAR, TypeId::VARCHAR},
                     {{Value("a"), Value("a")}, {Null(TypeId::VARCHAR), Value("a")}, {Value("a"), Null(TypeId::VARCHAR)},
                      {Null(TypeId::VARCHAR), Null(TypeId::VARCHAR)}, {Value(""), Value("")}});
  EXPECT_EQ(run.values[0], Value::BOOLEAN(true));
  EXPECT_TRUE(run.values[1].IsNull());
  EXPECT_TRUE(run.values[2].IsNull());
  EXPECT_TRUE(run.values[3].IsNull());
  EXPECT_EQ(run.values[4], Value::BOOLEAN(true));
  EXPECT_TRUE(Eval("<", {Value(), Value::INTEGER(1)}).IsNull());
  EXPECT_EQ(Eval("=", {Value::DOUBLE(NAN), Value::DOUBLE(NAN)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval(">", {Value::DOUBLE(NAN), Value::DOUBLE(INFINITY)}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<", {Value::DOUBLE(NAN), Value::DOUBLE(1)}), Value::BOOLEAN(false));
}

TEST(FunctionComparison, DistinctFrom) {
  auto run = RunRows("is_distinct_from", {TypeId::INTEGER, TypeId::INTEGER},
                     {{Value::INTEGER(1), Value::INTEGER(1)}, {Null(TypeId::INTEGER), Value::INTEGER(1)},
                      {Null(TypeId::INTEGER), Null(TypeId::INTEGER)}, {Value::INTEGER(1), Value::INTEGER(2)}});
  EXPECT_TRUE(run.bound.handles_nulls);
  EXPECT_EQ(run.values[0], Value::BOOLEAN(false));
  EXPECT_EQ(run.values[1], Value::BOOLEAN(true));
  EXPECT_EQ(run.values[2], Value::BOOLEAN(false));
  EXPECT_EQ(run.values[3], Value::BOOLEAN(true));
  EXPECT_EQ(Eval("is_not_distinct_from", {Value(), Value()}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("<=>", {Value::INTEGER(1), Value()}), Value::BOOLEAN(false));
}

TEST(FunctionComparison, Structs) {
  auto type = LogicalType::Struct({{"a", TypeId::INTEGER}});
  Value s1 = Value::STRUCT(type, {Value::INTEGER(1)});
  Value s2 = Value::STRUCT(type, {Value::INTEGER(2)});
  EXPECT_EQ(Eval("<", {s1, s2}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("=", {s1, s1}), Value::BOOLEAN(true));
}

TEST(FunctionComparison, LargeChunk) {
  // A full vector exercises the flat loop end to end.
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 2048; i++) rows.push_back({Value::BIGINT(i), i % 7 == 0 ? Null(TypeId::BIGINT) : Value::BIGINT(1000)});
  auto run = RunRows("<", {TypeId::BIGINT, TypeId::BIGINT}, rows);
  for (int i = 0; i < 2048; i++) {
    if (i % 7 == 0) {
      EXPECT_TRUE(run.values[i].IsNull());
    } else {
      EXPECT_EQ(run.values[i], Value::BOOLEAN(i < 1000)) << i;
    }
  }
}

}  // namespace
}  // namespace lakestream::test
