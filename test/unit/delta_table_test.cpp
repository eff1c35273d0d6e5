// Delta tables through the SQL API: data skipping never drops a matching row,
// and skips files it can prove irrelevant (shown by deleting such a file).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <random>

#include "common/exception.hpp"
#include "lakestream.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

int64_t Count(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  EXPECT_FALSE(r->HasError()) << sql << ": " << r->GetError();
  if (r->HasError()) return -1;
  return r->GetValue(0, 0).GetBigint();
}

TEST(DeltaTable, DataSkippingKeepsEveryMatchingRow) {
  testing::ScopedTempDir dir("lakestream_delta_table");
  Database db(dir.path);
  Connection con(db);
  ASSERT_FALSE(con.Query("CREATE TABLE t (p INT, id BIGINT, d DOUBLE, s STRING, ts TIMESTAMP) PARTITIONED BY (p)")->HasError());
  // Twenty commits, each a file per partition with its own id range.
  for (int batch = 0; batch < 20; batch++) {
    std::string sql = "INSERT INTO t SELECT CAST(range % 4 AS INT), range + " + std::to_string(batch * 1000) +
                      ", (range + " + std::to_string(batch) + ") / 7.0, 's' || (range + " + std::to_string(batch * 37) +
                      "), CAST(DATE '2024-01-01' + CAST(range % 28 AS INT) AS TIMESTAMP) FROM range(500)";
    auto r = con.Query(sql);
    ASSERT_FALSE(r->HasError()) << r->GetError();
  }
  std::mt19937 rng(42);
  const char* ops[] = {"=", "<", "<=", ">", ">="};
  for (int i = 0; i < 200; i++) {
    int64_t k = static_cast<int64_t>(rng() % 21000);
    std::string op = ops[rng() % 5];
    int p = static_cast<int>(rng() % 5);
    // `id + 0` and `p + 0` defeat skipping, giving the reference answer.
    std::string pruned = "SELECT count(*) FROM t WHERE id " + op + " " + std::to_string(k) + " AND p = " + std::to_string(p);
    std::string reference = "SELECT count(*) FROM t WHERE id + 0 " + op + " " + std::to_string(k) + " AND p + 0 = " + std::to_string(p);
    EXPECT_EQ(Count(con, pruned), Count(con, reference)) << pruned;
    std::string s = "s" + std::to_string(rng() % 1200);
    EXPECT_EQ(Count(con, "SELECT count(*) FROM t WHERE s " + op + " '" + s + "'"),
              Count(con, "SELECT count(*) FROM t WHERE s || '' " + op + " '" + s + "'"));
  }
  EXPECT_EQ(Count(con, "SELECT count(*) FROM t WHERE ts = TIMESTAMP '2024-01-08 00:00:00'"), 360);
  EXPECT_EQ(Count(con, "SELECT count(*) FROM t WHERE d >= 70.0"), Count(con, "SELECT count(*) FROM t WHERE d + 0 >= 70.0"));
}

TEST(DeltaTable, SkippedFilesAreNotRead) {
  testing::ScopedTempDir dir("lakestream_delta_table");
  Database db(dir.path);
  Connection con(db);
  ASSERT_FALSE(con.Query("CREATE TABLE ev (day DATE, id BIGINT) PARTITIONED BY (day)")->HasError());
  ASSERT_FALSE(con.Query("INSERT INTO ev SELECT DATE '2024-01-01' + CAST(range % 3 AS INT), range FROM range(300)")->HasError());
  ASSERT_FALSE(con.Query("INSERT INTO ev SELECT DATE '2024-01-01', range + 1000 FROM range(10)")->HasError());
  // Remove the third day's data file behind the table's back.
  for (auto& f : std::filesystem::directory_iterator(dir.path + "/ev/day=2024-01-03")) std::filesystem::remove(f.path());
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE day = DATE '2024-01-02'"), 100);  // partition pruning
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev WHERE id >= 1000"), 10);               // min/max pruning
  // count(*) without WHERE comes from the log (numRecords), as in Spark: no
  // data file is opened, so the missing one still counts; reading values
  // names it.
  EXPECT_EQ(Count(con, "SELECT count(*) FROM ev"), 310);
  auto all = con.Query("SELECT count(id) FROM ev");
  ASSERT_TRUE(all->HasError());
  EXPECT_NE(all->GetError().find("missing its data file"), std::string::npos) << all->GetError();
}

TEST(DeltaTable, AnIdleWriterKeepsNobodyOut) {
  testing::ScopedTempDir dir("lakestream_delta_table");
  Database first(dir.path);
  Connection a(first);
  ASSERT_FALSE(a.Query("CREATE TABLE t (x INT)")->HasError());
  // Opening a second time while `first` is open (and idle) works, for
  // reading and for writing, and each sees the other's commits.
  Database second(dir.path);
  Connection b(second);
  auto r = b.Query("INSERT INTO t VALUES (1); CREATE TABLE u (y INT)");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(Count(a, "SELECT count(*) FROM t"), 1);
  r = a.Query("INSERT INTO u VALUES (2), (3)");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(Count(b, "SELECT count(*) FROM u"), 2);
  r = b.Query("DROP TABLE u");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  r = a.Query("SELECT * FROM u");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("u"), std::string::npos) << r->GetError();
}

TEST(DeltaTable, AWriterWaitsForTheLockThenNamesItsHolder) {
  testing::ScopedTempDir dir("lakestream_delta_table");
  DatabaseOptions options;
  options.lock_wait_ms = 300;
  Database db(dir.path, options);
  Connection con(db);
  ASSERT_FALSE(con.Query("CREATE TABLE t (x INT)")->HasError());
  // Another holder of the lock, as a writing process would hold it.
  std::string lock_path = dir.path + "/_lakestream/LOCK";
  int fd = ::open(lock_path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  ASSERT_EQ(::ftruncate(fd, 0), 0);
  ASSERT_EQ(::pwrite(fd, "4242\n", 5, 0), 5);
  auto start = std::chrono::steady_clock::now();
  auto r = con.Query("INSERT INTO t VALUES (1)");
  auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("already open for writing by process 4242"), std::string::npos) << r->GetError();
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  EXPECT_EQ(Count(con, "SELECT count(*) FROM t"), 0);  // reading does not wait
  ::close(fd);  // releases the lock
  r = con.Query("INSERT INTO t VALUES (1)");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(Count(con, "SELECT count(*) FROM t"), 1);

  DatabaseOptions read_only;
  read_only.read_only = true;
  Database reader(dir.path, read_only);
  Connection ro(reader);
  r = ro.Query("CREATE TABLE x (a INT)");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("read-only"), std::string::npos);
}

}  // namespace
}  // namespace lakestream
