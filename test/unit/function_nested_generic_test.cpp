// struct / named_struct / to_json and the generic functions, via the registry.
#include <cmath>

#include "function_test_util.hpp"

namespace lakestream::test {
namespace {

Value S(const char* s) { return Value(s); }
Value I(int32_t v) { return Value::INTEGER(v); }

TEST(FunctionNested, StructNamesAndNulls) {
  auto run = RunRows("struct", {TypeId::INTEGER, TypeId::VARCHAR, TypeId::SQLNULL},
                     {{I(1), S("a"), Value()}, {Null(TypeId::INTEGER), Null(TypeId::VARCHAR), Value()}}, {}, {"id", "", ""});
  EXPECT_TRUE(run.bound.handles_nulls);
  EXPECT_EQ(run.bound.return_type.ToString(), "STRUCT(id INTEGER, col2 VARCHAR, col3 VARCHAR)");
  EXPECT_EQ(run.values[0].ToString(), "{'id': 1, 'col2': 'a', 'col3': NULL}");
  EXPECT_FALSE(run.values[1].IsNull());
  EXPECT_EQ(run.values[1].ToString(), "{'id': NULL, 'col2': NULL, 'col3': NULL}");
}

TEST(FunctionNested, NamedStruct) {
  Value v = Eval("named_struct", {S("a"), I(1), S("b"), Dec("1.50", 10, 2)});
  EXPECT_EQ(v.type().ToString(), "STRUCT(a INTEGER, b DECIMAL(10,2))");
  EXPECT_EQ(v.ToString(), "{'a': 1, 'b': 1.50}");
  auto msg = ErrorOf<BinderError>([] { RunRows("named_struct", {TypeId::VARCHAR, TypeId::INTEGER}, {{S("a"), I(1)}}); });
  EXPECT_NE(msg.find("must be a constant string"), std::string::npos) << msg;
  msg = ErrorOf<BinderError>([] { Eval("named_struct", {S("a")}); });
  EXPECT_NE(msg.find("pairs"), std::string::npos) << msg;
}

TEST(FunctionNested, ToJsonOfStruct) {
  // to_json(named_struct(...)) over rows, including a NULL struct.
  auto type = LogicalType::Struct({{"id", TypeId::INTEGER}, {"amount", LogicalType::Decimal(10, 2)}, {"name", TypeId::VARCHAR}});
  auto run = RunRows("to_json", {type},
                     {{Value::STRUCT(type, {I(1), Dec("1000.00", 10, 2), S("Al \"x\"")})},
                      {Value(type)},
                      {Value::STRUCT(type, {I(2), Null(TypeId::DECIMAL), Null(TypeId::VARCHAR)})}});
  EXPECT_EQ(run.values[0], S("{\"id\":1,\"amount\":1000.00,\"name\":\"Al \\\"x\\\"\"}"));
  EXPECT_TRUE(run.values[1].IsNull());
  EXPECT_EQ(run.values[2], S("{\"id\":2,\"amount\":null,\"name\":null}"));
  auto msg = ErrorOf<BinderError>([] { Eval("to_json", {I(1)}); });
  EXPECT_NE(msg.find("to_json(INTEGER)"), std::string::npos) << msg;
}

TEST(FunctionGeneric, Coalesce) {
  auto run = RunRows("coalesce", {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR},
                     {{Null(TypeId::VARCHAR), S("b"), S("c")}, {S("a"), Null(TypeId::VARCHAR), S("c")},
                      {Null(TypeId::VARCHAR), Null(TypeId::VARCHAR), Null(TypeId::VARCHAR)}});
  EXPECT_EQ(run.values[0], S("b"));
  EXPECT_EQ(run.values[1], S("a"));
  EXPECT_TRUE(run.values[2].IsNull());
  EXPECT_EQ(Eval("coalesce", {Null(TypeId::INTEGER), Dec("1.5", 5, 1)}).ToString(), "1.5");
  EXPECT_EQ(EvalType("coalesce", {TypeId::INTEGER, LogicalType::Decimal(5, 1)}), LogicalType::Decimal(11, 1));
  EXPECT_EQ(Eval("ifnull", {Value(), I(3)}), I(3));
  EXPECT_EQ(Eval("nvl", {I(1), I(3)}), I(1));
  auto msg = ErrorOf<BinderError>([] { Eval("coalesce", {I(1), Value::BOOLEAN(true)}); });
  EXPECT_NE(msg.find("no common type"), std::string::npos) << msg;
}

TEST(FunctionGeneric, NullIfAndIf) {
  EXPECT_TRUE(Eval("nullif", {I(1), I(1)}).IsNull());
  EXPECT_EQ(Eval("nullif", {I(1), I(2)}), I(1));
  EXPECT_EQ(Eval("nullif", {I(1), Null(TypeId::INTEGER)}), I(1));
  EXPECT_EQ(Eval("nullif", {S("a"), S("b")}), S("a"));
  EXPECT_EQ(Eval("if", {Value::BOOLEAN(true), S("x"), S("y")}), S("x"));
  EXPECT_EQ(Eval("iff", {Null(TypeId::BOOLEAN), S("x"), S("y")}), S("y"));
  EXPECT_EQ(Eval("if", {Value::BOOLEAN(false), I(1), Value::DOUBLE(2.5)}), Value::DOUBLE(2.5));
  EXPECT_THROW(Eval("if", {I(1), I(1), I(2)}), BinderError);
}

TEST(FunctionGeneric, GreatestLeast) {
  EXPECT_EQ(Eval("greatest", {I(1), I(5), I(3)}), I(5));
  EXPECT_EQ(Eval("least", {I(4), Null(TypeId::INTEGER), I(2)}), I(2));
  EXPECT_TRUE(Eval("least", {Null(TypeId::INTEGER), Null(TypeId::INTEGER)}).IsNull());
  EXPECT_EQ(Eval("greatest", {S("apple"), S("pear")}), S("pear"));
  EXPECT_EQ(Eval("greatest", {I(1), Dec("1.5", 5, 1)}).ToString(), "1.5");
  EXPECT_TRUE(std::isnan(Eval("greatest", {Value::DOUBLE(1), Value::DOUBLE(NAN)}).GetDouble()));
  Value d1 = Value("2024-01-01").CastAs(TypeId::DATE), d2 = Value("2024-02-01").CastAs(TypeId::DATE);
  EXPECT_EQ(Eval("least", {d1, d2}), d1);
}

TEST(FunctionGeneric, HashAndTypeof) {
  Value h1 = Eval("hash", {S("abc"), I(1)});
  EXPECT_EQ(h1.type(), LogicalType(TypeId::BIGINT));
  EXPECT_EQ(h1, Eval("hash", {S("abc"), I(1)}));
  EXPECT_NE(h1, Eval("hash", {S("abc"), I(2)}));
  EXPECT_NE(Eval("hash", {S("ab"), S("c")}), Eval("hash", {S("a"), S("bc")}));
  EXPECT_FALSE(Eval("hash", {Null(TypeId::INTEGER)}).IsNull());
  EXPECT_EQ(Eval("hash", {Value::DOUBLE(0.0)}), Eval("hash", {Value::DOUBLE(-0.0)}));
  // Stable across runs and builds: a fixed value.
  EXPECT_EQ(Eval("hash", {I(42)}).GetBigint(), -283637221067004852LL);
  EXPECT_EQ(Eval("typeof", {Dec("1.5", 10, 2)}), S("DECIMAL(10,2)"));
  EXPECT_EQ(Eval("typeof", {Value()}), S("NULL"));
}

}  // namespace
}  // namespace lakestream::test
