// DeltaTable::Commit's fsync policy, through FaultInjectionFileSystem: every
// new data and change data file, and each directory naming one, is fsynced
// once, together with the commit's temp file, before the commit is linked into
// _delta_log; then _delta_log is fsynced. A failure of any fsync before the
// link leaves no commit behind.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "common/exception.hpp"
#include "delta_table_util.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using Op = FaultInjectionFileSystem::Op;
using testing::MakeTable;
using testing::UpdateOneRow;

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
