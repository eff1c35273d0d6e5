// Checkpoints written off the commit's critical path
// (storage/delta/checkpoint_writer.hpp): the commit that makes one due
// returns before it is written, a checkpoint that fails costs nothing but
// speed, and a crash at any point of the background write loses no commit.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>

#include "delta_table_util.hpp"
#include "recording_file_system.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

std::string CheckpointPath(const std::string& table, int64_t version) {
  std::string v = std::to_string(version);
  return table + "/_delta_log/" + std::string(20 - v.size(), '0') + v + ".checkpoint.parquet";
}

// Holds the fsync of every checkpoint file (before its rename) until
// Release(), or for 2 s: a commit that wrote its checkpoint itself would
// wait that long and then find it there.
class GatedFileSystem : public testing::RecordingFileSystem {
 public:
  Status Fsync(const std::string& p) override {
    if (p.find(".checkpoint.parquet") != std::string::npos) {
      std::unique_lock<std::mutex> l(mu_);
      cv_.wait_for(l, std::chrono::seconds(2), [&] { return open_; });
    }
    return RecordingFileSystem::Fsync(p);
  }
  void Release() {
    {
      std::lock_guard<std::mutex> l(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

delta::Snapshot Load(FileSystem* fs, const std::string& path) {
  auto log = delta::DeltaLog::Open(fs, path);
  EXPECT_TRUE(log.ok());
  auto snap = log.value()->LoadSnapshot();
  EXPECT_TRUE(snap.ok()) << snap.status().ToString();
  return snap.take();
}

TEST(DeltaCheckpointWriter, CommitReturnsBeforeItsCheckpointIsWritten) {
  testing::ScopedTempDir dir("lakestream_cp_writer");
  GatedFileSystem fs;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  int64_t written = delta::CheckpointsWritten();
  for (int64_t v = 2; v <= 12; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 1);
    table->Commit(insert);  // version 10 makes a checkpoint due; it cannot be written yet
  }
  EXPECT_EQ(table->Version(), 12);
  EXPECT_FALSE(std::filesystem::exists(CheckpointPath(path, 10)));
  EXPECT_EQ(delta::CheckpointsWritten(), written);
  // Readers meanwhile replay the JSON commits.
  EXPECT_EQ(Load(&fs, path).NumRecords(), std::optional<int64_t>(10 + 11));
  fs.Release();
  delta::WaitForCheckpoints(path);
  EXPECT_EQ(delta::CheckpointsWritten(), written + 1);
  ASSERT_TRUE(std::filesystem::exists(CheckpointPath(path, 10)));
  delta::Snapshot snap = Load(&fs, path);
  EXPECT_EQ(snap.version, 12);
  EXPECT_EQ(snap.checkpoint_version, 10);
  EXPECT_EQ(snap.NumRecords(), std::optional<int64_t>(10 + 11));
}

// The checkpoint's rename fails in the background: the commit stands, the
// failure is counted, and readers replay the JSON commits.
TEST(DeltaCheckpointWriter, FailedCheckpointCostsOnlySpeed) {
  testing::ScopedTempDir dir("lakestream_cp_writer");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);
  for (int64_t v = 2; v <= 9; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 1);
    table->Commit(insert);
  }
  int64_t failures = delta::CheckpointFailures();
  fs.FailAfter(FaultInjectionFileSystem::Op::kRename, 1);  // commits link; the checkpoint renames
  TableCommit insert = testing::InsertRows(1000, 1);
  table->Commit(insert);
  EXPECT_EQ(table->Version(), 10);
  delta::WaitForCheckpoints(path);
  EXPECT_EQ(delta::CheckpointFailures(), failures + 1);
  EXPECT_FALSE(std::filesystem::exists(CheckpointPath(path, 10)));
  delta::Snapshot snap = Load(&fs, path);
  EXPECT_EQ(snap.version, 10);
  EXPECT_EQ(snap.checkpoint_version, -1);
  EXPECT_EQ(snap.NumRecords(), std::optional<int64_t>(10 + 9));
}

// A crash while the background thread is between its two renames (the
// checkpoint renamed, _last_checkpoint not yet): every commit is there, and
// the reload reads whatever of the checkpoint survived.
TEST(DeltaCheckpointWriter, CrashBetweenTheCheckpointsRenamesLosesNothing) {
  testing::ScopedTempDir dir("lakestream_cp_writer");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);
  for (int64_t v = 2; v <= 9; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 1);
    table->Commit(insert);
  }
  fs.FailAfter(FaultInjectionFileSystem::Op::kRename, 2);  // _last_checkpoint's rename
  TableCommit insert = testing::InsertRows(1000, 1);
  table->Commit(insert);
  delta::WaitForCheckpoints(path);
  ASSERT_TRUE(std::filesystem::exists(CheckpointPath(path, 10)));
  ASSERT_FALSE(std::filesystem::exists(path + "/_delta_log/_last_checkpoint"));
  ASSERT_TRUE(fs.SimulateCrash().ok());
  delta::Snapshot snap = Load(&fs, path);
  EXPECT_EQ(snap.version, 10);
  EXPECT_EQ(snap.NumRecords(), std::optional<int64_t>(10 + 9));
}

}  // namespace
}  // namespace lakestream
