// Group commit of the _delta_log/ fsync (storage/delta/log_sync.hpp):
// concurrent commits share one directory fsync; a statement's deferred
// fsync is made durable before anything that may depend on it, and a crash
// before it loses only the deferred commit, never the table.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "delta_table_util.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/delta/log_sync.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using Op = FaultInjectionFileSystem::Op;

// Forwards to the default file system; a directory fsync takes 20 ms, so
// that callers arriving meanwhile pile up behind it.
class SlowDirectorySync : public FileSystem {
 public:
  std::atomic<int> dir_syncs{0};
  // A directory fsync of a path ending in this fails (empty: none).
  std::string failing_suffix;
  Result<std::string> ReadFile(const std::string& p) override { return base_->ReadFile(p); }
  Status WriteFile(const std::string& p, const std::string& c) override { return base_->WriteFile(p, c); }
  Result<std::vector<std::string>> ListDirectory(const std::string& d) override { return base_->ListDirectory(d); }
  Status CreateDirectories(const std::string& d) override { return base_->CreateDirectories(d); }
  bool FileExists(const std::string& p) override { return base_->FileExists(p); }
  Result<uint64_t> FileSize(const std::string& p) override { return base_->FileSize(p); }
  Result<int64_t> ModificationTime(const std::string& p) override { return base_->ModificationTime(p); }
  Status RemoveFile(const std::string& p) override { return base_->RemoveFile(p); }
  Status Rename(const std::string& f, const std::string& t) override { return base_->Rename(f, t); }
  Status Link(const std::string& f, const std::string& t) override { return base_->Link(f, t); }
  Status Fsync(const std::string& p) override { return base_->Fsync(p); }
  Status FsyncDirectory(const std::string& d) override {
    dir_syncs++;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!failing_suffix.empty() && d.size() >= failing_suffix.size() &&
        d.compare(d.size() - failing_suffix.size(), failing_suffix.size(), failing_suffix) == 0)
      return Status::IOError("injected: cannot fsync " + d);
    return base_->FsyncDirectory(d);
  }

 private:
  FileSystem* base_ = FileSystem::Default();
};

TEST(DeltaGroupCommit, ConcurrentCallersShareOneDirectoryFsync) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  constexpr int kThreads = 8;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++)
    threads.emplace_back([&] {
      if (delta::SyncLogDirectory(&fs, dir.path).ok()) ok++;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), kThreads);
  // The first caller's fsync, then one for everyone who arrived during it
  // (a straggler may need a third): never one per caller.
  EXPECT_LE(fs.dir_syncs.load(), 3);
  EXPECT_GE(fs.dir_syncs.load(), 1);
}

TEST(DeltaGroupCommit, CommitsFromManyThreadsAreAllDurable) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  auto log = delta::DeltaLog::Open(&fs, path).take();
  auto snap = log->LoadSnapshot().take();
  // Four writers race for versions 2..9 through their own DeltaLog; each
  // version is acknowledged only after a _delta_log/ fsync that followed it.
  std::atomic<int64_t> next{2};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; t++)
    writers.emplace_back([&] {
      auto mine = delta::DeltaLog::Open(&fs, path).take();
      for (int64_t v; (v = next.fetch_add(1)) <= 9;) {
        delta::Txn txn;
        txn.app_id = "writer";
        txn.version = v;
        std::vector<delta::Action> actions = {txn};
        // Versions are taken in order, but a writer may link before the
        // one below it: retry until version v - 1 exists.
        Status s;
        while ((s = mine->Commit(v, actions)).code() == Status::Code::kInvalidArgument) std::this_thread::yield();
        EXPECT_TRUE(s.ok()) << s.ToString();
      }
    });
  for (auto& w : writers) w.join();
  ASSERT_TRUE(fs.SimulateCrash().ok());
  auto after = log->LoadSnapshot();
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after.value().version, 9);
}

TEST(DeltaGroupCommit, DeferredCommitSurvivesACrashAfterTheFlushAndNeverHarmsTheTable) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1, 10 rows
  {
    delta::DeferredLogSync deferred;
    TableCommit insert = testing::InsertRows(100, 5);
    table->Commit(insert);
    EXPECT_EQ(table->Version(), 2);
    EXPECT_TRUE(deferred.Pending());
    ASSERT_TRUE(fs.SimulateCrash().ok());
    // Before the flush the name of version 2 may or may not be durable
    // (its fsync began at the link, on a sync thread); either way the
    // table loads, with all the data files its snapshot names.
    auto log = delta::DeltaLog::Open(&fs, path).take();
    auto snap = log->LoadSnapshot();
    ASSERT_TRUE(snap.ok()) << snap.status().ToString();
    EXPECT_GE(snap.value().version, 1);
    EXPECT_LE(snap.value().version, 2);
    for (auto& [p, add] : snap.value().files) EXPECT_TRUE(std::filesystem::exists(path + "/" + p)) << p;
  }
  auto table2 = DeltaTable::Open(&fs, "t", path);
  int64_t before = table2->Version();
  {
    delta::DeferredLogSync deferred;
    TableCommit insert = testing::InsertRows(200, 5);
    table2->Commit(insert);
    ASSERT_TRUE(deferred.Flush().ok());
    EXPECT_FALSE(deferred.Pending());
  }
  ASSERT_TRUE(fs.SimulateCrash().ok());
  auto log = delta::DeltaLog::Open(&fs, path).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, before + 1);
}

// The deferred _delta_log/ fsync starts when the commit is linked, not at
// the Flush: a statement's work after the link (and the lock release)
// overlaps it, and the Flush finds it done or running.
TEST(DeltaGroupCommit, DeferredFsyncStartsAtTheLink) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  auto table = testing::MakeTable(&fs, dir.path + "/t");
  delta::DeferredLogSync deferred;
  // _delta_log/ fsyncs (the commit's round 1 fsyncs the table root too).
  int64_t before = delta::LogDirectorySyncCount();
  TableCommit insert = testing::InsertRows(100, 5);
  table->Commit(insert);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (delta::LogDirectorySyncCount() == before && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  EXPECT_EQ(delta::LogDirectorySyncCount(), before + 1) << "no fsync began before the Flush";
  ASSERT_TRUE(deferred.Flush().ok());
  EXPECT_EQ(delta::LogDirectorySyncCount(), before + 1) << "the Flush waited for that fsync instead of starting one";
}

// A failure of the fsync that ran on a sync thread is the Flush's.
TEST(DeltaGroupCommit, AFailedDeferredFsyncFailsTheFlush) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  auto table = testing::MakeTable(&fs, dir.path + "/t");
  fs.failing_suffix = "/t/_delta_log";
  {
    delta::DeferredLogSync deferred;
    TableCommit insert = testing::InsertRows(100, 5);
    table->Commit(insert);
    Status s = deferred.Flush();
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_NE(s.message().find("injected"), std::string::npos) << s.ToString();
    EXPECT_FALSE(deferred.Pending());
  }
  fs.failing_suffix.clear();
}

// Two commits to one table under one scope: the second is linked after the
// first one's fsync may have begun, so it gets an fsync of its own; the
// Flush covers both.
TEST(DeltaGroupCommit, ASecondCommitToTheSameTableIsCoveredByTheFlush) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  {
    delta::DeferredLogSync deferred;
    TableCommit first = testing::InsertRows(100, 5);
    table->Commit(first);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // its fsync has run
    TableCommit second = testing::InsertRows(200, 5);
    table->Commit(second);
    ASSERT_TRUE(deferred.Flush().ok());
  }
  ASSERT_TRUE(fs.SimulateCrash().ok());
  auto snap = delta::DeltaLog::Open(&fs, path).take()->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 3);
  EXPECT_EQ(snap.value().NumRecords(), std::optional<int64_t>(20));
}

// A commit to another table (a view over the first) makes the first
// table's deferred commit durable before its own link: a crash can then
// never keep the view's commit without the source's.
TEST(DeltaGroupCommit, CommitToAnotherTableFlushesTheDeferredOneFirst) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  FaultInjectionFileSystem fs(FileSystem::Default());
  auto source = testing::MakeTable(&fs, dir.path + "/source");
  auto view = testing::MakeTable(&fs, dir.path + "/view");
  {
    delta::DeferredLogSync deferred;
    TableCommit insert = testing::InsertRows(100, 5);
    source->Commit(insert);
    TableCommit derived = testing::InsertRows(100, 5);
    view->Commit(derived);
    ASSERT_TRUE(fs.SimulateCrash().ok());  // before the statement's flush
    auto source_log = delta::DeltaLog::Open(&fs, dir.path + "/source").take();
    auto s = source_log->LoadSnapshot();
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s.value().version, 2) << "the source's commit was not made durable before the view's";
    auto view_log = delta::DeltaLog::Open(&fs, dir.path + "/view").take();
    auto v = view_log->LoadSnapshot();
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    // Its own fsync began at its link and may have ended: either version.
    EXPECT_GE(v.value().version, 1);
    EXPECT_LE(v.value().version, 2);
  }
}

// A commit this process linked and made durable needs no second fsync
// (a view's commit asking for its source's): SyncLogDirectory answers from
// memory, unless a newer commit (another writer's) is in the log.
TEST(DeltaGroupCommit, SyncAfterADurableOwnCommitNeedsNoFsyncUntilAnotherWriterCommits) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1, each synced
  std::string log = path + "/_delta_log";
  int before = fs.dir_syncs.load();
  int64_t saved = delta::LogDirectorySyncsSaved();
  ASSERT_TRUE(delta::SyncLogDirectory(&fs, log).ok());
  EXPECT_EQ(fs.dir_syncs.load(), before);
  EXPECT_EQ(delta::LogDirectorySyncsSaved(), saved + 1);
  // Version 2 by another process: its name may not be durable yet.
  ASSERT_TRUE(fs.WriteFile(log + "/" + delta::CommitFileName(2), "{}\n").ok());
  ASSERT_TRUE(delta::SyncLogDirectory(&fs, log).ok());
  EXPECT_EQ(fs.dir_syncs.load(), before + 1);
}

// A table dropped and created again at the same path by another process
// has commit files this process did not link: no shortcut then.
TEST(DeltaGroupCommit, SyncAfterTheTableWasCreatedAgainFsyncs) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  std::string log = path + "/_delta_log";
  std::string latest = log + "/" + delta::CommitFileName(1);
  ASSERT_TRUE(fs.RemoveFile(latest).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // another modification time
  ASSERT_TRUE(fs.WriteFile(latest, "{}\n").ok());
  int before = fs.dir_syncs.load();
  ASSERT_TRUE(delta::SyncLogDirectory(&fs, log).ok());
  EXPECT_EQ(fs.dir_syncs.load(), before + 1);
}

// A caller that arrives while the fsync covering this process's last link
// runs waits for that fsync instead of starting another one after it.
TEST(DeltaGroupCommit, SyncJoinsTheRunningFsyncThatFollowedTheLink) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);
  auto log = delta::DeltaLog::Open(&fs, path).take();
  delta::Txn txn;
  txn.app_id = "writer";
  txn.version = 2;
  ASSERT_TRUE(log->Commit(2, {txn}, {}, delta::DeltaLog::Sync::kDeferred).ok());
  int before = fs.dir_syncs.load();
  std::thread statement([&] { EXPECT_TRUE(delta::SyncLogDirectory(&fs, log->log_path()).ok()); });
  while (fs.dir_syncs.load() == before) std::this_thread::yield();  // its fsync (20 ms) has begun
  EXPECT_TRUE(delta::SyncLogDirectory(&fs, log->log_path()).ok());
  statement.join();
  EXPECT_EQ(fs.dir_syncs.load(), before + 1);
}

// A sink's pass starts the fsync of its source's log when it sees new
// commits (StartedLogSync) and waits for it before delivering: it covers
// what was linked before it began, and a failure is the waiter's.
TEST(DeltaGroupCommit, StartedLogSyncCoversEarlierLinksAndReportsFailure) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fs, path);  // versions 0 and 1
  auto log = delta::DeltaLog::Open(&fs, path).take();
  delta::Txn txn;
  txn.app_id = "writer";
  txn.version = 2;
  ASSERT_TRUE(log->Commit(2, {txn}, {}, delta::DeltaLog::Sync::kDeferred).ok());
  {
    delta::StartedLogSync started(std::shared_ptr<FileSystem>(std::shared_ptr<void>(), &fs), log->log_path());
    EXPECT_EQ(started.dir(), log->log_path());
    ASSERT_TRUE(started.Wait().ok());
    ASSERT_TRUE(started.Wait().ok()) << "a second Wait returns the same Status";
  }
  ASSERT_TRUE(fs.SimulateCrash().ok());
  auto snap = delta::DeltaLog::Open(&fs, path).take()->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 2);

  SlowDirectorySync slow;
  slow.failing_suffix = "/u/_delta_log";
  std::filesystem::create_directories(dir.path + "/u/_delta_log");
  delta::StartedLogSync failing(std::shared_ptr<FileSystem>(std::shared_ptr<void>(), &slow), dir.path + "/u/_delta_log");
  Status s = failing.Wait();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

// A view's commit flushes its source's deferred _delta_log/ fsync alongside
// its own files; when that flush fails, the view's commit is not linked.
TEST(DeltaGroupCommit, ViewCommitIsNotLinkedWhenItsSourceCannotBeMadeDurable) {
  testing::ScopedTempDir dir("lakestream_group_commit");
  SlowDirectorySync fs;
  auto source = testing::MakeTable(&fs, dir.path + "/source");
  auto view = testing::MakeTable(&fs, dir.path + "/view");
  delta::DeferredLogSync deferred;
  // Before the source's commit: its deferred fsync starts at the link.
  fs.failing_suffix = "/source/_delta_log";
  TableCommit insert = testing::InsertRows(100, 5);
  source->Commit(insert);
  EXPECT_TRUE(deferred.Pending());
  TableCommit derived = testing::InsertRows(100, 5);
  EXPECT_THROW(view->Commit(derived), std::exception);
  EXPECT_EQ(view->Version(), 1);
  EXPECT_FALSE(std::filesystem::exists(dir.path + "/view/_delta_log/" + delta::CommitFileName(2)));
  // Its data file was removed with the failed commit: only version 1's remain.
  auto snap = delta::DeltaLog::Open(&fs, dir.path + "/view").take()->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 1);
  size_t data_files = 0;
  for (auto& entry : std::filesystem::directory_iterator(dir.path + "/view"))
    data_files += entry.path().extension() == ".parquet" ? 1 : 0;
  EXPECT_EQ(data_files, snap.value().files.size());
  fs.failing_suffix.clear();
}

}  // namespace
}  // namespace lakestream
