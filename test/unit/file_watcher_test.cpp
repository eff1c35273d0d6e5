// FileWatcher and CommitNotifier: what wakes a follower (a sink's --follow
// loop) and what does not.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "common/commit_notifier.hpp"
#include "common/file_watcher.hpp"

namespace lakestream {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_watch_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// Waits on `watcher` from another thread while `act` runs; the time the wait took.
template <class Act>
milliseconds WaitWhile(FileWatcher& watcher, milliseconds timeout, bool& woken, Act act) {
  auto start = Clock::now();
  std::thread waiter([&] { woken = watcher.Wait(timeout).value(); });
  std::this_thread::sleep_for(milliseconds(50));  // the waiter is blocked by now (or will find the event queued)
  act();
  waiter.join();
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

TEST(FileWatcher, FileCreatedInWatchedFolderWakesTheWaiter) {
  std::string dir = TempDir("create");
  FileWatcher watcher;
  ASSERT_TRUE(watcher.Watch(dir).ok());
  bool woken = false;
  // A 20 s timeout: only the event can end the wait within 5 s.
  auto took = WaitWhile(watcher, milliseconds(20000), woken, [&] { std::ofstream(dir + "/00000000000000000001.json") << "{}"; });
  EXPECT_TRUE(woken);
  EXPECT_LT(took.count(), 5000);
  // Writing a file is several events (create, modify, close) that may arrive
  // apart on a loaded machine; once they are drained, a wait with no new
  // write times out.
  for (int i = 0; i < 20 && watcher.Wait(milliseconds(50)).value(); i++) {
  }
  EXPECT_FALSE(watcher.Wait(milliseconds(50)).value());
  std::filesystem::remove_all(dir);
}

TEST(FileWatcher, FileRenamedIntoWatchedFolderWakesTheWaiter) {
  std::string dir = TempDir("rename");
  std::string outside = TempDir("rename_outside");
  std::ofstream(outside + "/commit.tmp") << "{}";
  FileWatcher watcher;
  ASSERT_TRUE(watcher.Watch(dir).ok());
  bool woken = false;
  auto took = WaitWhile(watcher, milliseconds(20000), woken, [&] {
    std::filesystem::rename(outside + "/commit.tmp", dir + "/00000000000000000002.json");
  });
  EXPECT_TRUE(woken);
  EXPECT_LT(took.count(), 5000);
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(outside);
}

TEST(FileWatcher, EventBeforeWaitIsKept) {
  std::string dir = TempDir("queued");
  FileWatcher watcher;
  ASSERT_TRUE(watcher.Watch(dir).ok());
  ASSERT_TRUE(watcher.Watch(dir).ok());  // again: no second watch
  EXPECT_EQ(watcher.Watching(), 1u);
  std::ofstream(dir + "/a.json") << "{}";  // between two waits of a follower
  auto start = Clock::now();
  EXPECT_TRUE(watcher.Wait(milliseconds(20000)).value());
  EXPECT_LT(std::chrono::duration_cast<milliseconds>(Clock::now() - start).count(), 5000);
  std::filesystem::remove_all(dir);
}

TEST(FileWatcher, TimeoutWithoutEventAndOtherFoldersDoNotWake) {
  std::string dir = TempDir("quiet");
  std::string other = TempDir("quiet_other");
  FileWatcher watcher;
  ASSERT_TRUE(watcher.Watch(dir).ok());
  std::ofstream(other + "/x.json") << "{}";  // not watched
  auto start = Clock::now();
  auto woken = watcher.Wait(milliseconds(200));
  ASSERT_TRUE(woken.ok());
  EXPECT_FALSE(woken.value());
  EXPECT_GE(std::chrono::duration_cast<milliseconds>(Clock::now() - start).count(), 150);
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(other);
}

TEST(FileWatcher, HiddenTempFileDoesNotWakeItsFinalNameDoes) {
  // A commit as DeltaLog writes it: a hidden temp file (created, written,
  // closed), then the commit's own name.
  std::string dir = TempDir("hidden");
  FileWatcher watcher;
  ASSERT_TRUE(watcher.Watch(dir).ok());
  std::string temp = dir + "/.00000000000000000003.json.123-4-5.tmp";
  std::ofstream(temp) << "{}";
  auto start = Clock::now();
  auto woken = watcher.Wait(milliseconds(200));
  ASSERT_TRUE(woken.ok());
  EXPECT_FALSE(woken.value());  // the temp file's events woke nobody
  EXPECT_GE(std::chrono::duration_cast<milliseconds>(Clock::now() - start).count(), 150);
  bool commit_woke = false;
  auto took = WaitWhile(watcher, milliseconds(20000), commit_woke,
                        [&] { std::filesystem::rename(temp, dir + "/00000000000000000003.json"); });
  EXPECT_TRUE(commit_woke);
  EXPECT_LT(took.count(), 5000);
  std::filesystem::remove_all(dir);
}

TEST(FileWatcher, MissingFolderIsAClearStatus) {
  std::string dir = TempDir("missing");
  FileWatcher watcher;
  Status status = watcher.Watch(dir + "/nope/_delta_log");
  EXPECT_TRUE(status.IsNotFound()) << status.ToString();
  EXPECT_NE(status.message().find(dir + "/nope/_delta_log"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("create it"), std::string::npos) << status.message();
  std::ofstream(dir + "/file") << "x";
  status = watcher.Watch(dir + "/file");
  EXPECT_TRUE(status.IsNotFound()) << status.ToString();
  EXPECT_NE(status.message().find("not a folder"), std::string::npos) << status.message();
  status = watcher.Watch("s3://bucket/t/_delta_log");
  EXPECT_EQ(status.code(), Status::Code::kNotSupported) << status.ToString();
  EXPECT_EQ(watcher.Watching(), 0u);
  std::filesystem::remove_all(dir);
}

TEST(FileWatcher, FolderDeletedAndCreatedAgainIsWatchedAgain) {
  std::string dir = TempDir("recreated");
  FileWatcher watcher;
  ASSERT_TRUE(watcher.Watch(dir).ok());
  std::filesystem::remove_all(dir);  // a dropped table
  EXPECT_TRUE(watcher.Wait(milliseconds(2000)).value());
  EXPECT_EQ(watcher.Watching(), 0u);  // the kernel dropped the watch
  std::filesystem::create_directories(dir);  // created again under its name
  ASSERT_TRUE(watcher.Watch(dir).ok());
  EXPECT_EQ(watcher.Watching(), 1u);
  bool woken = false;
  auto took = WaitWhile(watcher, milliseconds(20000), woken, [&] { std::ofstream(dir + "/00000000000000000000.json") << "{}"; });
  EXPECT_TRUE(woken);
  EXPECT_LT(took.count(), 5000);
  std::filesystem::remove_all(dir);
}

TEST(FileWatcher, WakeFromAnotherThreadEndsTheWait) {
  FileWatcher watcher;  // watching nothing: only Wake() can end the wait early
  bool woken = false;
  auto took = WaitWhile(watcher, milliseconds(20000), woken, [&] { watcher.Wake(); });
  EXPECT_TRUE(woken);
  EXPECT_LT(took.count(), 5000);
}

TEST(CommitNotifier, PublishWakesSubscribersOfThatKeyOnce) {
  CommitNotifier notifier;
  int a = 0, b = 0;
  uint64_t id_a = notifier.Subscribe("/db/a", [&] { a++; });
  notifier.Subscribe("/db/b", [&] { b++; });
  notifier.Publish("/db/a", 3);
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 0);
  // The same version from a second open database of the process, or an older one: no new commit.
  notifier.Publish("/db/a", 3);
  notifier.Publish("/db/a", 2);
  EXPECT_EQ(a, 1);
  EXPECT_EQ(notifier.Latest("/db/a"), 3);
  EXPECT_EQ(notifier.Latest("/db/c"), -1);
  notifier.Unsubscribe(id_a);
  notifier.Publish("/db/a", 4);
  EXPECT_EQ(a, 1);
}

TEST(CommitNotifier, WakesAFileWatcherWaitingInAnotherThread) {
  CommitNotifier notifier;
  FileWatcher watcher;
  uint64_t id = notifier.Subscribe("/db/t", [&] { watcher.Wake(); });
  bool woken = false;
  auto took = WaitWhile(watcher, milliseconds(20000), woken, [&] { notifier.Publish("/db/t", 1); });
  EXPECT_TRUE(woken);
  EXPECT_LT(took.count(), 5000);
  notifier.Unsubscribe(id);
}

}  // namespace
}  // namespace lakestream
