// FileSystem: POSIX basics, put-if-absent races, fault injection and the crash model.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "common/file_system.hpp"

namespace lakestream {
namespace {

std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_fs_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(FileSystem, Basics) {
  FileSystem* fs = FileSystem::Default();
  std::string dir = TempDir("basics");
  std::string f = JoinPath(dir, "a/b/c.txt");
  ASSERT_TRUE(fs->CreateDirectories(ParentDirectory(f)).ok());
  ASSERT_TRUE(fs->WriteFile(f, "hello").ok());
  EXPECT_EQ(fs->ReadFile(f).value(), "hello");
  EXPECT_EQ(fs->FileSize(f).value(), 5u);
  EXPECT_GT(fs->ModificationTime(f).value(), 1600000000000);
  EXPECT_TRUE(fs->Fsync(f).ok());
  EXPECT_TRUE(fs->FsyncDirectory(ParentDirectory(f)).ok());
  EXPECT_EQ(fs->ListDirectory(JoinPath(dir, "a/b")).value(), std::vector<std::string>{"c.txt"});
  ASSERT_TRUE(fs->Rename(f, f + ".2").ok());
  EXPECT_FALSE(fs->FileExists(f));
  EXPECT_TRUE(fs->ReadFile(f).status().IsNotFound());
  EXPECT_TRUE(fs->RemoveFile(f + ".2").ok());
  EXPECT_TRUE(fs->RemoveFile(f + ".2").IsNotFound());
  EXPECT_TRUE(fs->ListDirectory(JoinPath(dir, "nope")).status().IsNotFound());
  EXPECT_EQ(ParentDirectory("/x/y/z"), "/x/y");
  EXPECT_EQ(ParentDirectory("z"), ".");
  EXPECT_EQ(BaseName("/x/y/z"), "z");
  EXPECT_TRUE(FileSystem::IsTempFileName(BaseName(FileSystem::TempPathFor("/x/y.json"))));
}

TEST(FileSystem, PutIfAbsent) {
  FileSystem* fs = FileSystem::Default();
  std::string dir = TempDir("put");
  std::string f = JoinPath(dir, "00.json");
  ASSERT_TRUE(fs->PutIfAbsent(f, "one").ok());
  Status s = fs->PutIfAbsent(f, "two");
  EXPECT_TRUE(s.IsAlreadyExists()) << s.ToString();
  EXPECT_EQ(fs->ReadFile(f).value(), "one");
  EXPECT_EQ(fs->ListDirectory(dir).value().size(), 1u);  // no temp files left behind
  ASSERT_TRUE(fs->WriteFileAtomic(f, "three").ok());
  EXPECT_EQ(fs->ReadFile(f).value(), "three");
}

TEST(FileSystem, PutIfAbsentRaceHasOneWinner) {
  FileSystem* fs = FileSystem::Default();
  std::string dir = TempDir("race");
  for (int round = 0; round < 50; round++) {
    std::string f = JoinPath(dir, std::to_string(round));
    std::atomic<int> wins{0}, losses{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++)
      threads.emplace_back([&, t] {
        Status s = fs->PutIfAbsent(f, "writer " + std::to_string(t));
        if (s.ok()) wins++;
        else if (s.IsAlreadyExists()) losses++;
      });
    for (auto& t : threads) t.join();
    EXPECT_EQ(wins.load(), 1);
    EXPECT_EQ(losses.load(), 3);
  }
  EXPECT_EQ(fs->ListDirectory(dir).value().size(), 50u);
}

// FsyncAll's helper threads are kept between calls: many calls from several
// threads at once all finish, each reports a path that cannot be synced, and
// a child forked after the helpers started (it has none of them) still
// finishes its FsyncAll instead of waiting forever for one.
TEST(FileSystem, FsyncAllKeepsItsHelpers) {
  FileSystem* fs = FileSystem::Default();
  std::string dir = TempDir("fsync_all");
  DurableSet paths;
  for (int i = 0; i < 5; i++) {
    std::string f = JoinPath(dir, "f" + std::to_string(i));
    ASSERT_TRUE(fs->WriteFile(f, "x").ok());
    paths.files.insert(f);
  }
  paths.directories.insert(dir);
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; t++)
    callers.emplace_back([&] {
      for (int i = 0; i < 10; i++) ok += fs->FsyncAll(paths).ok();
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(ok.load(), 40);
  DurableSet missing = paths;
  missing.files.insert(JoinPath(dir, "gone"));
  Status s = fs->FsyncAll(missing);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(s.message().find("gone"), std::string::npos) << s.ToString();
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(20);  // a hang fails the test instead of blocking it
    _exit(fs->FsyncAll(paths).ok() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  std::filesystem::remove_all(dir);
}

TEST(FaultInjection, FailsTheNthOperation) {
  std::string dir = TempDir("fault");
  FaultInjectionFileSystem fs(FileSystem::Default());
  fs.FailAfter(FaultInjectionFileSystem::Op::kLink, 2);
  EXPECT_TRUE(fs.PutIfAbsent(JoinPath(dir, "a"), "a").ok());
  Status s = fs.PutIfAbsent(JoinPath(dir, "b"), "b");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_FALSE(fs.FileExists(JoinPath(dir, "b")));
  EXPECT_TRUE(fs.PutIfAbsent(JoinPath(dir, "b"), "b").ok());  // one-shot fault
  EXPECT_EQ(fs.ListDirectory(dir).value(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(fs.Count(FaultInjectionFileSystem::Op::kLink), 3);
  // PutIfAbsent = 1 write, 2 fsyncs (file + directory), 1 link.
  EXPECT_EQ(fs.Count(FaultInjectionFileSystem::Op::kWrite), 3);
  EXPECT_EQ(fs.Count(FaultInjectionFileSystem::Op::kFsync), 5);
}

TEST(FaultInjection, CrashLosesUnsyncedData) {
  std::string dir = TempDir("crash");
  FaultInjectionFileSystem fs(FileSystem::Default());
  ASSERT_TRUE(fs.PutIfAbsent(JoinPath(dir, "durable"), "d").ok());
  ASSERT_TRUE(fs.WriteFile(JoinPath(dir, "unsynced"), "u").ok());
  ASSERT_TRUE(fs.WriteFile(JoinPath(dir, "synced-no-dir"), "s").ok());
  ASSERT_TRUE(fs.Fsync(JoinPath(dir, "synced-no-dir")).ok());
  ASSERT_TRUE(fs.SimulateCrash().ok());
  EXPECT_EQ(fs.ListDirectory(dir).value(), std::vector<std::string>{"durable"});
  EXPECT_EQ(fs.ReadFile(JoinPath(dir, "durable")).value(), "d");
}

}  // namespace
}  // namespace lakestream
