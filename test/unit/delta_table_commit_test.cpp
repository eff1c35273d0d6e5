// DeltaTable::Commit moves the table's snapshot forward in place when no
// reader holds it, and copies it when one does: either way the reader keeps
// the version it read, and the table ends at the snapshot the log gives.
#include <gtest/gtest.h>

#include "delta_table_util.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using testing::MakeTable;
using testing::Rows;
using testing::UpdateOneRow;

// The table's state matches a fresh load of its log, and its file list
// points into its own snapshot.
void ExpectSameAsReloaded(const DeltaTable& table, const std::string& path) {
  auto reloaded = DeltaTable::Open(FileSystem::Default(), "t", path);
  const auto& mine = table.Snapshot();
  const auto& fresh = reloaded->Snapshot();
  EXPECT_EQ(mine.version, fresh.version);
  ASSERT_EQ(mine.files.size(), fresh.files.size());
  for (const auto& [file, add] : fresh.files) {
    auto it = mine.files.find(file);
    ASSERT_NE(it, mine.files.end()) << file;
    // (dataChange differs by design: a checkpoint records false)
    EXPECT_EQ(it->second.size, add.size);
    EXPECT_EQ(it->second.stats, add.stats);
    EXPECT_EQ(it->second.partition_values, add.partition_values);
  }
  auto state = table.State();
  ASSERT_EQ(state->files.size(), mine.files.size());
  for (const delta::AddFile* add : state->files) EXPECT_EQ(&mine.files.at(add->path), add);
}

TEST(DeltaTableCommit, AReaderKeepsItsSnapshotAcrossACommit) {
  testing::ScopedTempDir dir("lakestream_table_commit");
  std::string path = dir.path + "/t";
  auto table = MakeTable(FileSystem::Default(), path);
  auto held = table->State();  // as a scan still open would
  ASSERT_EQ(held->snapshot.version, 1);
  TableCommit more;
  more.operation = "WRITE";
  more.inserted = Rows(10, 5);
  table->Commit(more);
  EXPECT_EQ(held->snapshot.version, 1);
  EXPECT_EQ(held->snapshot.files.size(), 1u);
  ASSERT_EQ(held->files.size(), 1u);
  EXPECT_EQ(&held->snapshot.files.begin()->second, held->files[0]);
  EXPECT_EQ(table->Version(), 2);
  ExpectSameAsReloaded(*table, path);
}

TEST(DeltaTableCommit, NothingHoldingTheSnapshotMovesItForward) {
  testing::ScopedTempDir dir("lakestream_table_commit");
  std::string path = dir.path + "/t";
  auto table = MakeTable(FileSystem::Default(), path);
  // Through checkpoints (every 10 versions): rewrites of the one file
  // (tombstones), then appends.
  for (int i = 0; i < 12; i++) {
    TableCommit update = UpdateOneRow();
    table->Commit(update);
  }
  for (int i = 0; i < 12; i++) {
    TableCommit insert;
    insert.operation = "WRITE";
    insert.inserted = Rows(100 + i, 1);
    table->Commit(insert);
  }
  EXPECT_EQ(table->Version(), 25);
  ExpectSameAsReloaded(*table, path);
}

}  // namespace
}  // namespace lakestream
