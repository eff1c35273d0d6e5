// DeltaTable::Commit on a table with delta.enableDeletionVectors = true:
// deleted rows leave existing files through deletion vectors (remove + add of
// the same path), a second delete unions with the first, a file with no row
// left is removed, the change feed still gets its cdc file, readers holding
// the old snapshot keep it, a reopened table reads the vectors, a concurrent
// writer whose file's vector changed conflicts, and VACUUM deletes vectors
// no version uses.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "common/exception.hpp"
#include "delta_table_util.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using testing::InsertRows;

std::unique_ptr<DeltaTable> MakeDvTable(const std::string& path, bool cdf) {
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  if (cdf) definition.properties["delta.enableChangeDataFeed"] = "true";
  definition.properties["delta.enableDeletionVectors"] = "true";
  auto table = DeltaTable::Create(FileSystem::Default(), "t", path, definition);
  auto insert = InsertRows(0, 10);  // k = 0..9 in one file
  table->Commit(insert);
  return table;
}

// The k values a scan of `state` returns, sorted.
std::vector<int64_t> Keys(std::shared_ptr<const DeltaSnapshotState> state) {
  auto scan = MakeDeltaScan(std::move(state), {0});
  DataChunk chunk;
  chunk.Initialize({TypeId::BIGINT});
  std::vector<int64_t> keys;
  while (scan->Next(chunk, nullptr)) {
    for (idx_t r = 0; r < chunk.size(); r++) keys.push_back(chunk.GetValue(0, r).GetBigint());
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

TableCommit DeleteRows(std::vector<row_t> rows) {
  TableCommit del;
  del.operation = "DELETE";
  del.deleted_rows = std::move(rows);
  return del;
}

struct Counted {
  int removes = 0, adds = 0, cdcs = 0;
  std::vector<delta::AddFile> added;
};

Counted ActionsOf(DeltaTable& table, int64_t version) {
  auto actions = table.Log().ReadCommit(version);
  EXPECT_TRUE(actions.ok());
  Counted c;
  for (auto& a : actions.value()) {
    if (std::holds_alternative<delta::RemoveFile>(a)) c.removes++;
    if (auto* add = std::get_if<delta::AddFile>(&a)) {
      c.adds++;
      c.added.push_back(*add);
    }
    if (std::holds_alternative<delta::CdcFile>(a)) c.cdcs++;
  }
  return c;
}

int64_t Cardinality(const delta::AddFile& add) {
  if (!add.deletion_vector) return 0;
  return delta::ParseDeletionVectorDescriptor(*add.deletion_vector).value().cardinality;
}

TEST(DeltaTableDeletionVectors, DeletesUpdatesAndUnionWithoutRewriting) {
  testing::ScopedTempDir dir("lakestream_dv_table");
  std::string path = dir.path + "/t";
  auto table = MakeDvTable(path, true);
  ASSERT_TRUE(table->Snapshot().protocol.ListsWriterFeature("deletionVectors"));
  std::string data_file = table->Snapshot().files.begin()->first;
  auto before = table->State();  // a reader holding version 1

  auto del = DeleteRows({2, 5});
  table->Commit(del);
  auto v2 = ActionsOf(*table, 2);
  EXPECT_EQ(v2.removes, 1);
  ASSERT_EQ(v2.adds, 1);
  EXPECT_EQ(v2.added[0].path, data_file);  // the same file, not a rewrite
  EXPECT_EQ(Cardinality(v2.added[0]), 2);
  EXPECT_NE(v2.added[0].stats->find("\"tightBounds\":false"), std::string::npos);
  EXPECT_EQ(v2.cdcs, 1);  // the deleted rows for the change feed
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{0, 1, 3, 4, 6, 7, 8, 9}));
  EXPECT_EQ(Keys(before), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(table->RowCount(), 8u);

  // A second delete on the same file: the union of both.
  auto again = DeleteRows({7});
  table->Commit(again);
  EXPECT_EQ(Cardinality(ActionsOf(*table, 3).added.at(0)), 3);

  // An UPDATE: the old row goes by vector, the new one to a new file.
  TableCommit update;
  update.operation = "UPDATE";
  update.updated_row_ids = {0};
  update.updated = testing::Rows(100, 1);
  table->Commit(update);
  auto v4 = ActionsOf(*table, 4);
  ASSERT_EQ(v4.adds, 2);
  int with_vector = 0;
  for (auto& add : v4.added) {
    if (add.path == data_file) {
      with_vector++;
      EXPECT_EQ(Cardinality(add), 4);
    }
  }
  EXPECT_EQ(with_vector, 1);
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{1, 3, 4, 6, 8, 9, 100}));

  // Reopened from the log: the same rows; an old version: the old rows.
  auto reopened = DeltaTable::Open(FileSystem::Default(), "t", path);
  EXPECT_EQ(Keys(reopened->State()), (std::vector<int64_t>{1, 3, 4, 6, 8, 9, 100}));
  EXPECT_EQ(Keys(reopened->AtVersion(2)->State()), (std::vector<int64_t>{0, 1, 3, 4, 6, 7, 8, 9}));

  // Deleting the file's last rows removes it outright.
  uint64_t index = 0;
  for (auto* add : table->State()->files) {
    if (add->path == data_file) break;
    index++;
  }
  std::vector<row_t> rest;
  for (row_t r : {1, 3, 4, 6, 8, 9}) rest.push_back(static_cast<row_t>(index << 32) | r);
  auto last = DeleteRows(rest);
  table->Commit(last);
  auto v5 = ActionsOf(*table, 5);
  EXPECT_EQ(v5.removes, 1);
  EXPECT_EQ(v5.adds, 0);
  EXPECT_FALSE(table->Snapshot().files.count(data_file));
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{100}));
}

TEST(DeltaTableDeletionVectors, WithoutTheFeedNothingIsRead) {
  testing::ScopedTempDir dir("lakestream_dv_table");
  std::string path = dir.path + "/t";
  auto table = MakeDvTable(path, false);
  auto del = DeleteRows({0, 9});
  table->Commit(del);
  auto v2 = ActionsOf(*table, 2);
  EXPECT_EQ(v2.cdcs, 0);
  ASSERT_EQ(v2.adds, 1);
  EXPECT_EQ(Cardinality(v2.added[0]), 2);
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(DeltaTableDeletionVectors, TheNextDeleteUnionsWithTheVectorThisProcessWrote) {
  testing::ScopedTempDir dir("lakestream_dv_table");
  std::string path = dir.path + "/t";
  auto table = MakeDvTable(path, false);
  auto first = DeleteRows({1});
  table->Commit(first);
  // The vector file of version 2 goes away: the next delete on that data
  // file unions with the rows it remembers writing, without reading it.
  int vector_files = 0;
  for (auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.path().filename().string().rfind("deletion_vector_", 0) != 0) continue;
    std::filesystem::remove(entry.path());
    vector_files++;
  }
  ASSERT_EQ(vector_files, 1);
  auto second = DeleteRows({3, 7});
  table->Commit(second);
  auto v3 = ActionsOf(*table, 3);
  ASSERT_EQ(v3.adds, 1);
  EXPECT_EQ(Cardinality(v3.added[0]), 3);
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{0, 2, 4, 5, 6, 8, 9}));
  // A reopened table reads the union from the new vector file.
  auto reopened = DeltaTable::Open(FileSystem::Default(), "t", path);
  EXPECT_EQ(Keys(reopened->State()), (std::vector<int64_t>{0, 2, 4, 5, 6, 8, 9}));
}

TEST(DeltaTableDeletionVectors, AConcurrentVectorOnTheSameFileConflicts) {
  testing::ScopedTempDir dir("lakestream_dv_table");
  std::string path = dir.path + "/t";
  auto first = MakeDvTable(path, true);
  auto second = DeltaTable::Open(FileSystem::Default(), "t", path);
  auto a = DeleteRows({1});
  first->Commit(a);
  // The second writer read version 1: committing over version 2 would
  // bring row 1 back (its vector lacks it).
  auto b = DeleteRows({4});
  EXPECT_THROW(second->Commit(b), ConflictError);
  second->Refresh();
  EXPECT_EQ(Keys(second->State()), (std::vector<int64_t>{0, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(DeltaTableDeletionVectors, VacuumDeletesVectorsNoVersionUses) {
  testing::ScopedTempDir dir("lakestream_dv_table");
  std::string path = dir.path + "/t";
  auto table = MakeDvTable(path, false);
  auto d1 = DeleteRows({1});
  table->Commit(d1);
  auto d2 = DeleteRows({2});
  table->Commit(d2);
  auto d3 = DeleteRows({3});
  table->Commit(d3);
  auto vectors = [&] {
    std::vector<std::string> out;
    for (auto& e : std::filesystem::directory_iterator(path)) {
      if (e.path().filename().string().rfind("deletion_vector_", 0) == 0) out.push_back(e.path().string());
    }
    return out;
  };
  ASSERT_EQ(vectors().size(), 3u);
  // Within the retention every vector stays (time travel needs them).
  EXPECT_TRUE(table->Vacuum(std::nullopt, false).empty());
  EXPECT_EQ(vectors().size(), 3u);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the last removal
  auto doomed = table->Vacuum(0, false);
  EXPECT_EQ(doomed.size(), 2u);
  auto left = vectors();
  ASSERT_EQ(left.size(), 1u);
  auto dv = delta::ParseDeletionVectorDescriptor(*table->Snapshot().files.begin()->second.deletion_vector);
  EXPECT_EQ(delta::DeletionVectorFile(table->Snapshot(), dv.value()).value(), left[0]);
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{0, 4, 5, 6, 7, 8, 9}));
}

TEST(DeltaTableDeletionVectors, OptimizeAppliesTheVector) {
  testing::ScopedTempDir dir("lakestream_dv_table");
  std::string path = dir.path + "/t";
  auto table = MakeDvTable(path, false);
  auto d = DeleteRows({0, 1});
  table->Commit(d);
  auto [removed, added] = table->Optimize();
  EXPECT_EQ(removed, 1);
  EXPECT_EQ(added, 1);
  EXPECT_FALSE(table->Snapshot().files.begin()->second.deletion_vector.has_value());
  EXPECT_EQ(table->Snapshot().files.begin()->second.NumRecords(), 8);
  EXPECT_EQ(Keys(table->State()), (std::vector<int64_t>{2, 3, 4, 5, 6, 7, 8, 9}));
}

}  // namespace
}  // namespace lakestream
