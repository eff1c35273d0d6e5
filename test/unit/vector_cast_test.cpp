// Vectors, DataChunks, ChunkCollections, Values and the cast rules.
#include <gtest/gtest.h>

#include "common/cast.hpp"
#include "common/chunk_collection.hpp"
#include "common/date.hpp"
#include "common/decimal.hpp"
#include "common/exception.hpp"

namespace lakestream {
namespace {

TEST(Vector, FlatValuesAndValidity) {
  Vector v(TypeId::BIGINT, 4);
  v.SetValue(0, Value::BIGINT(7));
  v.SetValue(1, Value(LogicalType(TypeId::BIGINT)));
  v.SetValue(2, Value::INTEGER(-3));  // cast on the way in
  EXPECT_EQ(v.GetValue(0), Value::BIGINT(7));
  EXPECT_TRUE(v.GetValue(1).IsNull());
  EXPECT_EQ(v.GetValue(2).GetBigint(), -3);
  EXPECT_EQ(v.GetValue(2).type().id(), TypeId::BIGINT);
}

TEST(Vector, ResizeKeepsRows) {
  Vector v(TypeId::VARCHAR, 2);
  v.SetValue(0, Value("a"));
  v.SetValue(1, Value(LogicalType(TypeId::VARCHAR)));
  v.Resize(5000);
  EXPECT_EQ(v.Capacity(), 5000u);
  EXPECT_EQ(v.GetValue(0).GetString(), "a");
  EXPECT_TRUE(v.GetValue(1).IsNull());
  v.SetValue(4999, Value("z"));
  EXPECT_EQ(v.GetValue(4999).GetString(), "z");
}

TEST(Vector, StringsOutliveTheirSourceVector) {
  Vector target(TypeId::VARCHAR, 2);
  {
    Vector source(TypeId::VARCHAR, 2);
    source.SetValue(0, Value(std::string(1000, 'x')));
    source.SetValue(1, Value("short"));
    target.Copy(source, nullptr, 2, 0, 0);
  }
  EXPECT_EQ(target.GetValue(0).GetString(), std::string(1000, 'x'));
  EXPECT_EQ(target.GetValue(1).GetString(), "short");
}

TEST(Vector, CopyWithSelection) {
  Vector source(TypeId::INTEGER, 4);
  for (int i = 0; i < 4; i++) source.SetValue(i, Value::INTEGER(i * 10));
  source.SetValue(2, Value(LogicalType(TypeId::INTEGER)));
  Vector target(TypeId::INTEGER, 2);
  sel_t sel[] = {3, 2};
  target.Copy(source, sel, 2, 0, 0);
  EXPECT_EQ(target.GetValue(0).GetInteger(), 30);
  EXPECT_TRUE(target.GetValue(1).IsNull());
}

TEST(Vector, NestedStructAndList) {
  auto type = LogicalType::Struct({{"a", TypeId::INTEGER}, {"tags", LogicalType::List(TypeId::VARCHAR)}});
  Vector v(type, 2);
  Value row = Value::STRUCT(type, {Value::INTEGER(1), Value::LIST(LogicalType::List(TypeId::VARCHAR), {Value("x"), Value("y")})});
  v.SetValue(0, row);
  v.SetValue(1, Value(type));
  EXPECT_EQ(v.GetValue(0), row);
  EXPECT_EQ(v.GetValue(0).ToString(), "{'a': 1, 'tags': ['x', 'y']}");
  EXPECT_TRUE(v.GetValue(1).IsNull());
}

TEST(ChunkCollection, RowsLandAtFixedPositions) {
  ChunkCollection rows({TypeId::BIGINT});
  DataChunk chunk;
  chunk.Initialize({TypeId::BIGINT});
  int64_t next = 0;
  for (int batch = 0; batch < 5; batch++) {
    chunk.Reset();
    for (idx_t i = 0; i < 1000; i++) chunk.SetValue(0, i, Value::BIGINT(next++));
    chunk.SetCardinality(1000);
    rows.Append(chunk);
  }
  EXPECT_EQ(rows.Count(), 5000u);
  EXPECT_EQ(rows.ChunkCount(), 3u);  // 2048 + 2048 + 904
  for (idx_t r : {0, 2047, 2048, 4999}) EXPECT_EQ(rows.GetValue(0, r).GetBigint(), static_cast<int64_t>(r));
}

TEST(ChunkCollection, MergeMovesFullChunks) {
  ChunkCollection a({TypeId::INTEGER}), b({TypeId::INTEGER});
  DataChunk chunk;
  chunk.Initialize({TypeId::INTEGER});
  for (idx_t i = 0; i < STANDARD_VECTOR_SIZE; i++) chunk.SetValue(0, i, Value::INTEGER(static_cast<int32_t>(i)));
  chunk.SetCardinality(STANDARD_VECTOR_SIZE);
  a.Append(chunk);
  b.Append(chunk);
  b.Append(chunk);
  a.Merge(std::move(b));
  EXPECT_EQ(a.Count(), 3 * STANDARD_VECTOR_SIZE);
  EXPECT_EQ(b.Count(), 0u);
  EXPECT_EQ(a.GetValue(0, 2 * STANDARD_VECTOR_SIZE + 5).GetInteger(), 5);
}

TEST(Cast, IntegerOverflowAndFormatErrorsNameValueAndType) {
  try {
    Value::BIGINT(3000000000LL).CastAs(TypeId::INTEGER);
    FAIL() << "expected an overflow";
  } catch (const ConversionError& e) {
    EXPECT_NE(std::string(e.what()).find("3000000000"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("INTEGER"), std::string::npos);
  }
  try {
    Value("12abc").CastAs(TypeId::BIGINT);
    FAIL() << "expected a format error";
  } catch (const ConversionError& e) {
    EXPECT_NE(std::string(e.what()).find("'12abc'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("BIGINT"), std::string::npos);
  }
  Value out;
  EXPECT_FALSE(Value("nope").TryCastAs(TypeId::INTEGER, out));
}

TEST(Cast, DecimalRoundingAndWidth) {
  auto d = LogicalType::Decimal(5, 2);
  EXPECT_EQ(Value("1.005").CastAs(d).ToString(), "1.01");    // half away from zero
  EXPECT_EQ(Value("-1.005").CastAs(d).ToString(), "-1.01");
  EXPECT_EQ(Value::DOUBLE(2.5).CastAs(d).ToString(), "2.50");
  EXPECT_EQ(Value::INTEGER(999).CastAs(d).ToString(), "999.00");
  EXPECT_THROW(Value::INTEGER(1000).CastAs(d), ConversionError);  // 1000.00 needs 6 digits
  EXPECT_EQ(Value::DECIMAL(12345, 5, 2).CastAs(TypeId::INTEGER).GetInteger(), 123);
  // To an integer a fraction truncates toward zero (Spark), unlike DECIMAL to DECIMAL.
  EXPECT_EQ(Value::DECIMAL(12355, 5, 2).CastAs(TypeId::INTEGER).GetInteger(), 123);
  EXPECT_EQ(Value::DECIMAL(-12399, 5, 2).CastAs(TypeId::BIGINT).GetBigint(), -123);
  EXPECT_EQ(Value::DOUBLE(-2.5).CastAs(TypeId::INTEGER).GetInteger(), -2);
  EXPECT_EQ(Value("7.99").CastAs(TypeId::INTEGER).GetInteger(), 7);
  auto wide = LogicalType::Decimal(38, 0);
  std::string max38(38, '9');
  EXPECT_EQ(Value(max38).CastAs(wide).ToString(), max38);
  EXPECT_THROW(Value("1" + std::string(38, '0')).CastAs(wide), ConversionError);
}

TEST(Cast, DatesAndTimestamps) {
  EXPECT_EQ(Value("2024-02-29").CastAs(TypeId::DATE).ToString(), "2024-02-29");
  EXPECT_THROW(Value("2023-02-29").CastAs(TypeId::DATE), ConversionError);
  EXPECT_EQ(Value("2024-01-31T10:00:00Z").CastAs(TypeId::TIMESTAMP).ToString(), "2024-01-31 10:00:00");
  EXPECT_EQ(Value("2024-01-31 10:00:00+02:00").CastAs(TypeId::TIMESTAMP).ToString(), "2024-01-31 08:00:00");
  EXPECT_EQ(Value("1969-12-31 23:59:59.999999").CastAs(TypeId::TIMESTAMP).CastAs(TypeId::DATE).ToString(), "1969-12-31");
  EXPECT_EQ(Value::DATE(0).CastAs(TypeId::TIMESTAMP).GetTimestamp(), 0);
  EXPECT_EQ(Date::FromCivil(1970, 1, 1), 0);
  EXPECT_EQ(Date::DayOfWeek(Date::FromCivil(2026, 11, 29)), 0);  // a Sunday
  EXPECT_EQ(Timestamp::ToIsoString(1500000), "1970-01-01T00:00:01.5Z");
}

TEST(Cast, BooleanAndDoubleText) {
  EXPECT_TRUE(Value("TRUE").CastAs(TypeId::BOOLEAN).GetBoolean());
  EXPECT_FALSE(Value(" f ").CastAs(TypeId::BOOLEAN).GetBoolean());
  EXPECT_THROW(Value("maybe").CastAs(TypeId::BOOLEAN), ConversionError);
  EXPECT_EQ(Value::DOUBLE(0.1).ToString(), "0.1");
  EXPECT_EQ(Value::DOUBLE(3).ToString(), "3.0");
  EXPECT_EQ(Value::DOUBLE(1e20).CastAs(TypeId::VARCHAR).GetString(), "1e+20");
  EXPECT_THROW(Value::DOUBLE(1e20).CastAs(TypeId::BIGINT), ConversionError);
  EXPECT_EQ(Value::DOUBLE(-2.5).CastAs(TypeId::BIGINT).GetBigint(), -2);  // round half to even, as nearbyint
}

TEST(Cast, VectorCastMatchesValueCast) {
  Vector source(TypeId::VARCHAR, 4);
  source.SetValue(0, Value("42"));
  source.SetValue(1, Value(LogicalType(TypeId::VARCHAR)));
  source.SetValue(2, Value("-7"));
  source.SetValue(3, Value("x"));
  Vector result(TypeId::INTEGER, 4);
  EXPECT_THROW(CastVector(source, result, 4), ConversionError);
  CastVector(source, result, 4, /*try_cast=*/true);
  EXPECT_EQ(result.GetValue(0).GetInteger(), 42);
  EXPECT_TRUE(result.GetValue(1).IsNull());
  EXPECT_EQ(result.GetValue(2).GetInteger(), -7);
  EXPECT_TRUE(result.GetValue(3).IsNull());
  Vector ints(TypeId::BIGINT, 2);
  ints.SetValue(0, Value::BIGINT(-123));
  ints.SetValue(1, Value(LogicalType(TypeId::BIGINT)));
  Vector text(TypeId::VARCHAR, 2);
  CastVector(ints, text, 2);
  EXPECT_EQ(text.GetValue(0).GetString(), "-123");
  EXPECT_TRUE(text.GetValue(1).IsNull());
}

TEST(Types, CommonTypeRules) {
  EXPECT_EQ(MaxLogicalType(TypeId::INTEGER, TypeId::BIGINT), LogicalType(TypeId::BIGINT));
  EXPECT_EQ(MaxLogicalType(LogicalType::Decimal(10, 2), TypeId::INTEGER), LogicalType::Decimal(12, 2));
  EXPECT_EQ(MaxLogicalType(LogicalType::Decimal(10, 2), TypeId::DOUBLE), LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(MaxLogicalType(TypeId::DATE, TypeId::TIMESTAMP), LogicalType(TypeId::TIMESTAMP));
  EXPECT_EQ(MaxLogicalType(TypeId::DATE, TypeId::BOOLEAN).id(), TypeId::INVALID);
  EXPECT_EQ(TypeFromName("long"), LogicalType(TypeId::BIGINT));
  EXPECT_EQ(TypeFromName("nope").id(), TypeId::INVALID);
}

TEST(Value, OrderingPutsNullsLastAndComparesAcrossNumericTypes) {
  EXPECT_LT(Value::INTEGER(1).Compare(Value::DOUBLE(1.5)), 0);
  EXPECT_EQ(Value::DECIMAL(150, 5, 2).Compare(Value::DOUBLE(1.5)), 0);
  EXPECT_GT(Value(LogicalType(TypeId::INTEGER)).Compare(Value::INTEGER(5)), 0);
  EXPECT_EQ(Decimal::ToString(-5, 3), "-0.005");
}

}  // namespace
}  // namespace lakestream
