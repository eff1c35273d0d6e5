// The row encoding and diff behind materialized view refreshes (ivm/view_diff.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "ivm/view_diff.hpp"

namespace lakestream {
namespace {

std::string Key(const Row& row) { return EncodeRow(row); }

TEST(ViewDiff, EncodeRowIsUnambiguous) {
  // NULL is not the string 'NULL', nor an empty string.
  EXPECT_NE(Key({Value(LogicalType(TypeId::VARCHAR))}), Key({Value("NULL")}));
  EXPECT_NE(Key({Value(LogicalType(TypeId::VARCHAR))}), Key({Value("")}));
  // No value runs into the next.
  EXPECT_NE(Key({Value("a"), Value("bc")}), Key({Value("ab"), Value("c")}));
  EXPECT_NE(Key({Value(std::string("a\0", 2))}), Key({Value("a")}));
  // Lists of different lengths and nestings.
  LogicalType list = LogicalType::List(TypeId::BIGINT);
  Value one = Value::LIST(list, {Value::BIGINT(1)});
  Value one_two = Value::LIST(list, {Value::BIGINT(1), Value::BIGINT(2)});
  EXPECT_NE(Key({one_two}), Key({one, Value::BIGINT(2)}));
  EXPECT_EQ(Key({one_two}), Key({Value::LIST(list, {Value::BIGINT(1), Value::BIGINT(2)})}));
  // A subset of columns, in the order given.
  Row row = {Value::BIGINT(1), Value("x"), Value::BIGINT(2)};
  EXPECT_EQ(EncodeRow(row, {2, 0}), Key({Value::BIGINT(2), Value::BIGINT(1)}));
}

TEST(ViewDiff, EncodeRowEqualsWhatCompareEquals) {
  // Integers of any width are one value, as Value::Compare sees them.
  EXPECT_EQ(Key({Value::INTEGER(5)}), Key({Value::BIGINT(5)}));
  EXPECT_NE(Key({Value::BIGINT(5)}), Key({Value::BIGINT(6)}));
  EXPECT_NE(Key({Value::BIGINT(-1)}), Key({Value::BIGINT(0)}));
  // DOUBLE: -0 and 0, and every NaN, are one value each.
  EXPECT_EQ(Key({Value::DOUBLE(-0.0)}), Key({Value::DOUBLE(0.0)}));
  EXPECT_EQ(Key({Value::DOUBLE(NAN)}), Key({Value::DOUBLE(-NAN)}));
  EXPECT_NE(Key({Value::DOUBLE(1.5)}), Key({Value::DOUBLE(2.5)}));
  // DECIMAL of one scale by its unscaled value.
  EXPECT_EQ(Key({Value::DECIMAL(1230, 12, 2)}), Key({Value::DECIMAL(1230, 12, 2)}));
  EXPECT_NE(Key({Value::DECIMAL(1230, 12, 2)}), Key({Value::DECIMAL(1231, 12, 2)}));
  // Types that print alike stay apart: a DATE is not its day number.
  EXPECT_NE(Key({Value::DATE(10)}), Key({Value::INTEGER(10)}));
  EXPECT_NE(Key({Value::BOOLEAN(true)}), Key({Value::BIGINT(1)}));
}

ViewRows Stored(std::vector<Row> rows) {
  ViewRows out;
  out.rows = std::move(rows);
  for (idx_t i = 0; i < out.rows.size(); i++) out.ids.push_back(static_cast<row_t>(100 + i));
  return out;
}

TEST(ViewDiff, DiffRowsByKey) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::BIGINT};
  ViewRows old_rows = Stored({{Value::BIGINT(1), Value::BIGINT(10)},
                              {Value::BIGINT(2), Value::BIGINT(20)},
                              {Value::BIGINT(3), Value::BIGINT(30)}});
  std::vector<Row> new_rows = {{Value::BIGINT(3), Value::BIGINT(30)},   // unchanged
                               {Value::BIGINT(1), Value::BIGINT(11)},   // updated
                               {Value::BIGINT(4), Value::BIGINT(40)}};  // inserted; 2 is deleted
  TableCommit commit;
  DiffRows(old_rows, new_rows, {0}, types, commit);
  EXPECT_EQ(commit.updated_row_ids, std::vector<row_t>({100}));
  ASSERT_EQ(commit.updated.Count(), 1u);
  EXPECT_EQ(commit.updated.GetValue(1, 0), Value::BIGINT(11));
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.GetValue(0, 0), Value::BIGINT(4));
  EXPECT_EQ(commit.deleted_rows, std::vector<row_t>({101}));
}

TEST(ViewDiff, DiffRowsWithRepeatedKeysPairsWholeRows) {
  // Key 1 repeats among the new rows: rows pair as a whole, nothing is an update.
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::BIGINT};
  ViewRows old_rows = Stored({{Value::BIGINT(1), Value::BIGINT(10)}, {Value::BIGINT(2), Value::BIGINT(20)}});
  std::vector<Row> new_rows = {{Value::BIGINT(1), Value::BIGINT(10)},
                               {Value::BIGINT(1), Value::BIGINT(11)},
                               {Value::BIGINT(2), Value::BIGINT(20)}};
  TableCommit commit;
  DiffRows(old_rows, new_rows, {0}, types, commit);
  EXPECT_TRUE(commit.updated_row_ids.empty());
  EXPECT_TRUE(commit.deleted_rows.empty());
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.GetValue(1, 0), Value::BIGINT(11));

  // Equal rows repeated in the view: each new copy takes one old copy.
  ViewRows twice = Stored({{Value::BIGINT(7), Value::BIGINT(7)}, {Value::BIGINT(7), Value::BIGINT(7)}});
  TableCommit once;
  DiffRows(twice, {{Value::BIGINT(7), Value::BIGINT(7)}}, {}, types, once);
  EXPECT_EQ(once.deleted_rows.size(), 1u);
  EXPECT_EQ(once.inserted.Count(), 0u);
}

}  // namespace
}  // namespace lakestream
