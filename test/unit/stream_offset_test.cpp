// Where a stream's offset lives (catalog/stream_offset.hpp): a consuming DML
// statement's one durable write is its target's Delta commit, whose txn
// action is the offset; catalog.json is not written. Checks the one write,
// an empty consumption (a commit of txns alone, or nothing), DROP and
// CREATE OR REPLACE of a target (the offset is folded into the catalog, not
// lost), a second Database on the same directory seeing the offset another
// moved, CREATE TABLE AS, and a catalog written before this contract with a
// consumption under way (pending_target), settled once on open. And the
// same rule for materialized views: a refresh that reaches new source
// versions without changing a row commits the view's txns alone, not the catalog.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "lakestream.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class StreamOffsetTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void Open() {
    con_.reset();
    db_ = std::make_unique<Database>(dir_.path);
    con_ = std::make_unique<Connection>(*db_);
  }
  void Close() {
    con_.reset();
    db_.reset();
  }

  std::unique_ptr<QueryResult> Run(Connection& con, const std::string& sql) {
    auto result = con.Query(sql);
    EXPECT_FALSE(result->HasError()) << sql << "\n" << result->GetError();
    return result;
  }
  std::unique_ptr<QueryResult> Run(const std::string& sql) { return Run(*con_, sql); }
  int64_t Scalar(Connection& con, const std::string& sql) { return Run(con, sql)->GetValue(0, 0).AsBigint(); }
  int64_t Scalar(const std::string& sql) { return Scalar(*con_, sql); }
  // DESCRIBE STREAM's offset_version.
  int64_t Offset(Connection& con, const std::string& stream) {
    auto r = Run(con, "DESCRIBE STREAM " + stream);
    return r->GetValue(4, 0).AsBigint();
  }
  int64_t Offset(const std::string& stream) { return Offset(*con_, stream); }
  int64_t Version(const std::string& table) { return Scalar("DESCRIBE HISTORY " + table + " LIMIT 1"); }
  std::string Catalog() { return ReadFile(dir_.path + "/_lakestream/catalog.json"); }
  std::string Commit(const std::string& table, int64_t version) {
    char name[32];
    std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(version));
    return ReadFile(dir_.path + "/" + table + "/_delta_log/" + name);
  }

  // A source with change tracking, its stream, and a target.
  void MakeSourceAndStream() {
    Run("CREATE TABLE src (id INT, v INT) TBLPROPERTIES ('change_tracking' = 'true')");
    Run("CREATE TABLE t (id INT, v INT)");
    Run("CREATE STREAM s ON TABLE src");
  }

  testing::ScopedTempDir dir_{"lakestream_stream_offset"};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(StreamOffsetTest, ConsumingInsertWritesOnlyTheTargetsCommit) {
  MakeSourceAndStream();
  Run("INSERT INTO src VALUES (1, 10), (2, 20)");
  const std::string catalog = Catalog();
  const int64_t target_before = Version("t");
  Run("INSERT INTO t SELECT id, v FROM s");
  EXPECT_EQ(Catalog(), catalog) << "a consuming INSERT must not write catalog.json";
  EXPECT_EQ(Version("t"), target_before + 1);
  EXPECT_NE(Commit("t", target_before + 1).find("\"lakestream.stream."), std::string::npos)
      << "the target's commit holds the stream's txn";
  EXPECT_EQ(Offset("s"), Version("src"));
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"), 2);
  // The offset survives a reopen with nothing in the catalog but its base.
  Close();
  Open();
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
  Run("INSERT INTO src VALUES (3, 30)");
  Run("INSERT INTO t SELECT id, v FROM s");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"), 3);
}

TEST_F(StreamOffsetTest, EmptyConsumptionCommitsTxnsAloneOrNothing) {
  MakeSourceAndStream();
  Run("INSERT INTO src VALUES (1, 10)");
  Run("DELETE FROM src WHERE id = 1");  // the stream's net change is empty
  const std::string catalog = Catalog();
  const int64_t target_before = Version("t");
  Run("INSERT INTO t SELECT id, v FROM s");
  EXPECT_EQ(Catalog(), catalog);
  EXPECT_EQ(Version("t"), target_before + 1) << "the offset moved with a commit of the txn alone";
  std::string commit = Commit("t", target_before + 1);
  EXPECT_NE(commit.find("\"lakestream.stream."), std::string::npos);
  EXPECT_EQ(commit.find("\"add\""), std::string::npos) << commit;
  EXPECT_EQ(Offset("s"), Version("src"));
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"), 0);
  // Nothing new in the stream: nothing is written at all.
  Run("INSERT INTO t SELECT id, v FROM s");
  EXPECT_EQ(Version("t"), target_before + 1);
  EXPECT_EQ(Catalog(), catalog);
}

TEST_F(StreamOffsetTest, DropTableOfATargetKeepsTheOffset) {
  MakeSourceAndStream();
  Run("CREATE TABLE t2 (id INT, v INT)");
  Run("INSERT INTO src VALUES (1, 10)");
  Run("INSERT INTO t2 SELECT id, v FROM s");  // the offset lives in t2's log
  const int64_t consumed = Offset("s");
  EXPECT_EQ(consumed, Version("src"));
  Run("DROP TABLE t2");
  EXPECT_EQ(Offset("s"), consumed) << "DROP TABLE must fold the target's txn into the catalog";
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
  Close();
  Open();
  EXPECT_EQ(Offset("s"), consumed);
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
}

TEST_F(StreamOffsetTest, CreateOrReplaceOfATargetKeepsTheOffset) {
  MakeSourceAndStream();
  Run("INSERT INTO src VALUES (1, 10)");
  Run("INSERT INTO t SELECT id, v FROM s");
  const int64_t consumed = Offset("s");
  Run("CREATE OR REPLACE TABLE t (a STRING)");  // another shape: new storage
  EXPECT_EQ(Offset("s"), consumed);
  Close();
  Open();
  EXPECT_EQ(Offset("s"), consumed);
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
}

TEST_F(StreamOffsetTest, SecondDatabaseSeesTheOffsetTheFirstMoved) {
  MakeSourceAndStream();
  Run("INSERT INTO src VALUES (1, 10), (2, 20)");
  Database other(dir_.path);
  Connection other_con(other);
  EXPECT_EQ(Scalar(other_con, "SELECT count(*) FROM s"), 2);
  Run("INSERT INTO t SELECT id, v FROM s");
  EXPECT_EQ(Scalar(other_con, "SELECT count(*) FROM s"), 0) << "the other Database sees the consumption";
  EXPECT_EQ(Offset(other_con, "s"), Offset("s"));
  // And consumes after it, exactly once.
  Run("INSERT INTO src VALUES (3, 30)");
  Run(other_con, "INSERT INTO t SELECT id, v FROM s");
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"), 3);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT id) FROM t"), 3);
}

TEST_F(StreamOffsetTest, CreateTableAsMovesTheOffsetWithTheNewTable) {
  MakeSourceAndStream();
  Run("INSERT INTO src VALUES (1, 10)");
  Run("CREATE TABLE c AS SELECT id, v FROM s");
  EXPECT_EQ(Scalar("SELECT count(*) FROM c"), 1);
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
  // No rows: the new table's first commit holds the txn alone.
  Run("INSERT INTO src VALUES (2, 20)");
  Run("DELETE FROM src WHERE id = 2");
  Run("CREATE TABLE e AS SELECT id, v FROM s");
  EXPECT_EQ(Scalar("SELECT count(*) FROM e"), 0);
  EXPECT_EQ(Offset("s"), Version("src"));
  Close();
  Open();
  EXPECT_EQ(Offset("s"), Version("src"));
}

// A catalog of a version before this contract, left by a crash between its
// steps: the stream's consumption is pending against t. The open settles it
// once from t's txn and clears it.
TEST_F(StreamOffsetTest, OldCatalogWithAPendingConsumptionIsSettledOnce) {
  MakeSourceAndStream();
  const int64_t created_at = Offset("s");
  Run("INSERT INTO src VALUES (1, 10)");
  Run("INSERT INTO t SELECT id, v FROM s");  // t's log records the txn
  const int64_t consumed = Offset("s");
  ASSERT_GT(consumed, created_at);
  Close();
  // What the older version wrote before t's commit: the base at its old
  // place and the consumption pending.
  std::string catalog = Catalog();
  const std::string pending = "\"pending_target\": \"\"";
  ASSERT_NE(catalog.find(pending), std::string::npos) << catalog;
  catalog.replace(catalog.find(pending), pending.size(), "\"pending_target\": \"t\"");
  const std::string version = "\"pending_version\": -1";
  ASSERT_NE(catalog.find(version), std::string::npos) << catalog;
  catalog.replace(catalog.find(version), version.size(), "\"pending_version\": " + std::to_string(consumed));
  std::ofstream(dir_.path + "/_lakestream/catalog.json", std::ios::trunc) << catalog;
  Open();
  EXPECT_EQ(Offset("s"), consumed);
  EXPECT_EQ(Scalar("SELECT count(*) FROM s"), 0);
  std::string settled = Catalog();
  EXPECT_NE(settled.find(pending), std::string::npos) << "the pending record is cleared: " << settled;
  EXPECT_NE(settled.find("\"offset\": " + std::to_string(consumed)), std::string::npos) << settled;
  // Settled once: the next open writes nothing.
  Close();
  Open();
  EXPECT_EQ(Catalog(), settled);
}

// A materialized view's source versions live in its log's txns (docs/views.md,
// "Crash safety"): a source commit the view filters out moves them with a
// commit of the txns alone; catalog.json stays as it was.
TEST_F(StreamOffsetTest, ViewRefreshWithoutRowChangesCommitsTxnsNotTheCatalog) {
  Run("CREATE TABLE src (id INT, v INT) TBLPROPERTIES ('change_tracking' = 'true')");
  Run("INSERT INTO src VALUES (1, 1)");
  Run("CREATE MATERIALIZED VIEW mv AS SELECT id, v FROM src WHERE v > 0");
  Run("INSERT INTO src VALUES (2, 2)");
  EXPECT_EQ(Scalar("SELECT count(*) FROM mv"), 2);  // a read catches the view up first
  const std::string catalog = Catalog();
  const int64_t view_before = Version("mv");
  Run("INSERT INTO src VALUES (3, -1)");  // filtered out by the view
  EXPECT_EQ(Scalar("SELECT count(*) FROM mv"), 2);
  EXPECT_EQ(Catalog(), catalog) << "a refresh that changed no row must not write catalog.json";
  ASSERT_EQ(Version("mv"), view_before + 1);
  std::string commit = Commit("mv", view_before + 1);
  EXPECT_NE(commit.find("\"lakestream.view.source.src\""), std::string::npos) << commit;
  EXPECT_EQ(commit.find("\"add\""), std::string::npos) << commit;
  Close();
  Open();
  auto refreshed = Run("REFRESH MATERIALIZED VIEW mv");
  EXPECT_EQ(refreshed->GetValue(0, 0).ToString(), "up to date");
}

}  // namespace
}  // namespace lakestream
