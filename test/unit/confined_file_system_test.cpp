// ConfinedFileSystem (common/confined_file_system.hpp) and what it is for:
// with external access off, no symbolic link swapped in between the check of
// a path and its use leads a statement outside the allowed folders. The race
// tests run a thread that flips a path between a real file or folder inside
// and a link to one outside while the statement runs a few hundred times;
// before the confined file system they escaped (read_files read the outside
// file 8 times in 300, COPY TO wrote 50 of 300 files outside).
#include "common/confined_file_system.hpp"

#include <cstdio>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "lakestream.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace stdfs = std::filesystem;

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Atomically exchanges two directory entries (renameat2 RENAME_EXCHANGE): a
// path is always there, as a folder or as a link, never missing.
bool Exchange(const std::string& a, const std::string& b) {
  return ::syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
}

// Runs `flip` in a loop on another thread while it lives. Each state is held
// for 0 to 700 microseconds: flipping flat out on an idle core changes the
// name between every two system calls, and a statement that touches it more
// than once (list, infer, read) would then never succeed, which proves
// nothing; held a little, some statements see one state throughout and the
// flips still land in the middle of others.
class Swapper {
 public:
  explicit Swapper(std::function<void()> flip) : thread_([this, flip] {
      for (int n = 0; !stop_.load(); n++) {
        flip();
        std::this_thread::sleep_for(std::chrono::microseconds(100 * (n % 8)));
      }
    }) {}
  ~Swapper() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Both ways of opening beneath a root: openat2, and the O_NOFOLLOW walk used
// where the kernel lacks it.
class ConfinedTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    previous_ = UseOpenat2ForTesting(GetParam());
    if (GetParam() && !KernelHasOpenat2()) GTEST_SKIP() << "this kernel has no openat2";
    root_ = stdfs::canonical(dir_.path).string();
    stdfs::create_directories(root_ + "/db/_lakestream");
    stdfs::create_directories(root_ + "/db/in");
    stdfs::create_directories(root_ + "/outside");
    WriteText(root_ + "/outside/secret.json", "{\"v\": \"outside\"}\n");
    WriteText(root_ + "/db/in/real.json", "{\"v\": \"inside\"}\n");
  }
  void TearDown() override { UseOpenat2ForTesting(previous_); }

  testing::ScopedTempDir dir_{"lakestream_confined"};
  std::string root_;
  bool previous_ = true;
};

INSTANTIATE_TEST_SUITE_P(OpenWay, ConfinedTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "openat2" : "walk"; });

TEST_P(ConfinedTest, OpensBeneathItsRootsAndFollowsNoLink) {
  ConfinedFileSystem fs({{root_ + "/db", "", "_lakestream"}});
  EXPECT_EQ(fs.ReadFile(root_ + "/db/in/real.json").ValueOrThrow(), "{\"v\": \"inside\"}\n");
  // Outside, by name or by `..`.
  EXPECT_FALSE(fs.ReadFile(root_ + "/outside/secret.json").ok());
  EXPECT_FALSE(fs.ReadFile(root_ + "/db/in/../../outside/secret.json").ok());
  // The catalog folder is no root's.
  WriteText(root_ + "/db/_lakestream/catalog.json", "{}");
  EXPECT_FALSE(fs.ReadFile(root_ + "/db/_lakestream/catalog.json").ok());
  // A link inside that leads inside is judged by where it leads and works;
  // one that leads out is refused.
  stdfs::create_symlink(root_ + "/db/in/real.json", root_ + "/db/in/inner_link.json");
  EXPECT_TRUE(fs.ReadFile(root_ + "/db/in/inner_link.json").ok());
  stdfs::create_symlink(root_ + "/outside/secret.json", root_ + "/db/in/evil.json");
  EXPECT_FALSE(fs.ReadFile(root_ + "/db/in/evil.json").ok());
  // The kernel side alone: a link is never followed, last component or not.
  int root_fd = ::open((root_ + "/db").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(root_fd, 0);
  stdfs::create_symlink(root_ + "/outside", root_ + "/db/up");
  EXPECT_LT(OpenBeneath(root_fd, "in/evil.json", O_RDONLY, 0), 0);
  EXPECT_LT(OpenBeneath(root_fd, "up/secret.json", O_RDONLY, 0), 0);
  EXPECT_LT(OpenBeneath(root_fd, "in/../../outside/secret.json", O_RDONLY, 0), 0);
  EXPECT_LT(OpenBeneath(root_fd, "up/new.json", O_WRONLY | O_CREAT, 0644), 0);
  EXPECT_FALSE(stdfs::exists(root_ + "/outside/new.json"));
  int fd = OpenBeneath(root_fd, "in/real.json", O_RDONLY, 0);
  EXPECT_GE(fd, 0);
  if (fd >= 0) ::close(fd);
  ::close(root_fd);
  // Writes, folders, renames and removals stay beneath too.
  EXPECT_TRUE(fs.CreateDirectories(root_ + "/db/a/b/c").ok());
  EXPECT_TRUE(fs.WriteFile(root_ + "/db/a/b/c/f", "x").ok());
  EXPECT_TRUE(fs.Rename(root_ + "/db/a/b/c/f", root_ + "/db/a/g").ok());
  EXPECT_EQ(fs.ListDirectory(root_ + "/db/a").ValueOrThrow(), (std::vector<std::string>{"b", "g"}));
  EXPECT_FALSE(fs.CreateDirectories(root_ + "/db/up/made").ok());
  EXPECT_FALSE(stdfs::exists(root_ + "/outside/made"));
  EXPECT_FALSE(fs.RemoveFile(root_ + "/db/up/secret.json").ok());
  EXPECT_TRUE(stdfs::exists(root_ + "/outside/secret.json"));
  // Removing a link removes the link, not what it points to.
  EXPECT_TRUE(fs.RemoveFile(root_ + "/db/in/evil.json").ok());
  EXPECT_TRUE(stdfs::exists(root_ + "/outside/secret.json"));
}

TEST_P(ConfinedTest, AllowedPathIsThatFileOnly) {
  WriteText(root_ + "/outside/other.json", "{}");
  ConfinedFileSystem fs({{root_ + "/outside", "secret.json", ""}});
  EXPECT_TRUE(fs.ReadFile(root_ + "/outside/secret.json").ok());
  EXPECT_FALSE(fs.ReadFile(root_ + "/outside/other.json").ok());
}

std::unique_ptr<Database> SafeDatabase(const std::string& dir) {
  DatabaseOptions options;
  options.enable_external_access = false;
  return std::make_unique<Database>(dir, options);
}

// read_files on a name that flips between a file inside and a link to a file
// outside: never the outside file's rows.
TEST_P(ConfinedTest, ReadRaceNeverReadsOutside) {
  auto db = SafeDatabase(root_ + "/db");
  Connection con(*db);
  std::string target = root_ + "/db/in/x.json";
  WriteText(target, "{\"v\": \"inside\"}\n");
  stdfs::create_symlink(root_ + "/outside/secret.json", root_ + "/db/in/.x_link");
  std::atomic<int64_t> flips{0};
  int inside = 0, outside = 0;
  {
    Swapper swapper([&] {
      if (Exchange(target, root_ + "/db/in/.x_link")) flips++;
    });
    for (int i = 0; i < 300; i++) {
      auto r = con.Query("SELECT v FROM read_files('" + target + "', format => 'json')");
      if (r->HasError() || r->RowCount() != 1) continue;
      std::string v = r->GetValue(0, 0).ToString();
      if (v == "outside") outside++;
      if (v == "inside") inside++;
    }
  }
  EXPECT_EQ(outside, 0) << "read_files read the outside file through a swapped link";
  EXPECT_GT(inside, 0) << "the statement never succeeded: the race was not exercised";
  EXPECT_GT(flips.load(), 10);
}

// COPY ... TO into a folder that flips between a real folder inside and a
// link to one outside: nothing is ever created outside.
TEST_P(ConfinedTest, WriteRaceNeverWritesOutside) {
  auto db = SafeDatabase(root_ + "/db");
  Connection con(*db);
  stdfs::create_directories(root_ + "/db/out");
  stdfs::create_directories(root_ + "/outside/target");
  stdfs::create_symlink(root_ + "/outside/target", root_ + "/db/.out_link");
  int written = 0;
  {
    Swapper swapper([&] { Exchange(root_ + "/db/out", root_ + "/db/.out_link"); });
    for (int i = 0; i < 300; i++) {
      auto r = con.Query("COPY (SELECT " + std::to_string(i) + " AS x) TO '" + root_ + "/db/out/f" + std::to_string(i) +
                         ".parquet'");
      if (!r->HasError()) written++;
    }
  }
  int escaped = 0;
  for (auto& e : stdfs::directory_iterator(root_ + "/outside/target")) {
    (void)e;
    escaped++;
  }
  EXPECT_EQ(escaped, 0) << "COPY TO created files in the folder outside";
  EXPECT_GT(written, 0) << "no COPY succeeded: the race was not exercised";
}

// VACUUM of a table whose subfolder flips between a real folder inside and a
// link to one outside: no file outside is deleted.
TEST_P(ConfinedTest, DeleteRaceNeverDeletesOutside) {
  auto db = SafeDatabase(root_ + "/db");
  Connection con(*db);
  ASSERT_FALSE(con.Query("CREATE TABLE t (v INTEGER)")->HasError());
  ASSERT_FALSE(con.Query("INSERT INTO t VALUES (1)")->HasError());
  ASSERT_FALSE(con.Query("SET spark.databricks.delta.retentionDurationCheck.enabled = false")->HasError());
  std::string table = root_ + "/db/t";
  ASSERT_TRUE(stdfs::exists(table + "/_delta_log"));
  stdfs::create_directories(table + "/sub");
  stdfs::create_directories(root_ + "/outside/victim");
  stdfs::create_symlink(root_ + "/outside/victim", table + "/.sub_link");
  auto old = stdfs::file_time_type::clock::now() - std::chrono::hours(24 * 30);
  int deleted_outside = 0, deleted_inside = 0;
  for (int round = 0; round < 40; round++) {
    // Both places hold an old orphan file of the same name; only the inside
    // one is the table's to delete.
    std::string inside_dir = stdfs::is_symlink(table + "/sub") ? table + "/.sub_link" : table + "/sub";
    // Named as lakestream names its data files, so VACUUM takes the orphan
    // for one of its own (it deletes nothing else that its log never named).
    char uuid[40];
    snprintf(uuid, sizeof(uuid), "00000000-0000-0000-0000-%012d", round);
    std::string name = std::string("/part-00000-") + uuid + ".c000.zstd.parquet";
    WriteText(inside_dir + name, "x");
    WriteText(root_ + "/outside/victim" + name, "x");
    stdfs::last_write_time(inside_dir + name, old);
    stdfs::last_write_time(root_ + "/outside/victim" + name, old);
    {
      Swapper swapper([&] { Exchange(table + "/sub", table + "/.sub_link"); });
      for (int i = 0; i < 5; i++) (void)con.Query("VACUUM t RETAIN 0 HOURS");
    }
    if (!stdfs::exists(root_ + "/outside/victim" + name)) deleted_outside++;
    std::string real = stdfs::is_symlink(table + "/sub") ? table + "/.sub_link" : table + "/sub";
    if (!stdfs::exists(real + name)) deleted_inside++;
  }
  EXPECT_EQ(deleted_outside, 0) << "VACUUM deleted files in the folder outside";
  EXPECT_GT(deleted_inside, 0) << "VACUUM never deleted the orphan inside: the race was not exercised";
}

}  // namespace
}  // namespace lakestream
