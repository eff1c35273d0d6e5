// The order of a Delta commit's durable steps (docs/delta-format.md "Commits
// and durability"), recorded by a FileSystem wrapper: a commit's log entry is
// linked into _delta_log/ only after every data and change data file it names
// and every directory holding a new name of theirs has been fsynced, and the
// link is followed by an fsync of _delta_log/. A checkpoint is written by the
// background thread after the commit (storage/delta/checkpoint_writer.hpp),
// and its two renames get no directory fsync of their own: the next
// commit's _delta_log/ fsync makes them durable.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "delta_table_util.hpp"
#include "recording_file_system.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using testing::RecordingFileSystem;
using Kind = RecordingFileSystem::Kind;

// Index of the first event of `kind` on `path` at or after `from`; -1 if none.
long Find(const std::vector<RecordingFileSystem::Event>& ev, Kind kind, const std::string& path, size_t from = 0) {
  for (size_t i = from; i < ev.size(); i++)
    if (ev[i].kind == kind && ev[i].path == path) return static_cast<long>(i);
  return -1;
}

std::string LogFile(const std::string& table, int64_t version, const char* suffix = ".json") {
  std::string v = std::to_string(version);
  return table + "/_delta_log/" + std::string(20 - v.size(), '0') + v + suffix;
}

// The data and change data files commit `version` adds (paths as logged).
std::vector<std::string> NewFiles(FileSystem* fs, const std::string& table, int64_t version) {
  auto log = delta::DeltaLog::Open(fs, table);
  EXPECT_TRUE(log.ok());
  auto actions = log.value()->ReadCommit(version);
  EXPECT_TRUE(actions.ok());
  std::vector<std::string> files;
  for (auto& a : actions.value()) {
    if (auto* add = std::get_if<delta::AddFile>(&a)) files.push_back(add->path);
    if (auto* cdc = std::get_if<delta::CdcFile>(&a)) files.push_back(cdc->path);
  }
  return files;
}

// Checks the order of commit `version`'s steps in `ev`.
void ExpectCommitOrder(RecordingFileSystem& fs, const std::string& table, int64_t version, size_t want_files) {
  auto ev = fs.events();
  std::string entry = LogFile(table, version);
  long link = Find(ev, Kind::kLink, entry);
  ASSERT_GE(link, 0) << "no link of " << entry;
  // The temp file linked: written, then fsynced, before the link.
  long temp_fsync = Find(ev, Kind::kFsync, ev[link].from);
  EXPECT_GE(temp_fsync, 0);
  EXPECT_LT(temp_fsync, link);
  auto files = NewFiles(&fs, table, version);
  EXPECT_EQ(files.size(), want_files);
  for (const std::string& f : files) {
    std::string full = table + "/" + f;
    long synced = Find(ev, Kind::kFsync, full);
    EXPECT_GE(synced, 0) << full << " never fsynced";
    EXPECT_LT(synced, link) << full << " fsynced after the log entry naming it was linked";
    // Every directory between the file and the table root holds a new name
    // (the file's, or a new subdirectory's): each is fsynced before the link.
    for (std::string dir = ParentDirectory(full);; dir = ParentDirectory(dir)) {
      long dir_synced = Find(ev, Kind::kFsyncDir, dir);
      EXPECT_GE(dir_synced, 0) << dir << " never fsynced";
      EXPECT_LT(dir_synced, link) << dir << " fsynced after the log entry was linked";
      if (dir == table || dir.size() <= table.size()) break;
    }
  }
  // The link's own name: _delta_log/ fsynced after it.
  long log_dir = Find(ev, Kind::kFsyncDir, table + "/_delta_log", static_cast<size_t>(link));
  EXPECT_GT(log_dir, link) << "_delta_log/ not fsynced after the link";
}

TEST(DeltaCommitOrder, DataFilesAndTheirDirectoriesAreDurableBeforeTheLogEntry) {
  testing::ScopedTempDir dir("lakestream_commit_order");
  RecordingFileSystem fs;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  ExpectCommitOrder(fs, path, 1, 1);           // an insert: one data file in the root
  fs.Clear();
  TableCommit update = testing::UpdateOneRow();
  table->Commit(update);
  // The rewritten data file and the change data file in _change_data/.
  ExpectCommitOrder(fs, path, 2, 2);
  auto ev = fs.events();
  long fsyncs = std::count_if(ev.begin(), ev.end(), [](auto& e) { return e.kind == Kind::kFsync || e.kind == Kind::kFsyncDir; });
  // Two files, two directories and the commit's temp file, then _delta_log/.
  EXPECT_EQ(fsyncs, 6);
}

TEST(DeltaCommitOrder, CheckpointRenamesRideOnTheNextCommitsDirectoryFsync) {
  testing::ScopedTempDir dir("lakestream_commit_order");
  RecordingFileSystem fs;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  for (int64_t v = 2; v < 10; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 1);
    table->Commit(insert);
  }
  fs.Clear();
  TableCommit insert = testing::InsertRows(1000, 1);
  table->Commit(insert);  // version 10: a checkpoint is due (interval 10)
  ASSERT_EQ(table->Version(), 10);
  delta::WaitForCheckpoints(path);
  auto ev = fs.events();
  std::string checkpoint = LogFile(path, 10, ".checkpoint.parquet");
  std::string last = path + "/_delta_log/_last_checkpoint";
  long cp_rename = Find(ev, Kind::kRename, checkpoint);
  long lc_rename = Find(ev, Kind::kRename, last);
  ASSERT_GE(cp_rename, 0);
  ASSERT_GE(lc_rename, 0);
  EXPECT_LT(cp_rename, lc_rename);
  // Each file's contents are durable before its rename: a name that
  // survives a crash never shows torn contents.
  long cp_sync = Find(ev, Kind::kFsync, ev[cp_rename].from);
  long lc_sync = Find(ev, Kind::kFsync, ev[lc_rename].from);
  EXPECT_GE(cp_sync, 0);
  EXPECT_LT(cp_sync, cp_rename);
  EXPECT_GE(lc_sync, 0);
  EXPECT_LT(lc_sync, lc_rename);
  // The commit's own _delta_log/ fsync comes before the checkpoint, and none follows it.
  long link = Find(ev, Kind::kLink, LogFile(path, 10));
  long after_link = Find(ev, Kind::kFsyncDir, path + "/_delta_log", static_cast<size_t>(link));
  ASSERT_GT(after_link, link);
  ASSERT_LT(after_link, cp_rename);
  EXPECT_EQ(Find(ev, Kind::kFsyncDir, path + "/_delta_log", static_cast<size_t>(cp_rename)), -1)
      << "the checkpoint's renames have a directory fsync of their own";
  long fsyncs = std::count_if(ev.begin(), ev.end(), [](auto& e) { return e.kind == Kind::kFsync || e.kind == Kind::kFsyncDir; });
  // The commit: data file, temp file, _delta_log/ (its tenth commit into the
  // table's folder: the data file's name came from the pool, made durable
  // by an earlier batch, storage/table/data_file_pool.hpp). The checkpoint:
  // its file and _last_checkpoint's temp file.
  EXPECT_EQ(fsyncs, 3 + 2);
}

// A crash right after a checkpoint may lose its names (nothing fsynced
// _delta_log/ since): the table loads from its JSON commits, every row
// there. One more commit makes the checkpoint durable, and a reload after a
// crash then starts from it.
TEST(DeltaCommitOrder, CheckpointLostInACrashLosesNothing) {
  testing::ScopedTempDir dir("lakestream_commit_order");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);
  for (int64_t v = 2; v <= 10; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 1);
    table->Commit(insert);
  }
  delta::WaitForCheckpoints(path);
  ASSERT_TRUE(std::filesystem::exists(LogFile(path, 10, ".checkpoint.parquet")));
  ASSERT_TRUE(fs.SimulateCrash().ok());
  EXPECT_FALSE(std::filesystem::exists(LogFile(path, 10, ".checkpoint.parquet")));
  {
    auto log = delta::DeltaLog::Open(&fs, path);
    ASSERT_TRUE(log.ok());
    auto snap = log.value()->LoadSnapshot();
    ASSERT_TRUE(snap.ok()) << snap.status().ToString();
    EXPECT_EQ(snap.value().version, 10);
    EXPECT_EQ(snap.value().NumRecords(), std::optional<int64_t>(10 + 9));
  }
  // Checkpoint again (version 20), then one commit after it.
  for (int64_t v = 11; v <= 21; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 1);
    table->Commit(insert);
    if (v == 20) delta::WaitForCheckpoints(path);
  }
  ASSERT_TRUE(fs.SimulateCrash().ok());
  EXPECT_TRUE(std::filesystem::exists(LogFile(path, 20, ".checkpoint.parquet")));
  EXPECT_TRUE(std::filesystem::exists(path + "/_delta_log/_last_checkpoint"));
  auto log = delta::DeltaLog::Open(&fs, path);
  ASSERT_TRUE(log.ok());
  auto snap = log.value()->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 21);
  EXPECT_EQ(snap.value().checkpoint_version, 20);
  EXPECT_TRUE(snap.value().warnings.empty());
  EXPECT_EQ(snap.value().NumRecords(), std::optional<int64_t>(10 + 20));
}

}  // namespace
}  // namespace lakestream
