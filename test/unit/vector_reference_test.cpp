// Vector::Reference: a vector sharing another's rows without copying them
// (what the table scan hands out). Writes on either side must not show
// through the other (copy on write), the shared rows must outlive the vector
// they came from (reference counting; ASan checks the lifetimes), and a
// vector that referred to a small buffer must still take a full chunk.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/vector.hpp"

namespace lakestream {
namespace {

Vector Integers(idx_t count, int64_t base) {
  Vector v(TypeId::BIGINT, count);
  for (idx_t i = 0; i < count; i++) v.GetData<int64_t>()[i] = base + static_cast<int64_t>(i);
  v.SetValid(1, false);
  return v;
}

TEST(VectorReferenceTest, SharesRowsUntilEitherSideWrites) {
  Vector table = Integers(100, 1000);
  Vector scan(TypeId::BIGINT);
  scan.Reference(table, 100);
  EXPECT_TRUE(table.BufferShared());
  EXPECT_EQ(std::as_const(scan).GetData<int64_t>(), std::as_const(table).GetData<int64_t>());  // no copy
  EXPECT_FALSE(scan.IsValid(1));
  EXPECT_EQ(scan.GetValue(5), Value::BIGINT(1005));

  // The reader writes: it gets its own rows, the table keeps its own.
  scan.SetValue(5, Value::BIGINT(-1));
  EXPECT_EQ(scan.GetValue(5), Value::BIGINT(-1));
  EXPECT_EQ(scan.GetValue(6), Value::BIGINT(1006));
  EXPECT_EQ(table.GetValue(5), Value::BIGINT(1005));

  // The table writes (an UPDATE in place) while a reader holds its rows.
  Vector reader(TypeId::BIGINT);
  reader.Reference(table, 100);
  table.GetData<int64_t>()[7] = 7;
  table.SetValid(1, true);
  EXPECT_EQ(reader.GetValue(7), Value::BIGINT(1007));
  EXPECT_FALSE(reader.IsValid(1));
  EXPECT_EQ(table.GetValue(7), Value::BIGINT(7));
}

TEST(VectorReferenceTest, RowsOutliveTheirVector) {
  Vector holder(TypeId::VARCHAR);
  {
    auto source = std::make_unique<Vector>(LogicalType(TypeId::VARCHAR), 4);
    for (idx_t i = 0; i < 4; i++) source->SetValue(i, Value::VARCHAR("a string longer than any inline form " + std::to_string(i)));
    holder.Reference(*source, 4);
  }  // the table's vector (and the chunk holding it) is gone
  EXPECT_EQ(holder.GetValue(3), Value::VARCHAR("a string longer than any inline form 3"));
  Vector copy(TypeId::VARCHAR);
  copy.Copy(holder, nullptr, 4, 0, 0);
  holder.Reset();
  EXPECT_EQ(copy.GetValue(0), Value::VARCHAR("a string longer than any inline form 0"));
}

TEST(VectorReferenceTest, WritersStillGetTheirCapacity) {
  Vector out(TypeId::BIGINT);  // STANDARD_VECTOR_SIZE rows
  {
    Vector small = Integers(3, 0);
    out.Reference(small, 3);
  }
  // `out` alone holds the 3-row buffer now: writing a full chunk must not overflow it.
  out.Reset();
  ASSERT_GE(out.Capacity(), STANDARD_VECTOR_SIZE);
  for (idx_t i = 0; i < STANDARD_VECTOR_SIZE; i++) out.GetData<int64_t>()[i] = static_cast<int64_t>(i);
  EXPECT_TRUE(out.IsValid(STANDARD_VECTOR_SIZE - 1));
  // The same without a Reset: the first write gives it a full buffer keeping the rows.
  Vector other(TypeId::BIGINT);
  {
    Vector small = Integers(3, 10);
    other.Reference(small, 3);
  }
  other.SetValid(STANDARD_VECTOR_SIZE - 1, false);
  EXPECT_EQ(other.GetValue(2), Value::BIGINT(12));
  EXPECT_FALSE(other.IsValid(1));
}

TEST(VectorReferenceTest, SelectionCopyOfEveryWidth) {
  sel_t sel[] = {4, 0, 2};
  for (TypeId type : {TypeId::BOOLEAN, TypeId::INTEGER, TypeId::BIGINT, TypeId::DECIMAL, TypeId::VARCHAR}) {
    LogicalType logical = type == TypeId::DECIMAL ? LogicalType::Decimal(18, 2) : LogicalType(type);
    Vector src(logical, 5);
    for (idx_t i = 0; i < 5; i++) src.SetValue(i, Value::BIGINT(static_cast<int64_t>(i % 2)).CastAs(logical));
    src.SetValid(2, false);
    Vector dst(logical, 1);
    dst.Copy(src, sel, 3, 0, 1);  // grows, and writes at an offset
    EXPECT_EQ(dst.GetValue(1), src.GetValue(4)) << logical.ToString();
    EXPECT_EQ(dst.GetValue(2), src.GetValue(0)) << logical.ToString();
    EXPECT_FALSE(dst.IsValid(3)) << logical.ToString();
  }
}

}  // namespace
}  // namespace lakestream
