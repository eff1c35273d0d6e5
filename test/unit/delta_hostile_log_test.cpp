// Hostile Delta logs and hostile JSON: deep nesting is a named error, never a
// crash; a log naming files outside its table is refused before any of them
// is read (the hostile logs of test/fuzz/corpus/delta_table replayed through
// the fuzz target's harness, whose file system aborts on a read outside the
// table); CREATE TABLE ... LOCATION refuses folders that other tables' files
// share; VACUUM deletes only what the table's log names or lakestream wrote.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "../fuzz/delta_table_harness.hpp"
#include "common/json_parse.hpp"
#include "lakestream.hpp"
#include "query_test_util.hpp"
#include "storage/delta/delta_actions.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;

std::string ReadRepoFile(const std::string& relative) {
  std::ifstream in(std::string(LAKESTREAM_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fuzz::HostileLogOutcome Replay(const std::string& corpus_file) {
  std::string input = ReadRepoFile("test/fuzz/corpus/delta_table/" + corpus_file);
  EXPECT_FALSE(input.empty()) << corpus_file;
  return fuzz::RunHostileLog(input);
}

TEST(JsonParse, DepthIsCountedOutsideStringsOnly) {
  EXPECT_EQ(JsonDepthExceededAt("[[1]]", 2), std::string_view::npos);
  EXPECT_EQ(JsonDepthExceededAt("[[[1]]]", 2), 2u);
  EXPECT_EQ(JsonDepthExceededAt(R"({"a":"[[[[\"[[[["})", 1), std::string_view::npos);
  EXPECT_EQ(JsonDepthExceededAt(R"(["\\",[[0]]])", 2), 7u);  // an escaped backslash ends no string
  JsonError error;
  auto deep = ParseJson(std::string(200000, '[') + std::string(200000, ']'), &error);
  EXPECT_TRUE(deep.is_discarded());
  EXPECT_TRUE(error.too_deep);
  EXPECT_NE(error.message.find("nested more than 1000 levels deep (at column 1001)"), std::string::npos) << error.message;
  auto ok = ParseOrderedJson(std::string(1000, '[') + std::string(1000, ']'), &error);
  EXPECT_FALSE(ok.is_discarded());
  auto malformed = ParseJson("{\"a\":", &error);
  EXPECT_TRUE(malformed.is_discarded());
  EXPECT_FALSE(error.too_deep);
  EXPECT_EQ(error.message.rfind("malformed JSON (", 0), 0u) << error.message;
}

TEST(HostileDeltaLog, DeepNestingIsACorruptionNamingFileAndLine) {
  std::string commit = "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n" + std::string(200000, '[') + "\n";
  auto parsed = delta::ParseCommit(commit, "00000000000000000007.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_TRUE(parsed.status().IsCorruption());
  EXPECT_NE(parsed.status().message().find("00000000000000000007.json line 2: JSON is nested more than 1000"),
            std::string::npos)
      << parsed.status().message();

  // The same at open: attaching the table reports it, the process lives.
  auto outcome = fuzz::RunHostileLog(commit);
  EXPECT_TRUE(outcome.load.IsCorruption()) << outcome.load.ToString();
  EXPECT_NE(outcome.load.message().find("line 2: JSON is nested more than 1000"), std::string::npos);
  for (const char* seed : {"deep_array.json", "deep_unclosed.json"}) {
    auto deep = Replay(seed);
    EXPECT_TRUE(deep.load.IsCorruption()) << seed << ": " << deep.load.ToString();
    EXPECT_NE(deep.load.message().find("line 3: JSON is nested more than 1000"), std::string::npos) << seed;
  }
  EXPECT_FALSE(Replay("deep_schema_string.json").load.ok());
  EXPECT_EQ(Replay("deep_stats.json").rows_read, 3);  // unreadable stats are no stats
}

TEST(HostileDeltaLog, FilesOutsideTheTableAreRefusedBeforeAnyRead) {
  auto valid = Replay("valid_table.json");
  ASSERT_TRUE(valid.load.ok()) << valid.load.ToString();
  ASSERT_TRUE(valid.confined.ok()) << valid.confined.ToString();
  EXPECT_EQ(valid.rows_read, 3);
  EXPECT_EQ(Replay("absolute_path_inside.json").rows_read, 3);
  for (const char* seed : {"absolute_path_outside.json", "file_uri_outside.json", "dotdot_path.json",
                           "dotdot_inside_path.json", "remove_outside.json", "dv_absolute_outside.json",
                           "dv_relative_dotdot.json"}) {
    auto outcome = Replay(seed);
    ASSERT_TRUE(outcome.load.ok()) << seed << ": " << outcome.load.ToString();
    EXPECT_TRUE(outcome.confined.IsCorruption()) << seed;
    EXPECT_NE(outcome.confined.message().find("lies outside the table's folder"), std::string::npos)
        << seed << ": " << outcome.confined.message();
    EXPECT_EQ(outcome.rows_read, 0) << seed;
  }
}

std::string ErrorOf(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  EXPECT_TRUE(r->HasError()) << sql;
  return r->HasError() ? r->GetError() : "";
}

TEST(TableLocation, FoldersOtherTablesUseAreRefused) {
  testing::ScopedTempDir dir;
  std::string db_path = dir.path + "/db";
  Database db(db_path);
  Connection con(db);
  Ok(con, "CREATE TABLE managed (id INT)");
  Ok(con, "CREATE TABLE ext (id INT) LOCATION '" + dir.path + "/ext'");
  struct Case {
    std::string location;
    std::string expected;
  };
  std::vector<Case> cases = {
      {db_path, "that is the database folder " + db_path},
      {dir.path, "holds the database folder " + db_path},
      {db_path + "/managed", "is the folder of table managed"},
      {db_path + "/managed/part", "is inside the folder " + db_path + "/managed of table managed"},
      {dir.path + "/ext", "is the folder of table ext"},
      {dir.path + "/ext/sub", "is inside the folder " + dir.path + "/ext of table ext"},
  };
  for (auto& c : cases) {
    std::string error = ErrorOf(con, "CREATE TABLE x (id INT) LOCATION '" + c.location + "'");
    EXPECT_NE(error.find("LOCATION '" + c.location + "'"), std::string::npos) << error;
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.location << ": " << error;
  }
  // Around a table: the folder holding ext's.
  fs::create_directories(dir.path + "/around");
  Ok(con, "CREATE TABLE inner_t (id INT) LOCATION '" + dir.path + "/around/inner'");
  std::string around = ErrorOf(con, "CREATE TABLE x (id INT) LOCATION '" + dir.path + "/around'");
  EXPECT_NE(around.find("holds the folder " + dir.path + "/around/inner of table inner_t"), std::string::npos) << around;
  // Inside a Delta table no table of this database attached.
  std::string foreign = dir.path + "/foreign";
  fs::create_directories(foreign + "/_delta_log");
  std::string inside = ErrorOf(con, "CREATE TABLE x (id INT) LOCATION '" + foreign + "/part=1'");
  EXPECT_NE(inside.find("is inside the Delta table at " + foreign), std::string::npos) << inside;
  // A folder with files that is not a Delta table (as Delta).
  fs::create_directories(dir.path + "/data");
  std::ofstream(dir.path + "/data/notes.txt") << "mine";
  std::string not_empty = ErrorOf(con, "CREATE TABLE x (id INT) LOCATION '" + dir.path + "/data'");
  EXPECT_NE(not_empty.find("the folder " + dir.path + "/data is not empty and is not a Delta table"), std::string::npos)
      << not_empty;
  EXPECT_TRUE(fs::exists(dir.path + "/data/notes.txt"));
  EXPECT_FALSE(fs::exists(dir.path + "/data/_delta_log"));
  // An empty or new folder is fine, and so is attaching an existing table.
  Ok(con, "CREATE TABLE fresh (id INT) LOCATION '" + dir.path + "/fresh'");
  Ok(con, "DROP TABLE ext");
  Ok(con, "CREATE TABLE ext_again LOCATION '" + dir.path + "/ext'");
}

std::vector<std::string> Column(QueryResult& r) {
  std::vector<std::string> values;
  for (idx_t i = 0; i < r.RowCount(); i++) values.push_back(r.GetValue(0, i).GetString());
  return values;
}

TEST(TableVacuum, ShortRetentionNeedsDeltasSetting) {
  testing::ScopedTempDir dir;
  Database db(dir.path + "/db");
  Connection con(db);
  Ok(con, "CREATE TABLE t (id INT)");
  std::string error = ErrorOf(con, "VACUUM t RETAIN 0 HOURS");
  EXPECT_NE(error.find("VACUUM t RETAIN 0 HOURS is shorter than the table's retention"), std::string::npos) << error;
  EXPECT_NE(error.find("delta.deletedFileRetentionDuration (168 hours)"), std::string::npos) << error;
  EXPECT_NE(error.find("SET spark.databricks.delta.retentionDurationCheck.enabled = false"), std::string::npos) << error;
  EXPECT_FALSE(ErrorOf(con, "VACUUM t RETAIN 1 HOURS DRY RUN").empty());
  Ok(con, "VACUUM t RETAIN 168 HOURS");
  Ok(con, "ALTER TABLE t SET TBLPROPERTIES ('delta.deletedFileRetentionDuration' = 'interval 1 hours')");
  Ok(con, "VACUUM t RETAIN 2 HOURS DRY RUN");
  Ok(con, "SET spark.databricks.delta.retentionDurationCheck.enabled = false");
  Ok(con, "VACUUM t RETAIN 0 HOURS");
}

// A table around another (attached before LOCATION refused it, or made by
// another engine) and files no log names: VACUUM RETAIN 0 HOURS leaves them.
TEST(TableVacuum, DeletesOnlyWhatItsLogNamesOrItWrote) {
  testing::ScopedTempDir dir;
  std::string outer = dir.path + "/outer";
  Database db(dir.path + "/db");
  Connection con(db);
  Ok(con, "CREATE TABLE inner_t (id INT) LOCATION '" + outer + "/inner'");
  Ok(con, "INSERT INTO inner_t VALUES (1)");
  Ok(con, "INSERT INTO inner_t VALUES (2)");
  Ok(con, "DELETE FROM inner_t WHERE id = 1");  // a removed file of inner_t's
  // outer is made the way LOCATION refuses now: its own log, around inner_t.
  {
    Database other(dir.path + "/db_other");
    Connection c2(other);
    fs::rename(outer + "/inner", dir.path + "/inner_aside");
    Ok(c2, "CREATE TABLE outer_t (id INT) LOCATION '" + outer + "'");
    fs::rename(dir.path + "/inner_aside", outer + "/inner");
    Ok(c2, "INSERT INTO outer_t VALUES (10)");
    Ok(c2, "UPDATE outer_t SET id = 11");  // outer_t's first file is removed
    std::ofstream(outer + "/foreign.parquet") << "not the table's";
    std::string orphan = outer + "/part-00000-0d4c2c8e-6a4b-4c1e-9f1a-2b3c4d5e6f70.c000.zstd.parquet";
    std::ofstream(orphan) << "crashed writer";
    for (const std::string& f : {orphan, outer + "/foreign.parquet"})
      fs::last_write_time(f, fs::file_time_type::clock::now() - std::chrono::hours(1));
    std::vector<std::string> inner_files;
    for (auto& e : fs::recursive_directory_iterator(outer + "/inner")) inner_files.push_back(e.path().string());
    Ok(c2, "SET spark.databricks.delta.retentionDurationCheck.enabled = false");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // RETAIN 0: removed before now, strictly
    auto deleted = Column(*Ok(c2, "VACUUM outer_t RETAIN 0 HOURS"));
    ASSERT_EQ(deleted.size(), 2u) << ::testing::PrintToString(deleted);
    for (auto& f : deleted) {
      EXPECT_EQ(f.find(outer + "/inner"), std::string::npos) << f;
      EXPECT_NE(f.find(outer + "/part-"), std::string::npos) << f;
    }
    EXPECT_TRUE(fs::exists(outer + "/foreign.parquet"));
    for (auto& f : inner_files) EXPECT_TRUE(fs::exists(f)) << f;
    auto n = Ok(c2, "SELECT count(*) FROM outer_t");
    EXPECT_EQ(n->GetValue(0, 0).GetBigint(), 1);
  }
  auto rows = Ok(con, "SELECT id FROM inner_t");
  ASSERT_EQ(rows->RowCount(), 1u);
  EXPECT_EQ(rows->GetValue(0, 0).GetBigint(), 2);
  auto history = Ok(con, "SELECT count(*) FROM inner_t VERSION AS OF 2");
  EXPECT_EQ(history->GetValue(0, 0).GetBigint(), 2);  // its removed file is still there
}

}  // namespace
}  // namespace lakestream
