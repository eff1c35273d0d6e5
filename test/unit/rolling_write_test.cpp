// Writes of any size stream into rolling data files: INSERT, CREATE TABLE AS
// and COPY FROM end a file at the table's delta.targetFileSize and start the
// next, and commit every file in one Delta version (add actions with
// stats); an interrupted or failed write commits nothing and leaves no file.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "common/delta_table_properties.hpp"
#include "lakestream.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

int64_t Number(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  EXPECT_FALSE(r->HasError()) << sql << ": " << r->GetError();
  if (r->HasError()) return -1;
  return r->GetValue(0, 0).AsBigint();
}

void Exec(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  ASSERT_FALSE(r->HasError()) << sql << ": " << r->GetError();
}

// Parquet files under `dir` (relative paths), data or change data.
std::set<std::string> ParquetFiles(const std::string& dir) {
  std::set<std::string> files;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".parquet") {
      files.insert(std::filesystem::relative(e.path(), dir).string());
    }
  }
  return files;
}

std::set<std::string> LogVersions(const std::string& table) {
  std::set<std::string> versions;
  for (auto& e : std::filesystem::directory_iterator(table + "/_delta_log")) {
    if (e.path().extension() == ".json") versions.insert(e.path().filename().string());
  }
  return versions;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

std::string LogFile(const std::string& table, int version) {
  char name[64];
  std::snprintf(name, sizeof(name), "/_delta_log/%020d.json", version);
  return table + name;
}

TEST(RollingWrite, InsertRollsFilesAtTheTargetSizeInOneCommit) {
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  Exec(con, "CREATE TABLE t (a BIGINT, s VARCHAR) TBLPROPERTIES ('delta.targetFileSize' = '256kb')");
  std::string table = dir.path + "/t";
  Exec(con, "INSERT INTO t SELECT range, 'row ' || (range * 7919 % 1000003) FROM range(400000)");
  auto files = ParquetFiles(table);
  EXPECT_GE(files.size(), 3u) << "a 256 KB target over some MB of rows makes several files";
  // One commit (version 1) names every file, each with its row count.
  EXPECT_EQ(LogVersions(table).size(), 2u);
  std::string log = ReadFile(LogFile(table, 1));
  EXPECT_EQ(Occurrences(log, "{\"add\":"), files.size());
  EXPECT_EQ(Occurrences(log, "numRecords"), files.size());
  EXPECT_EQ(Number(con, "SELECT count(*) FROM t"), 400000);
  EXPECT_EQ(Number(con, "SELECT sum(a) FROM t"), 400000LL * 399999 / 2);
  EXPECT_EQ(Number(con, "SELECT count(DISTINCT a) FROM t WHERE s LIKE 'row %'"), 400000);
  // Each file is near the target, none far beyond it (a row group at most).
  for (auto& f : files) EXPECT_LT(std::filesystem::file_size(table + "/" + f), 4u << 20) << f;
}

TEST(RollingWrite, DefaultTargetKeepsASmallInsertInOneFile) {
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  Exec(con, "CREATE TABLE t AS SELECT range AS a FROM range(100000)");
  EXPECT_EQ(ParquetFiles(dir.path + "/t").size(), 1u);
  EXPECT_EQ(Number(con, "SELECT count(*) FROM t"), 100000);
}

TEST(RollingWrite, CreateTableAsAndPartitionedTablesRollToo) {
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  Exec(con, "CREATE TABLE c TBLPROPERTIES ('delta.targetFileSize' = '128kb') AS "
           "SELECT range AS a, 'v' || range AS s FROM range(300000)");
  EXPECT_GE(ParquetFiles(dir.path + "/c").size(), 3u);
  EXPECT_EQ(Number(con, "SELECT count(*) FROM c"), 300000);
  EXPECT_EQ(LogVersions(dir.path + "/c").size(), 2u);  // create + the rows, as before
  Exec(con, "CREATE TABLE p (k INT, a BIGINT, s VARCHAR) PARTITIONED BY (k) TBLPROPERTIES ('delta.targetFileSize' = '64kb')");
  Exec(con, "INSERT INTO p SELECT CAST(range % 2 AS INT), range, 's' || (range * 31 % 99991) FROM range(300000)");
  auto files = ParquetFiles(dir.path + "/p");
  size_t k0 = 0, k1 = 0;
  for (auto& f : files) (f.rfind("k=0/", 0) == 0 ? k0 : k1)++;
  EXPECT_GE(k0, 2u);
  EXPECT_GE(k1, 2u);
  EXPECT_EQ(Occurrences(ReadFile(LogFile(dir.path + "/p", 1)), "{\"add\":"), files.size());
  EXPECT_EQ(Number(con, "SELECT count(*) FROM p WHERE k = 1"), 150000);
  EXPECT_EQ(Number(con, "SELECT sum(a) FROM p"), 300000LL * 299999 / 2);
}

TEST(RollingWrite, OverwriteWithChangeFeedWritesInsertChangeFiles) {
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  Exec(con, "CREATE TABLE t (a BIGINT) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true', "
           "'delta.targetFileSize' = '64kb')");
  Exec(con, "INSERT INTO t SELECT range FROM range(10)");
  Exec(con, "INSERT OVERWRITE t SELECT range + 100 FROM range(100000)");
  EXPECT_EQ(Number(con, "SELECT count(*) FROM t"), 100000);
  EXPECT_EQ(Number(con, "SELECT count(*) FROM table_changes('t', 2) WHERE _change_type = 'insert'"), 100000);
  EXPECT_EQ(Number(con, "SELECT count(*) FROM table_changes('t', 2) WHERE _change_type = 'delete'"), 10);
  size_t cdc = 0;
  for (auto& f : ParquetFiles(dir.path + "/t")) cdc += f.rfind("_change_data/", 0) == 0;
  EXPECT_GE(cdc, 2u);
}

TEST(RollingWrite, FailedInsertLeavesNoFilesAndNoCommit) {
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  Exec(con, "CREATE TABLE t (a BIGINT NOT NULL) TBLPROPERTIES ('delta.targetFileSize' = '64kb')");
  std::string table = dir.path + "/t";
  auto versions = LogVersions(table);
  // The NULL comes after several files were rolled.
  auto r = con.Query("INSERT INTO t SELECT CASE WHEN range = 900000 THEN NULL ELSE range END FROM range(1000000)");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("NOT NULL"), std::string::npos) << r->GetError();
  EXPECT_TRUE(ParquetFiles(table).empty());
  EXPECT_EQ(LogVersions(table), versions);
  EXPECT_EQ(Number(con, "SELECT count(*) FROM t"), 0);
}

TEST(RollingWrite, InterruptedInsertAndCreateTableAsLeaveNothing) {
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  Exec(con, "CREATE TABLE t (a BIGINT) TBLPROPERTIES ('delta.targetFileSize' = '64kb')");
  std::string table = dir.path + "/t";
  auto versions = LogVersions(table);
  for (const char* sql : {"INSERT INTO t SELECT range FROM range(2000000000)",
                          "CREATE TABLE c TBLPROPERTIES ('delta.targetFileSize' = '64kb') AS SELECT range FROM range(2000000000)"}) {
    std::atomic<bool> done{false};
    std::thread interrupter([&] {
      // Late enough that files have rolled; repeated since a request made
      // before the statement starts is cleared.
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      while (!done) {
        con.Interrupt();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
    auto r = con.Query(sql);
    done = true;
    interrupter.join();
    ASSERT_TRUE(r->HasError()) << sql;
    EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
  }
  EXPECT_TRUE(ParquetFiles(table).empty());
  EXPECT_EQ(LogVersions(table), versions);
  EXPECT_FALSE(std::filesystem::exists(dir.path + "/c"));
  EXPECT_EQ(Number(con, "SELECT count(*) FROM t"), 0);
  EXPECT_TRUE(con.Query("SELECT * FROM c")->HasError());
}

TEST(RollingWrite, TargetFileSizeIsCheckedAndParsed) {
  uint64_t bytes = 0;
  EXPECT_TRUE(ParseByteSize("104857600", bytes));
  EXPECT_EQ(bytes, 104857600u);
  EXPECT_TRUE(ParseByteSize("100mb", bytes));
  EXPECT_EQ(bytes, 100u << 20);
  EXPECT_TRUE(ParseByteSize("1 GB", bytes));
  EXPECT_EQ(bytes, 1u << 30);
  EXPECT_FALSE(ParseByteSize("lots", bytes));
  EXPECT_FALSE(ParseByteSize("99999999999999999999", bytes));
  EXPECT_FALSE(ParseByteSize("12 parsecs", bytes));
  EXPECT_EQ(TargetFileSizeOf({}), kDefaultTargetFileSize);
  EXPECT_EQ(TargetFileSizeOf({{"delta.targetfilesize", "1mb"}}), 1u << 20);
  testing::ScopedTempDir dir("lakestream_rolling");
  Database db(dir.path);
  Connection con(db);
  auto r = con.Query("CREATE TABLE t (a INT) TBLPROPERTIES ('delta.targetFileSize' = 'big')");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("delta.targetFileSize"), std::string::npos) << r->GetError();
  EXPECT_NE(r->GetError().find("'big'"), std::string::npos) << r->GetError();
  Exec(con, "CREATE TABLE t (a INT)");
  r = con.Query("ALTER TABLE t SET TBLPROPERTIES ('delta.targetFileSize' = '0')");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("above zero"), std::string::npos) << r->GetError();
}

}  // namespace
}  // namespace lakestream
