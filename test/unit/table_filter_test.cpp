// Storage table filters (storage/table_filter.hpp) against column statistics:
// which files they prove irrelevant and which they must keep; and through
// SQL, that files so proved irrelevant are not read (shown by deleting them).
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "lakestream.hpp"
#include "storage/table_filter.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

// A file whose column 0 is an INTEGER holding [min, max] with `nulls` NULLs of `rows`.
ColumnStatisticsLookup IntRange(int32_t min, int32_t max, int64_t nulls = 0, int64_t rows = 100) {
  return [=](idx_t column) {
    ColumnStatistics s;
    s.type = TypeId::INTEGER;
    if (column != 0) return s;
    s.min = Value::INTEGER(min);
    s.max = Value::INTEGER(max);
    s.null_count = nulls;
    s.row_count = rows;
    return s;
  };
}

// A file whose column 0 is a partition column holding `value` in every row.
ColumnStatisticsLookup Partition(Value value) {
  return [value](idx_t column) {
    ColumnStatistics s;
    s.type = TypeId::INTEGER;
    if (column == 0) s.constant = value;
    return s;
  };
}

ColumnStatisticsLookup NothingKnown() {
  return [](idx_t) {
    ColumnStatistics s;
    s.type = TypeId::INTEGER;
    return s;
  };
}

TableFilter Cmp(FilterComparison op, Value v) { return TableFilter::Compare(0, op, std::move(v)); }

TEST(TableFilter, ComparisonsAgainstMinMax) {
  auto file = IntRange(10, 20);
  using C = FilterComparison;
  // Must skip: no value in [10, 20] satisfies these.
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(9)), file));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(21)), file));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::LESS, Value::INTEGER(10)), file));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::LESS_EQUAL, Value::INTEGER(9)), file));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::GREATER, Value::INTEGER(20)), file));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::GREATER_EQUAL, Value::INTEGER(21)), file));
  // Must keep: the bounds themselves can match.
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(10)), file));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(20)), file));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::LESS, Value::INTEGER(11)), file));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::LESS_EQUAL, Value::INTEGER(10)), file));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::GREATER, Value::INTEGER(19)), file));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::GREATER_EQUAL, Value::INTEGER(20)), file));
  // A wider constant type compares by value.
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value::BIGINT(100)), file));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value::BIGINT(15)), file));
}

TEST(TableFilter, NullsAndMissingStatistics) {
  using C = FilterComparison;
  // A comparison with NULL is never true.
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value(LogicalType(TypeId::INTEGER))), IntRange(10, 20)));
  // Every value NULL: no comparison matches, IS NOT NULL does not, IS NULL does.
  auto all_null = IntRange(0, 0, /*nulls=*/100, /*rows=*/100);
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(0)), all_null));
  EXPECT_FALSE(FilterMayMatch(TableFilter::IsNull(0, false), all_null));
  EXPECT_TRUE(FilterMayMatch(TableFilter::IsNull(0, true), all_null));
  // No NULL at all: IS NULL cannot match; some NULLs: both may.
  EXPECT_FALSE(FilterMayMatch(TableFilter::IsNull(0, true), IntRange(1, 2, 0)));
  EXPECT_TRUE(FilterMayMatch(TableFilter::IsNull(0, true), IntRange(1, 2, 3)));
  EXPECT_TRUE(FilterMayMatch(TableFilter::IsNull(0, false), IntRange(1, 2, 3)));
  // Nothing known (no stats, a column without stats): every filter keeps the file.
  auto unknown = NothingKnown();
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(5)), unknown));
  EXPECT_TRUE(FilterMayMatch(TableFilter::IsNull(0, true), unknown));
  EXPECT_TRUE(FilterMayMatch(TableFilter::IsNull(0, false), unknown));
  EXPECT_TRUE(FilterMayMatch(TableFilter::InList(0, {Value::INTEGER(1)}), unknown));
  // A null count without a row count does not prove "all NULL".
  auto nulls_only = [](idx_t) {
    ColumnStatistics s;
    s.type = TypeId::INTEGER;
    s.null_count = 100;
    return s;
  };
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(5)), nulls_only));
}

TEST(TableFilter, MismatchedTypesKeepTheFile) {
  using C = FilterComparison;
  // A constant that does not convert to the column's type proves nothing.
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value("not a number")), IntRange(10, 20)));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::LESS, Value("abc")), IntRange(10, 20)));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value("abc")), Partition(Value::INTEGER(3))));
  EXPECT_TRUE(FilterMayMatch(TableFilter::InList(0, {Value("x"), Value::INTEGER(30)}), IntRange(10, 20)));
  // Bounds the statistics could not give in the column's type are simply unknown.
  auto min_only = [](idx_t) {
    ColumnStatistics s;
    s.type = TypeId::INTEGER;
    s.min = Value::INTEGER(10);
    return s;
  };
  EXPECT_TRUE(FilterMayMatch(Cmp(C::GREATER, Value::INTEGER(1000)), min_only));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::LESS, Value::INTEGER(5)), min_only));
}

TEST(TableFilter, InListsAndConjunctions) {
  using C = FilterComparison;
  auto file = IntRange(10, 20);
  EXPECT_FALSE(FilterMayMatch(TableFilter::InList(0, {Value::INTEGER(1), Value::INTEGER(30)}), file));
  EXPECT_TRUE(FilterMayMatch(TableFilter::InList(0, {Value::INTEGER(1), Value::INTEGER(15)}), file));
  EXPECT_FALSE(FilterMayMatch(TableFilter::InList(0, {Value(LogicalType(TypeId::INTEGER))}), file));  // x IN (NULL)

  auto in = Cmp(C::EQUAL, Value::INTEGER(15));
  auto out = Cmp(C::EQUAL, Value::INTEGER(50));
  EXPECT_FALSE(FilterMayMatch(TableFilter::Conjunction(TableFilterType::AND, {in, out}), file));
  EXPECT_TRUE(FilterMayMatch(TableFilter::Conjunction(TableFilterType::AND, {in, in}), file));
  EXPECT_TRUE(FilterMayMatch(TableFilter::Conjunction(TableFilterType::OR, {out, in}), file));
  EXPECT_FALSE(FilterMayMatch(TableFilter::Conjunction(TableFilterType::OR, {out, out}), file));
}

TEST(TableFilter, PartitionValuesDecideExactly) {
  using C = FilterComparison;
  auto three = Partition(Value::INTEGER(3));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(3)), three));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(4)), three));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::GREATER, Value::INTEGER(3)), three));
  EXPECT_TRUE(FilterMayMatch(Cmp(C::GREATER_EQUAL, Value::INTEGER(3)), three));
  EXPECT_FALSE(FilterMayMatch(TableFilter::IsNull(0, true), three));
  // A NULL partition value: no comparison matches; IS NULL does.
  auto null_partition = Partition(Value(LogicalType(TypeId::INTEGER)));
  EXPECT_FALSE(FilterMayMatch(Cmp(C::EQUAL, Value::INTEGER(3)), null_partition));
  EXPECT_TRUE(FilterMayMatch(TableFilter::IsNull(0, true), null_partition));
  EXPECT_FALSE(FilterMayMatch(TableFilter::IsNull(0, false), null_partition));

  // Any other predicate runs on the partition values...
  auto odd = TableFilter::Predicate({0}, [](const std::vector<Value>& v) { return !v[0].IsNull() && v[0].AsBigint() % 2 == 1; });
  EXPECT_TRUE(FilterMayMatch(odd, three));
  EXPECT_FALSE(FilterMayMatch(odd, Partition(Value::INTEGER(4))));
  // ...but proves nothing where the column varies, or where the test fails.
  EXPECT_TRUE(FilterMayMatch(odd, IntRange(4, 4)));
  auto failing = TableFilter::Predicate({0}, [](const std::vector<Value>&) -> bool { throw std::runtime_error("x"); });
  EXPECT_TRUE(FilterMayMatch(failing, Partition(Value::INTEGER(4))));
}

int64_t Count(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  EXPECT_FALSE(r->HasError()) << sql << ": " << r->GetError();
  if (r->HasError()) return -1;
  return r->GetValue(0, 0).GetBigint();
}

// Each query can be answered only if data skipping leaves out the file that
// was deleted behind the table's back (reading it fails).
TEST(TableFilter, SqlPredicatesSkipFiles) {
  testing::ScopedTempDir dir("lakestream_table_filter");
  Database db(dir.path);
  Connection con(db);
  ASSERT_FALSE(con.Query("CREATE TABLE ev (day DATE, id BIGINT, tag VARCHAR) PARTITIONED BY (day)")->HasError());
  ASSERT_FALSE(con.Query("INSERT INTO ev SELECT DATE '2024-01-01' + CAST(range % 3 AS INT), range, 'a' FROM range(300)")->HasError());
  ASSERT_FALSE(con.Query("INSERT INTO ev SELECT DATE '2024-01-01', range + 1000, NULL FROM range(10)")->HasError());
  for (auto& f : std::filesystem::directory_iterator(dir.path + "/ev/day=2024-01-03")) std::filesystem::remove(f.path());
  // Partition values: IN, OR, IS NOT NULL with a comparison, and an arbitrary expression.
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE day IN (DATE '2024-01-01', DATE '2024-01-02')"), 210);
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE day = DATE '2024-01-01' OR day = DATE '2024-01-02'"), 210);
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE day + 1 = DATE '2024-01-03'"), 100);
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE day < DATE '2024-01-03' AND day IS NOT NULL"), 210);
  // Statistics of the second commit's file: ids 1000..1009, tag all NULL.
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE id IN (1002, 1005, 5000)"), 2);
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE id >= 1008 OR id = 1000"), 3);
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE tag IS NULL"), 10);
  // The deleted file is still part of the table: a query that needs it says so.
  auto all = con.Query("SELECT count(id) FROM ev WHERE tag = 'a'");
  ASSERT_TRUE(all->HasError());
  EXPECT_NE(all->GetError().find("missing its data file"), std::string::npos) << all->GetError();
}

}  // namespace
}  // namespace lakestream
