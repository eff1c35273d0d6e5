// The shared JSON encoder (json_writer.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "common/date.hpp"
#include "common/json_writer.hpp"

namespace lakestream {
namespace {

std::string Json(const Value& v, JsonOptions options = {}) {
  std::string out;
  AppendJsonValue(out, v, options);
  return out;
}

std::string JsonVector(const Value& v, JsonOptions options = {}) {
  Vector vec(v.type(), 4);
  vec.SetValue(1, v);
  std::string out;
  AppendJsonVectorValue(out, vec, 1, options);
  return out;
}

TEST(JsonWriter, Scalars) {
  for (auto* encode : {&Json, &JsonVector}) {
    EXPECT_EQ(encode(Value::BOOLEAN(true), {}), "true");
    EXPECT_EQ(encode(Value::INTEGER(-5), {}), "-5");
    EXPECT_EQ(encode(Value::BIGINT(9007199254740993LL), {}), "9007199254740993");
    EXPECT_EQ(encode(Value::DOUBLE(1.5), {}), "1.5");
    EXPECT_EQ(encode(Value::DOUBLE(NAN), {}), "\"NaN\"");
    EXPECT_EQ(encode(Value::DOUBLE(-INFINITY), {}), "\"-Infinity\"");
    EXPECT_EQ(encode(Value::DOUBLE(INFINITY), {}), "\"Infinity\"");
    EXPECT_EQ(encode(Value::DECIMAL(1230, 10, 2), {}), "12.30");
    EXPECT_EQ(encode(Value::DECIMAL(-5, 10, 2), JsonOptions{true, true}), "\"-0.05\"");
    EXPECT_EQ(encode(Value::DATE(Date::FromCivil(2024, 1, 31)), {}), "\"2024-01-31\"");
    timestamp_t ts = Timestamp::FromDate(Date::FromCivil(2024, 1, 31)) + 10LL * 3600 * MICROS_PER_SECOND;
    EXPECT_EQ(encode(Value::TIMESTAMP(ts), {}), "\"2024-01-31T10:00:00Z\"");
    EXPECT_EQ(encode(Value::TIMESTAMP(ts), JsonOptions{false, false}), "\"2024-01-31 10:00:00\"");
    EXPECT_EQ(encode(Value(LogicalType(TypeId::INTEGER)), {}), "null");
  }
}

TEST(JsonWriter, StringEscapes) {
  std::string out;
  AppendJsonString(out, std::string("a\"b\\c\n\t\x01\x1f é€", 15));
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f é€\"");
  out.clear();
  AppendJsonString(out, "");
  EXPECT_EQ(out, "\"\"");
}

TEST(JsonWriter, Nested) {
  auto inner = LogicalType::Struct({{"x", TypeId::INTEGER}});
  auto list = LogicalType::List(TypeId::VARCHAR);
  auto type = LogicalType::Struct({{"a", TypeId::INTEGER}, {"s", inner}, {"l", list}, {"n", TypeId::VARCHAR}});
  Value v = Value::STRUCT(type, {Value::INTEGER(1), Value::STRUCT(inner, {Value::INTEGER(2)}),
                                 Value::LIST(list, {Value("p"), Value(LogicalType(TypeId::VARCHAR))}),
                                 Value(LogicalType(TypeId::VARCHAR))});
  const char* expected = "{\"a\":1,\"s\":{\"x\":2},\"l\":[\"p\",null],\"n\":null}";
  EXPECT_EQ(Json(v), expected);
  EXPECT_EQ(JsonVector(v), expected);
  auto map = LogicalType::Map(TypeId::INTEGER, TypeId::DOUBLE);
  auto entry = map.ListChild();
  Value m = Value::LIST(map, {Value::STRUCT(entry, {Value::INTEGER(1), Value::DOUBLE(0.5)}),
                              Value::STRUCT(entry, {Value::INTEGER(2), Value::DOUBLE(2)})});
  EXPECT_EQ(Json(m), "{\"1\":0.5,\"2\":2.0}");
  EXPECT_EQ(JsonVector(m), "{\"1\":0.5,\"2\":2.0}");
}

TEST(JsonWriter, Object) {
  Vector a(TypeId::INTEGER, 2), b(TypeId::VARCHAR, 2);
  a.SetValue(0, Value::INTEGER(7));
  b.SetValue(0, Value("x"));
  std::string out;
  AppendJsonObject(out, {"id", "name"}, {&a, &b}, 0);
  EXPECT_EQ(out, "{\"id\":7,\"name\":\"x\"}");
}

}  // namespace
}  // namespace lakestream
