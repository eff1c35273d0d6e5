// The typed stored rows of aggregate views (ivm/view_stored_rows.hpp): rows
// of every flat type, NULLs included, kept by id, compared with rows of a
// chunk cell by cell, gathered back into chunks equal to what was set, and
// erased; nested column types are not supported; file paths renumbered.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ivm/view_diff.hpp"
#include "ivm/view_stored_rows.hpp"

namespace lakestream {
namespace {

const std::vector<LogicalType> kTypes = {TypeId::BOOLEAN,   TypeId::INTEGER, TypeId::BIGINT, TypeId::DOUBLE,
                                         LogicalType::Decimal(38, 4), TypeId::VARCHAR, TypeId::DATE,
                                         TypeId::TIMESTAMP, TypeId::INTERVAL};

Row Sample(int i) {
  return {Value::BOOLEAN(i % 2 == 0),
          Value::INTEGER(-i),
          Value::BIGINT(int64_t(i) << 40),
          Value::DOUBLE(i / 3.0),
          Value::DECIMAL(static_cast<hugeint_t>(i) * 1000000000000LL - 7, 38, 4),
          Value(std::string("group ") + std::string(static_cast<size_t>(i % 40), 'x')),
          Value::DATE(19000 + i),
          Value::TIMESTAMP(1700000000000000LL + i),
          Value::INTERVAL({i, -i, int64_t(i) * 1000})};
}

Row Nulls() {
  Row row;
  for (auto& t : kTypes) row.emplace_back(t);
  return row;
}

DataChunk ChunkOf(const std::vector<Row>& rows) {
  DataChunk chunk;
  chunk.Initialize(kTypes, rows.size());
  for (idx_t r = 0; r < rows.size(); r++) {
    for (idx_t c = 0; c < kTypes.size(); c++) chunk.SetValue(c, r, rows[r][c]);
  }
  chunk.SetCardinality(rows.size());
  return chunk;
}

TEST(ViewStoredRows, EveryFlatTypeAndNullsRoundTrip) {
  ViewStoredRows stored(kTypes);
  std::vector<Row> rows = {Sample(1), Nulls(), Sample(2)};
  Row mixed = Sample(3);
  for (idx_t c = 0; c < mixed.size(); c += 2) mixed[c] = Value(kTypes[c]);
  rows.push_back(mixed);
  DataChunk chunk = ChunkOf(rows);
  // Ids far apart: the store grows to them.
  const std::vector<ViewStoredRows::Id> ids = {7, 0, 300, 12};
  uint32_t file = stored.PathId("part-0.parquet");
  stored.Set(ids[0], rows[0], file, 5);  // from a Row (a scan of the view)
  for (idx_t r = 1; r < rows.size(); r++) stored.Set(ids[r], chunk, r, file, static_cast<uint32_t>(r));  // from a chunk
  EXPECT_EQ(stored.Size(), 4u);
  EXPECT_FALSE(stored.Has(1));
  EXPECT_FALSE(stored.Has(100000));
  for (idx_t r = 0; r < rows.size(); r++) {
    EXPECT_TRUE(stored.Has(ids[r]));
    for (idx_t other = 0; other < rows.size(); other++) {
      EXPECT_EQ(stored.Equals(ids[r], chunk, other), r == other) << r << " vs " << other;
    }
  }
  EXPECT_EQ(stored.Position(ids[0]), 5u);
  EXPECT_EQ(stored.Paths()[stored.File(ids[2])], "part-0.parquet");
  // Gathered in any order, the rows come back as they were set.
  ChunkCollection out(kTypes);
  stored.Gather({12, 7, 0, 300}, out);
  ASSERT_EQ(out.Count(), 4u);
  const idx_t order[] = {3, 0, 1, 2};
  for (idx_t r = 0; r < 4; r++) {
    for (idx_t c = 0; c < kTypes.size(); c++) {
      EXPECT_EQ(out.GetValue(c, r).ToString(), rows[order[r]][c].ToString()) << "row " << r << " column " << c;
      EXPECT_EQ(out.GetValue(c, r).IsNull(), rows[order[r]][c].IsNull());
    }
  }
  // A value set again replaces the old one (a shorter string, a NULL).
  Row changed = rows[0];
  changed[5] = Value("g");
  changed[4] = Value(kTypes[4]);
  stored.Set(ids[0], changed, file, 6);
  EXPECT_FALSE(stored.Equals(ids[0], chunk, 0));
  EXPECT_TRUE(stored.Equals(ids[0], ChunkOf({changed}), 0));
  EXPECT_EQ(stored.Size(), 4u);
  stored.Erase(ids[1]);
  stored.Erase(ids[1]);
  EXPECT_FALSE(stored.Has(ids[1]));
  EXPECT_EQ(stored.Size(), 3u);
  stored.Clear();
  EXPECT_EQ(stored.Size(), 0u);
  EXPECT_FALSE(stored.Has(ids[0]));
  EXPECT_TRUE(stored.Paths().empty());
}

TEST(ViewStoredRows, ManyRowsGatherAcrossChunks) {
  ViewStoredRows stored(kTypes);
  std::vector<Row> rows;
  for (int i = 0; i < 5000; i++) rows.push_back(i % 97 == 0 ? Nulls() : Sample(i));
  for (idx_t start = 0; start < rows.size(); start += STANDARD_VECTOR_SIZE) {
    std::vector<Row> part(rows.begin() + static_cast<std::ptrdiff_t>(start),
                          rows.begin() + static_cast<std::ptrdiff_t>(std::min<idx_t>(rows.size(), start + STANDARD_VECTOR_SIZE)));
    DataChunk chunk = ChunkOf(part);
    for (idx_t r = 0; r < part.size(); r++) stored.Set(static_cast<ViewStoredRows::Id>(start + r), chunk, r, 0, 0);
  }
  std::vector<ViewStoredRows::Id> ids;
  for (ViewStoredRows::Id id = 5000; id-- > 0;) ids.push_back(id);  // backwards
  ChunkCollection out(kTypes);
  stored.Gather(ids, out);
  ASSERT_EQ(out.Count(), rows.size());
  for (idx_t r = 0; r < out.Count(); r += 37) {
    EXPECT_EQ(EncodeRow(Row{out.GetValue(5, r), out.GetValue(4, r), out.GetValue(8, r)}),
              EncodeRow(Row{rows[ids[r]][5], rows[ids[r]][4], rows[ids[r]][8]}))
        << r;
  }
}

TEST(ViewStoredRows, NestedTypesAreNotSupported) {
  EXPECT_TRUE(ViewStoredRows::Supports(kTypes));
  EXPECT_FALSE(ViewStoredRows::Supports({TypeId::BIGINT, LogicalType::List(TypeId::BIGINT)}));
  EXPECT_THROW(ViewStoredRows({LogicalType::List(TypeId::BIGINT)}), std::exception);
}

TEST(ViewStoredRows, PathsRenumberedWhenMostHoldNoRow) {
  ViewStoredRows stored({TypeId::BIGINT});
  // 200 commits, each rewriting both rows into a new file.
  for (int f = 0; f < 200; f++) {
    uint32_t file = stored.PathId("part-" + std::to_string(f));
    stored.Set(0, Row{Value::BIGINT(f)}, file, 0);
    stored.Set(1, Row{Value::BIGINT(-f)}, file, 1);
    stored.CompactPaths(1);
  }
  EXPECT_LE(stored.Paths().size(), 66u);
  EXPECT_EQ(stored.Paths()[stored.File(0)], "part-199");
  EXPECT_EQ(stored.Paths()[stored.File(1)], "part-199");
  EXPECT_EQ(stored.Position(1), 1u);
}

}  // namespace
}  // namespace lakestream
