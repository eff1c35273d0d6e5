// ViewRowIndex (ivm/view_row_index.hpp) on a table with deletion vectors:
// Locate names a distinct live row equal to each wanted row (copies of one
// row taken one at a time, over two Locates as well), refuses more copies
// than the table holds, and follows the table as it grows (new files with
// keys below and above the indexed range, enough rows to merge its recent
// entries into the base). Ordered by an integer column (with negative keys,
// the smallest and largest BIGINT and NULLs) or, without one, by the hash.
// Every check deletes the located rows and compares what is left.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ivm/view_diff.hpp"
#include "ivm/view_row_index.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

class ViewRowIndexTest : public ::testing::Test {
 protected:
  void Create(std::vector<LogicalType> types) {
    types_ = std::move(types);
    DeltaTableDefinition definition;
    for (idx_t c = 0; c < types_.size(); c++) {
      definition.columns.push_back({"c" + std::to_string(c), types_[c], true, Value(types_[c])});
    }
    definition.properties["delta.enableDeletionVectors"] = "true";
    table_ = DeltaTable::Create(FileSystem::Default(), "t", dir_.path + "/t", definition);
  }
  void Insert(const std::vector<Row>& rows) {
    TableCommit commit;
    commit.operation = "WRITE";
    commit.inserted = MakeCollection(types_, rows);
    table_->Commit(commit);
    held_.insert(held_.end(), rows.begin(), rows.end());
  }
  // Locates `rows` through the index, deletes them and checks the table
  // holds what is left; false when Locate refused.
  bool Remove(const std::vector<Row>& rows) {
    index_.Sync(*table_);
    std::vector<row_t> ids;
    if (!index_.Locate(MakeCollection(types_, rows), ids)) return false;
    EXPECT_EQ(ids.size(), rows.size());
    std::vector<row_t> distinct = ids;
    std::sort(distinct.begin(), distinct.end());
    EXPECT_EQ(std::unique(distinct.begin(), distinct.end()), distinct.end()) << "a row located twice";
    TableCommit commit;
    commit.operation = "DELETE";
    commit.deleted_rows = ids;
    table_->Commit(commit);
    index_.Forget();
    for (const Row& row : rows) {
      auto it = std::find(held_.begin(), held_.end(), row);
      EXPECT_NE(it, held_.end());
      if (it != held_.end()) held_.erase(it);
    }
    CheckHeld();
    return true;
  }
  void CheckHeld() {
    std::vector<idx_t> columns;
    for (idx_t c = 0; c < types_.size(); c++) columns.push_back(c);
    auto scan = MakeDeltaScan(table_->State(), columns);
    ChunkCollection all(types_);
    DataChunk chunk;
    chunk.Initialize(types_);
    while (scan->Next(chunk, nullptr)) all.Append(chunk);
    std::vector<std::string> got, want;
    for (const Row& row : CollectRows(all)) got.push_back(EncodeRow(row));
    for (const Row& row : held_) want.push_back(EncodeRow(row));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
    EXPECT_EQ(index_.LiveRows(), held_.size());
  }

  testing::ScopedTempDir dir_{"view_row_index"};
  std::vector<LogicalType> types_;
  std::unique_ptr<DeltaTable> table_;
  ViewRowIndex index_;
  std::vector<Row> held_;  // the rows the table holds
};

Row Keyed(std::optional<int64_t> id, const std::string& s) {
  return {id ? Value::BIGINT(*id) : Value(LogicalType(TypeId::BIGINT)), Value::VARCHAR(s)};
}

TEST_F(ViewRowIndexTest, KeyedCopiesNegativesAndNullsLeaveOneAtATime) {
  Create({TypeId::BIGINT, TypeId::VARCHAR});
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  std::vector<Row> rows;
  for (int64_t i = -50; i < 50; i++) rows.push_back(Keyed(i, "r" + std::to_string(i)));
  for (int copy = 0; copy < 3; copy++) rows.push_back(Keyed(7, "three"));  // three copies of one row
  rows.push_back(Keyed(7, "other"));                                       // the same key, another row
  rows.push_back(Keyed(std::nullopt, "null"));
  rows.push_back(Keyed(std::nullopt, "null"));
  rows.push_back(Keyed(kMin, "min"));
  rows.push_back(Keyed(kMax, "max"));
  Insert(rows);
  EXPECT_TRUE(Remove({Keyed(7, "three"), Keyed(7, "three"), Keyed(-3, "r-3"), Keyed(std::nullopt, "null"), Keyed(kMin, "min")}));
  // One copy of "three" is left: two are more than the table holds, and nothing is deleted.
  EXPECT_FALSE(Remove({Keyed(7, "three"), Keyed(7, "three")}));
  EXPECT_FALSE(Remove({Keyed(kMin, "min")}));
  EXPECT_FALSE(Remove({Keyed(7, "r7x")}));
  CheckHeld();
  EXPECT_TRUE(Remove({Keyed(7, "three"), Keyed(7, "other"), Keyed(std::nullopt, "null"), Keyed(kMax, "max"), Keyed(49, "r49")}));
}

TEST_F(ViewRowIndexTest, WithoutAnIntegerColumnRowsAreFoundByTheirHash) {
  Create({TypeId::VARCHAR, TypeId::DOUBLE});
  std::vector<Row> rows;
  for (int i = 0; i < 300; i++) rows.push_back({Value::VARCHAR("s" + std::to_string(i % 40)), Value::DOUBLE(i % 7)});
  Insert(rows);
  std::vector<Row> gone(rows.begin(), rows.begin() + 120);  // rows that repeat (i and i + 280 agree) among them
  EXPECT_TRUE(Remove(gone));
  EXPECT_FALSE(Remove({{Value::VARCHAR("s1"), Value::DOUBLE(6)}}));  // its one copy (i = 41) is gone
  EXPECT_TRUE(Remove(std::vector<Row>(rows.begin() + 120, rows.end())));
}

TEST_F(ViewRowIndexTest, FollowsNewFilesBelowAndAboveItsRangeAndMergesThem) {
  Create({TypeId::VARCHAR, TypeId::INTEGER});  // the order key is the second column
  auto row = [](int32_t k) { return Row{Value::VARCHAR("v" + std::to_string(k % 5)), Value::INTEGER(k)}; };
  std::vector<Row> first;
  for (int32_t k = 1000; k < 2000; k++) first.push_back(row(k));
  Insert(first);
  EXPECT_TRUE(Remove({row(1000), row(1500), row(1999)}));
  // New files: keys below and above the indexed range, then enough rows
  // (over 2^16) that the index merges what it added into its base.
  Insert({row(-5), row(10), row(5000), row(1500)});
  EXPECT_TRUE(Remove({row(-5), row(1500), row(5000), row(1001)}));
  std::vector<Row> many;
  for (int32_t k = 0; k < 70000; k++) many.push_back(row(3 * k - 20000));
  Insert(many);
  std::vector<Row> gone = {row(10), row(1998), row(-20000), row(3 * 69999 - 20000), row(1002)};
  for (int32_t k = 100; k < 2000; k += 97) gone.push_back(row(3 * k - 20000));
  EXPECT_TRUE(Remove(gone));
  EXPECT_FALSE(Remove({row(5000)}));  // its one copy left before; row(10) had two (one in `many`)
  EXPECT_TRUE(Remove({row(1003), row(3 * 500 - 20000)}));
}

}  // namespace
}  // namespace lakestream
