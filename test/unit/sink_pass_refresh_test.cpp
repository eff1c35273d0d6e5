// A pass of RUN SINK moves only its own source to the latest version
// (RefreshSinkSource, sink/sink_runner.hpp): a follower passes after every
// commit of the source, and refreshing every table of the database (reading
// the writer's commits to tables the sink never reads) was most of a pass's
// time. Other statements still see every table at its latest version.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "main/connection_access.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {
namespace {

void Exec(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  ASSERT_FALSE(r->HasError()) << sql << "\n" << r->GetError();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The version `table` has in `con`'s database as it last read it (no refresh).
int64_t KnownVersion(Connection& con, const std::string& table) {
  ClientContext& context = ConnectionAccess::Context(con);
  TableCatalogEntry* entry = context.GetCatalog().FindTable(table);
  DeltaTable* delta = entry ? DatabaseInstance::AsDelta(*entry) : nullptr;
  return delta ? delta->Version() : -2;
}

TEST(SinkPassRefresh, RunSinkMovesOnlyItsSource) {
  lakestream::testing::ScopedTempDir tmp;
  std::string path = tmp.path + "/db";
  std::string out = tmp.path + "/out.jsonl";
  // Two handles of one database directory, as a writer process and a
  // follower process would hold it.
  Database writer_db(path);
  Connection writer(writer_db);
  Exec(writer, "CREATE TABLE src (id INT PRIMARY KEY, note VARCHAR) TBLPROPERTIES ('change_tracking' = 'true')");
  Exec(writer, "CREATE TABLE other (id INT)");
  Exec(writer, "CREATE SINK s FROM src INTO FILE '" + out + "'");
  Database follower_db(path);
  Connection follower(follower_db);
  Exec(follower, "RUN SINK s");  // the first pass, with nothing to deliver
  int64_t other_before = KnownVersion(follower, "other");
  int64_t src_before = KnownVersion(follower, "src");
  ASSERT_GE(other_before, 0);

  Exec(writer, "INSERT INTO other VALUES (1)");
  Exec(writer, "INSERT INTO src VALUES (7, 'seven')");
  Exec(writer, "INSERT INTO other VALUES (2)");
  auto pass = follower.Query("RUN SINK s");
  ASSERT_FALSE(pass->HasError()) << pass->GetError();
  EXPECT_EQ(pass->GetValue(0, 0).GetBigint(), 1) << "the pass delivers the source's new row";
  EXPECT_NE(ReadFile(out).find("seven"), std::string::npos) << ReadFile(out);
  EXPECT_EQ(KnownVersion(follower, "src"), src_before + 1) << "the pass moved its source";
  EXPECT_EQ(KnownVersion(follower, "other"), other_before) << "and no other table";

  // Any other statement reads every table at its latest version.
  auto count = follower.Query("SELECT COUNT(*) FROM other");
  ASSERT_FALSE(count->HasError()) << count->GetError();
  EXPECT_EQ(count->GetValue(0, 0).GetBigint(), 2);
  EXPECT_EQ(KnownVersion(follower, "other"), other_before + 2);
}

TEST(SinkPassRefresh, ASinkOnAViewDeliversTheRefreshOfAnotherHandle) {
  lakestream::testing::ScopedTempDir tmp;
  std::string path = tmp.path + "/db";
  std::string out = tmp.path + "/out.jsonl";
  Database writer_db(path);
  Connection writer(writer_db);
  Exec(writer, "CREATE TABLE t (id INT PRIMARY KEY, note VARCHAR) TBLPROPERTIES ('change_tracking' = 'true')");
  Exec(writer, "CREATE MATERIALIZED VIEW v AS SELECT id, note FROM t");
  Exec(writer, "CREATE SINK s FROM v INTO FILE '" + out + "'");
  Database follower_db(path);
  Connection follower(follower_db);
  Exec(follower, "RUN SINK s");
  int64_t delivered = 0;
  for (int i = 1; i <= 20; i++) {
    Exec(writer, "INSERT INTO t VALUES (" + std::to_string(i) + ", 'row" + std::to_string(i) + "')");
    if (i % 3 == 0) {
      auto pass = follower.Query("RUN SINK s");
      ASSERT_FALSE(pass->HasError()) << pass->GetError();
      delivered += pass->GetValue(0, 0).GetBigint();
    }
  }
  // The writer's background maintainer refreshes v; reading v catches it up.
  Exec(writer, "SELECT COUNT(*) FROM v");
  auto last = follower.Query("RUN SINK s");
  ASSERT_FALSE(last->HasError()) << last->GetError();
  delivered += last->GetValue(0, 0).GetBigint();
  EXPECT_EQ(delivered, 20) << "each row once: " << ReadFile(out);
  std::string text = ReadFile(out);
  for (int i = 1; i <= 20; i++) {
    std::string note = "\"row" + std::to_string(i) + "\"";
    size_t at = text.find(note);
    EXPECT_NE(at, std::string::npos) << note;
    EXPECT_EQ(text.find(note, at + 1), std::string::npos) << note << " twice";
  }
}

}  // namespace
}  // namespace lakestream
