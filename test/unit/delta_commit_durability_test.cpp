// DeltaTable::Commit's fsync policy, through FaultInjectionFileSystem: every
// new data and change data file, and each directory naming one, is fsynced
// once, together with the commit's temp file, before the commit is linked into
// _delta_log; then _delta_log is fsynced. A failure of any fsync before the
// link leaves no commit behind.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "common/exception.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using Op = FaultInjectionFileSystem::Op;

ChunkCollection Rows(int64_t from, int64_t count) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::BIGINT};
  ChunkCollection rows(types);
  DataChunk chunk;
  chunk.Initialize(types, static_cast<idx_t>(count));
  for (int64_t i = 0; i < count; i++) {
    chunk.data[0].SetValue(static_cast<idx_t>(i), Value::BIGINT(from + i));
    chunk.data[1].SetValue(static_cast<idx_t>(i), Value::BIGINT(i * 10));
  }
  chunk.SetCardinality(static_cast<idx_t>(count));
  rows.Append(chunk);
  return rows;
}

// A table with the change data feed on and one data file of 10 rows.
std::unique_ptr<DeltaTable> MakeTable(FileSystem* fs, const std::string& path) {
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  definition.properties["delta.enableChangeDataFeed"] = "true";
  auto table = DeltaTable::Create(fs, "t", path, definition);
  TableCommit insert;
  insert.operation = "WRITE";
  insert.inserted = Rows(0, 10);
  table->Commit(insert);
  return table;
}

// An UPDATE of row 3: rewrites the data file and writes a change data file.
TableCommit UpdateOneRow() {
  TableCommit update;
  update.operation = "UPDATE";
  update.updated_row_ids = {3};
  update.updated = Rows(3, 1);
  return update;
}

TEST(DeltaCommitDurability, EachFileAndDirectoryFsyncedOnce) {
  testing::ScopedTempDir dir("lakestream_durability");
  FaultInjectionFileSystem fs(FileSystem::Default());
  auto table = MakeTable(&fs, dir.path + "/t");
  int64_t before = fs.Count(Op::kFsync);
  TableCommit update = UpdateOneRow();
  table->Commit(update);
  // data file, cdc file, the table root, _change_data/, the commit's temp
  // file, then _delta_log/ after the link.
  EXPECT_EQ(fs.Count(Op::kFsync) - before, 6);
  EXPECT_EQ(table->Version(), 2);
}

TEST(DeltaCommitDurability, FailedFsyncBeforeTheLinkLeavesNoCommit) {
  for (int n = 1; n <= 6; n++) {
    testing::ScopedTempDir dir("lakestream_durability");
    FaultInjectionFileSystem fs(FileSystem::Default());
    auto table = MakeTable(&fs, dir.path + "/t");
    int64_t links = fs.Count(Op::kLink);
    fs.FailAfter(Op::kFsync, n);
    TableCommit update = UpdateOneRow();
    EXPECT_THROW(table->Commit(update), IOError) << "fsync " << n;
    bool visible = std::filesystem::exists(dir.path + "/t/_delta_log/00000000000000000002.json");
    // Only the last fsync (of _delta_log/) comes after the link.
    EXPECT_EQ(visible, n == 6) << "fsync " << n;
    EXPECT_EQ(fs.Count(Op::kLink) - links, n == 6 ? 1 : 0) << "fsync " << n;
  }
}

}  // namespace
}  // namespace lakestream
