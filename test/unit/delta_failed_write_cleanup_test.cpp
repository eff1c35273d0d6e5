// A statement that fails leaves the table's directory as it found it: every
// data and change data file it wrote is deleted when its commit did not
// become visible (an fsync or link that failed, a conflict that is not
// retried, a full disk, an append-only table), and kept when it did. The
// table still reads its old rows.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <set>

#include "common/exception.hpp"
#include "delta_table_util.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using Op = FaultInjectionFileSystem::Op;
using testing::MakeTable;
using testing::Rows;
using testing::UpdateOneRow;

// Every regular file under `dir`, relative to it.
std::set<std::string> Files(const std::string& dir) {
  std::set<std::string> files;
  for (auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.insert(std::filesystem::relative(entry.path(), dir).string());
  }
  return files;
}

// (k, v) of every row, in file order, as read by a fresh open of the table.
std::vector<std::pair<int64_t, int64_t>> ReadAll(const std::string& path) {
  auto table = DeltaTable::Open(FileSystem::Default(), "t", path);
  std::vector<std::pair<int64_t, int64_t>> rows;
  auto scan = table->Scan({0, 1});
  DataChunk chunk;
  chunk.Initialize({TypeId::BIGINT, TypeId::BIGINT});
  while (scan->Next(chunk, nullptr)) {
    for (idx_t r = 0; r < chunk.size(); r++) {
      rows.emplace_back(chunk.data[0].GetValue(r).GetBigint(), chunk.data[1].GetValue(r).GetBigint());
    }
    chunk.Reset();
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(DeltaFailedWriteCleanup, FailedFsyncOrLinkDeletesTheStatementsFiles) {
  // Fsyncs before the link: data file, change data file, the table root,
  // _change_data/, the commit's temp file; then the link itself.
  for (int n = 1; n <= 6; n++) {
    testing::ScopedTempDir dir("lakestream_cleanup");
    FaultInjectionFileSystem fs(FileSystem::Default());
    std::string path = dir.path + "/t";
    auto table = MakeTable(&fs, path);
    auto files = Files(path);
    auto rows = ReadAll(path);
    if (n <= 5) {
      fs.FailAfter(Op::kFsync, n);
    } else {
      fs.FailAfter(Op::kLink, 1);
    }
    TableCommit update = UpdateOneRow();
    EXPECT_THROW(table->Commit(update), IOError) << "fault " << n;
    EXPECT_EQ(Files(path), files) << "fault " << n;
    EXPECT_EQ(ReadAll(path), rows) << "fault " << n;
  }
}

TEST(DeltaFailedWriteCleanup, CommitVisibleDespiteTheErrorKeepsItsFiles) {
  testing::ScopedTempDir dir("lakestream_cleanup");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = MakeTable(&fs, path);
  fs.FailAfter(Op::kFsync, 6);  // _delta_log/ after the link: the commit is visible
  TableCommit update = UpdateOneRow();
  EXPECT_THROW(table->Commit(update), IOError);
  ASSERT_TRUE(std::filesystem::exists(path + "/_delta_log/00000000000000000002.json"));
  // Every file the visible commit names is still there: the table reads.
  auto rows = ReadAll(path);
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[3], std::make_pair(int64_t{3}, int64_t{0}));  // the updated value
}

TEST(DeltaFailedWriteCleanup, LostConflictDeletesTheStatementsFiles) {
  testing::ScopedTempDir dir("lakestream_cleanup");
  std::string path = dir.path + "/t";
  auto winner = MakeTable(FileSystem::Default(), path);
  auto loser = DeltaTable::Open(FileSystem::Default(), "t", path);
  TableCommit first = UpdateOneRow();
  winner->Commit(first);
  auto files = Files(path);
  auto rows = ReadAll(path);
  // The loser rewrites the file the winner just removed: not retried.
  TableCommit second = UpdateOneRow();
  EXPECT_THROW(loser->Commit(second), ConflictError);
  EXPECT_EQ(Files(path), files);
  EXPECT_EQ(ReadAll(path), rows);
}

TEST(DeltaFailedWriteCleanup, AppendOnlyRefusedAtCommitLeavesNothing) {
  testing::ScopedTempDir dir("lakestream_cleanup");
  std::string path = dir.path + "/t";
  auto table = MakeTable(FileSystem::Default(), path);
  table->SetProperties({{"delta.appendOnly", "true"}});
  auto files = Files(path);
  auto rows = ReadAll(path);
  TableCommit update = UpdateOneRow();
  try {
    table->Commit(update);
    FAIL() << "an UPDATE committed on an append-only table";
  } catch (const ConstraintError& e) {
    EXPECT_NE(std::string(e.what()).find("UPDATE on table t is not allowed: it has delta.appendOnly = true"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("SET TBLPROPERTIES ('delta.appendOnly' = 'false')"), std::string::npos) << e.what();
  }
  TableCommit overwrite;
  overwrite.operation = "INSERT OVERWRITE";
  overwrite.overwrite = true;
  overwrite.inserted = Rows(100, 1);
  EXPECT_THROW(table->Commit(overwrite), ConstraintError);
  EXPECT_EQ(Files(path), files);
  EXPECT_EQ(ReadAll(path), rows);
  // Appends and OPTIMIZE (dataChange = false) are allowed.
  TableCommit append;
  append.operation = "WRITE";
  append.inserted = Rows(10, 5);
  table->Commit(append);
  EXPECT_EQ(table->Optimize(), std::make_pair(int64_t{2}, int64_t{1}));
  EXPECT_EQ(ReadAll(path).size(), 15u);
}

TEST(DeltaFailedWriteCleanup, FailedOptimizeDeletesItsFile) {
  testing::ScopedTempDir dir("lakestream_cleanup");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = MakeTable(&fs, path);
  TableCommit append;
  append.operation = "WRITE";
  append.inserted = Rows(10, 5);
  table->Commit(append);
  auto files = Files(path);
  fs.FailAfter(Op::kLink, 1);
  EXPECT_THROW(table->Optimize(), IOError);
  EXPECT_EQ(Files(path), files);
  EXPECT_EQ(ReadAll(path).size(), 15u);
}

// A full disk while a data file is being written: the file size limit makes
// write(2) fail (EFBIG) part way through, as ENOSPC would.
TEST(DeltaFailedWriteCleanup, WriteFailureMidFileDeletesThePartialFile) {
  testing::ScopedTempDir dir("lakestream_cleanup");
  std::string path = dir.path + "/t";
  auto table = MakeTable(FileSystem::Default(), path);
  auto files = Files(path);
  auto rows = ReadAll(path);
  // Values that do not compress: the file outgrows the limit.
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::BIGINT};
  TableCommit insert;
  insert.operation = "WRITE";
  insert.inserted.SetTypes(types);
  uint64_t x = 88172645463325252ULL;
  for (int c = 0; c < 64; c++) {
    DataChunk chunk;
    chunk.Initialize(types, STANDARD_VECTOR_SIZE);
    for (idx_t r = 0; r < STANDARD_VECTOR_SIZE; r++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      chunk.data[0].SetValue(r, Value::BIGINT(static_cast<int64_t>(x)));
      chunk.data[1].SetValue(r, Value::BIGINT(static_cast<int64_t>(x >> 3)));
    }
    chunk.SetCardinality(STANDARD_VECTOR_SIZE);
    insert.inserted.Append(chunk);
  }
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 256 * 1024;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  bool threw = false;
  try {
    table->Commit(insert);
  } catch (const IOError&) {
    threw = true;
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(threw);
  EXPECT_EQ(Files(path), files);
  EXPECT_EQ(ReadAll(path), rows);
}

}  // namespace
}  // namespace lakestream
