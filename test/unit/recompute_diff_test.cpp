// The columnar diff of recompute-and-diff refreshes (ivm/recompute_diff.hpp):
// the same commit as DiffRows over Value rows, the reference it replaced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "ivm/recompute_diff.hpp"
#include "ivm/view_diff.hpp"

namespace lakestream {
namespace {

constexpr row_t kFirstId = 100;  // stored row i has row id kFirstId + i

// Diffs `stored` (fed in chunks of `chunk_rows`) against `fresh` on columns.
TableCommit Columnar(const std::vector<LogicalType>& types, const std::vector<Row>& stored,
                     const std::vector<Row>& fresh, const std::vector<idx_t>& keys, ChunkCollection* removed = nullptr,
                     idx_t chunk_rows = 3) {
  RecomputeDiff diff(types, MakeCollection(types, fresh), keys);
  for (idx_t start = 0; start < stored.size(); start += chunk_rows) {
    std::vector<Row> part(stored.begin() + static_cast<std::ptrdiff_t>(start),
                          stored.begin() + static_cast<std::ptrdiff_t>(std::min(stored.size(), start + chunk_rows)));
    ChunkCollection chunk = MakeCollection(types, part);
    std::vector<int64_t> ids;
    for (idx_t i = 0; i < part.size(); i++) ids.push_back(kFirstId + static_cast<int64_t>(start + i));
    diff.MatchStored(chunk.Chunk(0), ids.data());
  }
  TableCommit commit;
  diff.Finish(commit, removed);
  return commit;
}

std::vector<std::string> Encoded(const ChunkCollection& rows) {
  std::vector<std::string> out;
  for (auto& row : CollectRows(rows)) out.push_back(EncodeRow(row));
  return out;
}

std::vector<std::string> EncodedStored(const std::vector<Row>& stored, const std::vector<row_t>& ids) {
  std::vector<std::string> out;
  for (row_t id : ids) out.push_back(EncodeRow(stored.at(static_cast<idx_t>(id - kFirstId))));
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The columnar diff makes the commit DiffRows makes: the same inserts (in
// order), updates (ids and rows) and deleted values (which of equal stored
// copies goes may differ); `removed` holds the deleted then updated rows.
void ExpectSameDiff(const std::vector<LogicalType>& types, const std::vector<Row>& stored, const std::vector<Row>& fresh,
                    const std::vector<idx_t>& keys, idx_t chunk_rows = 3) {
  ViewRows old_rows;
  old_rows.rows = stored;
  for (idx_t i = 0; i < stored.size(); i++) old_rows.ids.push_back(kFirstId + static_cast<row_t>(i));
  TableCommit want;
  DiffRows(old_rows, fresh, keys, types, want);
  ChunkCollection removed;
  TableCommit got = Columnar(types, stored, fresh, keys, &removed, chunk_rows);
  EXPECT_EQ(Encoded(got.inserted), Encoded(want.inserted));
  EXPECT_EQ(got.updated_row_ids, want.updated_row_ids);
  EXPECT_EQ(Encoded(got.updated), Encoded(want.updated));
  EXPECT_EQ(Sorted(EncodedStored(stored, got.deleted_rows)), Sorted(EncodedStored(stored, want.deleted_rows)));
  std::vector<std::string> removed_values = EncodedStored(stored, got.deleted_rows);
  for (auto& v : EncodedStored(stored, got.updated_row_ids)) removed_values.push_back(v);
  EXPECT_EQ(Encoded(removed), removed_values);
}

Value Null(TypeId id) { return Value(LogicalType(id)); }

TEST(RecomputeDiff, CopiesCountAsAMultiset) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR};
  Row a = {Value::BIGINT(1), Value("a")}, b = {Value::BIGINT(2), Value("b")};
  // Three stored copies of a, two recomputed: one goes; b comes twice, once new.
  TableCommit commit = Columnar(types, {a, b, a, a}, {b, a, b, a}, {});
  EXPECT_EQ(commit.deleted_rows.size(), 1u);
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.GetValue(0, 0), Value::BIGINT(2));
  ExpectSameDiff(types, {a, b, a, a}, {b, a, b, a}, {});
  // Nothing changed: an empty commit.
  TableCommit same = Columnar(types, {a, b, a}, {a, a, b}, {});
  EXPECT_EQ(same.ChangedRows(), 0u);
}

TEST(RecomputeDiff, NullsEqualNullsAndNothingElse) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR, TypeId::DOUBLE};
  Row nulls = {Null(TypeId::BIGINT), Null(TypeId::VARCHAR), Null(TypeId::DOUBLE)};
  Row zeros = {Value::BIGINT(0), Value(""), Value::DOUBLE(0.0)};
  TableCommit commit = Columnar(types, {nulls, zeros}, {zeros, nulls}, {});
  EXPECT_EQ(commit.ChangedRows(), 0u);
  // A NULL is not the value its bits default to.
  TableCommit changed = Columnar(types, {nulls}, {zeros}, {});
  EXPECT_EQ(changed.deleted_rows, std::vector<row_t>({kFirstId}));
  EXPECT_EQ(changed.inserted.Count(), 1u);
}

TEST(RecomputeDiff, DoubleZerosAndNaNsAsTheDiffSeesThem) {
  std::vector<LogicalType> types = {TypeId::DOUBLE};
  // -0.0 equals 0.0 and any NaN any NaN: no change; 1.5 vs 2.5 is one.
  TableCommit commit = Columnar(types, {{Value::DOUBLE(-0.0)}, {Value::DOUBLE(NAN)}, {Value::DOUBLE(1.5)}},
                                {{Value::DOUBLE(std::nan("7"))}, {Value::DOUBLE(0.0)}, {Value::DOUBLE(2.5)}}, {});
  EXPECT_EQ(commit.deleted_rows, std::vector<row_t>({kFirstId + 2}));
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.GetValue(0, 0), Value::DOUBLE(2.5));
}

TEST(RecomputeDiff, EveryColumnType) {
  LogicalType decimal = LogicalType::Decimal(12, 2), wide = LogicalType::Decimal(38, 10);
  std::vector<LogicalType> types = {TypeId::BOOLEAN, TypeId::INTEGER,   TypeId::BIGINT, decimal,
                                    wide,            TypeId::VARCHAR,   TypeId::DATE,   TypeId::TIMESTAMP,
                                    TypeId::TIMESTAMP_NTZ};
  auto row = [&](int64_t i, const std::string& text) {
    return Row{Value::BOOLEAN(i % 2 == 0),
               Value::INTEGER(static_cast<int32_t>(i)),
               Value::BIGINT(i * 1000000007LL),
               Value::DECIMAL(i * 101, 12, 2),
               Value::DECIMAL(hugeint_t(i) * hugeint_t(1000000000000LL) * hugeint_t(1000000LL), 38, 10),
               Value(text),
               Value::DATE(static_cast<date_t>(i)),
               Value::TIMESTAMP(i * 1000),
               Value::TIMESTAMP_NTZ(i * 1000)};
  };
  std::vector<Row> stored, fresh;
  for (int64_t i = 0; i < 50; i++) {
    stored.push_back(row(i, "a string longer than inline storage " + std::to_string(i)));
    fresh.push_back(row(i, "a string longer than inline storage " + std::to_string(i)));
  }
  // One value of one row changes, column by column.
  for (idx_t c = 0; c < types.size(); c++) {
    std::vector<Row> changed = fresh;
    changed[17][c] = row(1000, "x")[c];
    TableCommit commit = Columnar(types, stored, changed, {});
    EXPECT_EQ(commit.deleted_rows, std::vector<row_t>({kFirstId + 17})) << "column " << c;
    EXPECT_EQ(commit.inserted.Count(), 1u) << "column " << c;
    ExpectSameDiff(types, stored, changed, {});
  }
  // DECIMAL by its value at the column's scale: 1.00 stays 1.00.
  EXPECT_EQ(Columnar({decimal}, {{Value::DECIMAL(100, 12, 2)}}, {{Value::DECIMAL(100, 12, 2)}}, {}).ChangedRows(), 0u);
}

TEST(RecomputeDiff, NestedAndIntervalValues) {
  LogicalType list = LogicalType::List(TypeId::DOUBLE);
  LogicalType record = LogicalType::Struct({{"k", TypeId::BIGINT}, {"s", TypeId::VARCHAR}});
  std::vector<LogicalType> types = {list, record, TypeId::INTERVAL};
  auto row = [&](std::vector<Value> elements, int64_t k, const std::string& s, interval_t iv) {
    return Row{Value::LIST(list, std::move(elements)), Value::STRUCT(record, {Value::BIGINT(k), Value(s)}),
               Value::INTERVAL(iv)};
  };
  interval_t month{1, 0, 0}, days{0, 30, 0};
  std::vector<Row> stored = {row({Value::DOUBLE(-0.0)}, 1, "a", month), row({}, 2, "b", month),
                             row({Value::DOUBLE(1), Null(TypeId::DOUBLE)}, 3, "c", month)};
  // -0.0 in a list equals 0.0; an empty list is not a NULL one; '30 days'
  // is not '1 month' to the diff (its encoding prints them apart).
  std::vector<Row> fresh = {row({Value::DOUBLE(0.0)}, 1, "a", month), row({}, 2, "b", days),
                            row({Value::DOUBLE(1), Null(TypeId::DOUBLE)}, 3, "c", month)};
  TableCommit commit = Columnar(types, stored, fresh, {});
  EXPECT_EQ(commit.deleted_rows, std::vector<row_t>({kFirstId + 1}));
  EXPECT_EQ(commit.inserted.Count(), 1u);
  ExpectSameDiff(types, stored, fresh, {});
  // Keyed by the struct: the interval pair compares equal (Value::Compare),
  // so it is no update, as DiffRows decides.
  ExpectSameDiff(types, stored, fresh, {1});
  EXPECT_EQ(Columnar(types, stored, fresh, {1}).ChangedRows(), 0u);
}

TEST(RecomputeDiff, OneColumnOfOneRowAmongManyEqualOnes) {
  // 3,000 copies of one row (one hash, one chain) and one that differs in its
  // last column only: the copies all match, the one row is a delete + insert.
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR, LogicalType::Decimal(12, 2)};
  Row same = {Value::BIGINT(7), Value("seven"), Value::DECIMAL(700, 12, 2)};
  std::vector<Row> stored(3000, same), fresh(3000, same);
  stored[1234][2] = Value::DECIMAL(701, 12, 2);
  fresh.back()[2] = Value::DECIMAL(699, 12, 2);
  TableCommit commit = Columnar(types, stored, fresh, {}, nullptr, STANDARD_VECTOR_SIZE);
  EXPECT_EQ(commit.deleted_rows, std::vector<row_t>({kFirstId + 1234}));
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.GetValue(2, 0), Value::DECIMAL(699, 12, 2));
}

TEST(RecomputeDiff, KeyedUpdatesAndRepeatedKeys) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::BIGINT};
  auto r = [](int64_t k, int64_t v) { return Row{Value::BIGINT(k), Value::BIGINT(v)}; };
  std::vector<Row> stored = {r(1, 10), r(2, 20), r(3, 30)};
  TableCommit commit = Columnar(types, stored, {r(3, 30), r(1, 11), r(4, 40)}, {0});
  EXPECT_EQ(commit.updated_row_ids, std::vector<row_t>({kFirstId}));
  EXPECT_EQ(commit.updated.GetValue(1, 0), Value::BIGINT(11));
  EXPECT_EQ(commit.deleted_rows, std::vector<row_t>({kFirstId + 1}));
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.GetValue(0, 0), Value::BIGINT(4));
  // A key repeated on either side, among matched or unmatched rows: whole rows pair.
  ExpectSameDiff(types, stored, {r(1, 10), r(1, 11), r(2, 20)}, {0});
  ExpectSameDiff(types, {r(1, 10), r(1, 12), r(2, 20)}, {r(1, 10), r(2, 21)}, {0});
  ExpectSameDiff(types, {r(5, 1), r(5, 2), r(2, 20)}, {r(2, 21)}, {0});
  // The repeat found after a pair was made: still no update.
  TableCommit late = Columnar(types, {r(2, 20), r(1, 10), r(1, 12)}, {r(1, 10), r(2, 21)}, {0});
  EXPECT_TRUE(late.updated_row_ids.empty());
  EXPECT_EQ(late.deleted_rows, std::vector<row_t>({kFirstId, kFirstId + 2}));
  ExpectSameDiff(types, {r(2, 20), r(1, 10), r(1, 12)}, {r(1, 10), r(2, 21)}, {0});
  ExpectSameDiff(types, {r(1, 10), r(2, 20)}, {r(2, 20), r(3, 1), r(3, 2)}, {0});
  // NULL keys pair with NULL keys.
  Row null_key = {Null(TypeId::BIGINT), Value::BIGINT(1)};
  Row null_key_new = {Null(TypeId::BIGINT), Value::BIGINT(2)};
  TableCommit nulls = Columnar(types, {null_key}, {null_key_new}, {0});
  EXPECT_EQ(nulls.updated_row_ids, std::vector<row_t>({kFirstId}));
}

TEST(RecomputeDiff, RandomDiffsMatchDiffRows) {
  // Small domains: many copies, NULLs, -0.0/NaN, long and short strings.
  LogicalType list = LogicalType::List(TypeId::BIGINT);
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::DOUBLE, TypeId::VARCHAR, LogicalType::Decimal(12, 2), list};
  std::mt19937_64 rng(20261207);
  auto pick = [&](idx_t n) { return static_cast<idx_t>(rng() % n); };
  auto value = [&](idx_t c, int64_t key) -> Value {
    if (c == 0) return key >= 0 ? Value::BIGINT(key) : (pick(8) == 0 ? Null(TypeId::BIGINT) : Value::BIGINT(static_cast<int64_t>(pick(4))));
    if (pick(7) == 0) return Value(types[c]);
    switch (c) {
      case 1: {
        const double choices[] = {0.0, -0.0, NAN, -NAN, 1.5};
        return Value::DOUBLE(choices[pick(5)]);
      }
      case 2: {
        const char* choices[] = {"", "a", "ab", "a string past the inline twelve bytes"};
        return Value(choices[pick(4)]);
      }
      case 3: return Value::DECIMAL(static_cast<int64_t>(pick(3)) * 50 - 50, 12, 2);
      default: {
        std::vector<Value> elements;
        for (idx_t i = pick(3); i > 0; i--) elements.push_back(pick(4) == 0 ? Null(TypeId::BIGINT) : Value::BIGINT(static_cast<int64_t>(pick(2))));
        return Value::LIST(list, std::move(elements));
      }
    }
  };
  for (int trial = 0; trial < 60; trial++) {
    bool keyed = trial % 2 == 1;
    bool unique_keys = keyed && trial % 4 == 1;
    idx_t n = 1 + pick(trial < 50 ? 40 : 5000);
    std::vector<Row> stored, fresh;
    for (idx_t i = 0; i < n; i++) {
      Row row;
      for (idx_t c = 0; c < types.size(); c++) row.push_back(value(c, unique_keys ? static_cast<int64_t>(i) : -1));
      stored.push_back(std::move(row));
    }
    // The recomputed rows: most stored rows again (shuffled), some changed in one column, some new.
    for (auto& row : stored) {
      idx_t roll = pick(10);
      if (roll == 0) continue;
      Row copy = row;
      if (roll == 1) {
        idx_t c = 1 + pick(types.size() - 1);
        copy[c] = value(c, -1);
      }
      fresh.push_back(std::move(copy));
    }
    for (idx_t i = pick(4); i > 0; i--) {
      Row row;
      for (idx_t c = 0; c < types.size(); c++) row.push_back(value(c, unique_keys ? static_cast<int64_t>(n + i) : -1));
      fresh.push_back(std::move(row));
    }
    std::shuffle(fresh.begin(), fresh.end(), rng);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(n) + " rows");
    ExpectSameDiff(types, stored, fresh, keyed ? std::vector<idx_t>{0} : std::vector<idx_t>{}, 1 + pick(STANDARD_VECTOR_SIZE));
  }
}

TEST(RecomputeDiff, ResultOfOtherTypesIsConverted) {
  // The query's INTEGER column into the view's BIGINT one.
  RecomputeDiff diff({TypeId::BIGINT}, MakeCollection({TypeId::INTEGER}, {{Value::INTEGER(5)}, {Value::INTEGER(6)}}), {});
  ChunkCollection stored = MakeCollection({TypeId::BIGINT}, {{Value::BIGINT(5)}});
  int64_t id = kFirstId;
  EXPECT_EQ(diff.MatchStored(stored.Chunk(0), &id), 0u);
  TableCommit commit;
  diff.Finish(commit, nullptr);
  ASSERT_EQ(commit.inserted.Count(), 1u);
  EXPECT_EQ(commit.inserted.Types()[0], LogicalType(TypeId::BIGINT));
  EXPECT_EQ(commit.inserted.GetValue(0, 0), Value::BIGINT(6));
}

}  // namespace
}  // namespace lakestream
