// A pass of RUN SINK moves only its own source to the latest version
// (RefreshSinkSource, sink/sink_runner.hpp): a follower passes after every
// commit of the source, and refreshing every table of the database (reading
// the writer's commits to tables the sink never reads) cost a millisecond of
// each pass. Other statements still see every table at its latest version.
// Two handles of one database directory stand for the writer's process and
// the follower's.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lakestream.hpp"
#include "main/connection_access.hpp"
#include "query_test_util.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {
namespace {

class SinkPassRefresh : public ::testing::Test {
 protected:
  // The writer's tables and sink s (`sink_source`: a table or view of them),
  // then the follower's handle, which passes once with nothing to deliver.
  void Open(const std::string& schema_sql, const std::string& sink_source) {
    writer_db_ = std::make_unique<Database>(dir_.path + "/db");
    writer_ = std::make_unique<Connection>(*writer_db_);
    for (auto& sql : {schema_sql, "CREATE SINK s FROM " + sink_source + " INTO FILE '" + Out() + "'"}) Ok(*writer_, sql);
    follower_db_ = std::make_unique<Database>(dir_.path + "/db");
    follower_ = std::make_unique<Connection>(*follower_db_);
    EXPECT_EQ(Pass(), 0);
  }
  std::string Out() const { return dir_.path + "/out.jsonl"; }

  // One RUN SINK of the follower: the messages it delivered.
  int64_t Pass() {
    auto r = Ok(*follower_, "RUN SINK s");
    return r->HasError() ? -1 : r->GetValue(0, 0).GetBigint();
  }

  // The version `table` has in the follower's database as it last read it.
  int64_t KnownVersion(const std::string& table) {
    TableCatalogEntry* entry = ConnectionAccess::Context(*follower_).GetCatalog().FindTable(table);
    DeltaTable* delta = entry ? DatabaseInstance::AsDelta(*entry) : nullptr;
    return delta ? delta->Version() : -2;
  }

  lakestream::testing::ScopedTempDir dir_{"sink_pass_refresh"};
  std::unique_ptr<Database> writer_db_;
  std::unique_ptr<Connection> writer_;
  std::unique_ptr<Database> follower_db_;
  std::unique_ptr<Connection> follower_;
};

TEST_F(SinkPassRefresh, RunSinkMovesOnlyItsSource) {
  Open("CREATE TABLE src (id INT PRIMARY KEY, note VARCHAR) TBLPROPERTIES ('change_tracking' = 'true'); "
       "CREATE TABLE other (id INT)",
       "src");
  int64_t other_before = KnownVersion("other");
  int64_t src_before = KnownVersion("src");
  ASSERT_GE(other_before, 0);

  Ok(*writer_, "INSERT INTO other VALUES (1)");
  Ok(*writer_, "INSERT INTO src VALUES (7, 'seven')");
  Ok(*writer_, "INSERT INTO other VALUES (2)");
  EXPECT_EQ(Pass(), 1) << "the pass delivers the source's new row";
  EXPECT_NE(lakestream::testing::ReadWholeFile(Out()).find("seven"), std::string::npos);
  EXPECT_EQ(KnownVersion("src"), src_before + 1) << "the pass moved its source";
  EXPECT_EQ(KnownVersion("other"), other_before) << "and no other table";

  // Any other statement reads every table at its latest version.
  auto count = Ok(*follower_, "SELECT COUNT(*) FROM other");
  EXPECT_EQ(count->GetValue(0, 0).GetBigint(), 2);
  EXPECT_EQ(KnownVersion("other"), other_before + 2);
}

TEST_F(SinkPassRefresh, ASinkOnAViewDeliversEachRowOfAnotherHandlesWritesOnce) {
  Open("CREATE TABLE t (id INT PRIMARY KEY, note VARCHAR) TBLPROPERTIES ('change_tracking' = 'true'); "
       "CREATE MATERIALIZED VIEW v AS SELECT id, note FROM t",
       "v");
  int64_t delivered = 0;
  for (int i = 1; i <= 20; i++) {
    Ok(*writer_, "INSERT INTO t VALUES (" + std::to_string(i) + ", 'row" + std::to_string(i) + "')");
    if (i % 3 == 0) delivered += Pass();
  }
  // The writer's background maintainer refreshes v; reading v catches it up.
  Ok(*writer_, "SELECT COUNT(*) FROM v");
  delivered += Pass();
  std::string text = lakestream::testing::ReadWholeFile(Out());
  EXPECT_EQ(delivered, 20) << text;
  for (int i = 1; i <= 20; i++) {
    std::string note = "\"row" + std::to_string(i) + "\"";
    size_t at = text.find(note);
    EXPECT_NE(at, std::string::npos) << note;
    EXPECT_EQ(text.find(note, at + 1), std::string::npos) << note << " twice";
  }
}

}  // namespace
}  // namespace lakestream
