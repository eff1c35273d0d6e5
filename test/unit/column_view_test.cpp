// ColumnView (include/lakestream/column_view.hpp): a result column read in
// place agrees with the SqlValue of every cell, across chunks, with NULLs.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "lakestream.hpp"

namespace lakestream {
namespace {

TEST(ColumnView, EveryKindMatchesGetValue) {
  Database db;
  Connection con(db);
  auto r = con.Query(
      "SELECT range % 2 = 0 AS b, CAST(range AS INTEGER) AS i, range * 1000000000 AS g, CAST(range AS DOUBLE) / 4 AS d, "
      "CAST(range AS DECIMAL(38,3)) * -1000000000000000 AS m, 'v' || range AS s, "
      "CAST('2024-01-01' AS DATE) AS dt, CAST('1969-12-31 23:59:59.5' AS TIMESTAMP) AS ts, "
      "CASE WHEN range % 3 = 0 THEN NULL ELSE range END AS n "
      "FROM range(5000)");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  ASSERT_GT(r->ChunkCount(), 2u);
  idx_t row = 0;
  for (idx_t c = 0; c < r->ChunkCount(); c++) {
    ColumnView b(*r, c, 0), i(*r, c, 1), g(*r, c, 2), d(*r, c, 3), m(*r, c, 4), s(*r, c, 5), dt(*r, c, 6),
        ts(*r, c, 7), n(*r, c, 8);
    ASSERT_EQ(b.RowCount(), r->ChunkRowCount(c));
    for (idx_t k = 0; k < b.RowCount(); k++, row++) {
      EXPECT_EQ(b.Booleans()[k], r->GetValue(0, row).GetBoolean());
      EXPECT_EQ(i.Integers()[k], r->GetValue(1, row).GetInteger());
      EXPECT_EQ(g.Bigints()[k], r->GetValue(2, row).GetBigint());
      EXPECT_EQ(d.Doubles()[k], r->GetValue(3, row).GetDouble());
      uint64_t low = 0;
      int64_t high = 0;
      m.GetDecimal(k, &low, &high);
      SqlValue mv = r->GetValue(4, row);
      ASSERT_EQ(mv.Type().kind, TypeKind::DECIMAL);
      // -row * 10^15 at the column's scale: past 64 bits for most rows.
      __int128 expected = -static_cast<__int128>(row) * 1000000000000000LL;
      for (int e = 0; e < mv.Type().scale; e++) expected *= 10;
      __int128 unscaled = static_cast<__int128>((static_cast<unsigned __int128>(static_cast<uint64_t>(high)) << 64) | low);
      EXPECT_TRUE(unscaled == expected) << "row " << row << ": " << mv.ToString();
      EXPECT_DOUBLE_EQ(m.GetDecimalAsDouble(k), mv.AsDouble());
      EXPECT_EQ(std::string(s.Strings()[k]), r->GetValue(5, row).GetString());
      EXPECT_EQ(dt.Dates()[k], r->GetValue(6, row).GetDate());
      EXPECT_EQ(ts.Timestamps()[k], r->GetValue(7, row).GetTimestamp());
      EXPECT_EQ(n.IsValid(k), row % 3 != 0);
      EXPECT_EQ(n.Validity()[k] != 0, !r->GetValue(8, row).IsNull());
      if (n.IsValid(k)) {
        EXPECT_EQ(n.Bigints()[k], static_cast<int64_t>(row));
      }
      EXPECT_EQ(n.GetValue(k), r->GetValue(8, row));
    }
  }
  EXPECT_EQ(row, 5000u);
}

TEST(ColumnView, NestedThroughGetValue) {
  Database db;
  Connection con(db);
  auto r = con.Query("SELECT ? AS l, ? AS st",
                     {SqlValue::List({SqlValue::Bigint(1), SqlValue::Bigint(2)}),
                      SqlValue::Struct({"a"}, {SqlValue::Varchar("x")})});
  ASSERT_FALSE(r->HasError()) << r->GetError();
  ColumnView l(*r, 0, 0), st(*r, 0, 1);
  EXPECT_EQ(l.GetValue(0), r->GetValue(0, 0));
  EXPECT_EQ(st.GetValue(0).ToString(), r->GetValue(1, 0).ToString());
  EXPECT_THROW(l.Bigints(), std::invalid_argument);
}

TEST(ColumnView, WrongKindAndOutOfRangeThrow) {
  Database db;
  Connection con(db);
  auto r = con.Query("SELECT 1 AS a, 'x' AS s");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  ColumnView a(*r, 0, 0);
  try {
    a.Strings();
    FAIL() << "Strings() on an INTEGER column did not throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("INTEGER"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("VARCHAR"), std::string::npos) << e.what();
  }
  uint64_t low = 0;
  int64_t high = 0;
  EXPECT_THROW(a.GetDecimal(0, &low, &high), std::invalid_argument);
  EXPECT_THROW(ColumnView(*r, 1, 0), std::out_of_range);
  EXPECT_THROW(ColumnView(*r, 0, 2), std::out_of_range);
  EXPECT_THROW(a.GetValue(1), std::out_of_range);
}

}  // namespace
}  // namespace lakestream
