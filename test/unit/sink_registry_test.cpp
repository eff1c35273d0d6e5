// Sink sessions belong to the open database (sink/sink_runner.hpp): two
// databases open in one process, each with a FILE sink of the same name,
// deliver to their own files and report progress to their own listener.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/tools.hpp"
#include "temp_dir_util.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

void Exec(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  ASSERT_FALSE(r->HasError()) << sql << "\n" << r->GetError();
}

TEST(SinkRegistry, TwoDatabasesKeepTheirOwnSinkSessions) {
  lakestream::testing::ScopedTempDir tmp;
  Database db_a(tmp.path + "/a");
  Database db_b(tmp.path + "/b");
  Connection a(db_a);
  Connection b(db_b);
  for (auto* con : {&a, &b}) {
    std::string file = con == &a ? tmp.path + "/a_out.jsonl" : tmp.path + "/b_out.jsonl";
    Exec(*con, "CREATE TABLE t (id INT PRIMARY KEY, item VARCHAR) WITH PROPERTIES ('change_tracking' = 'true')");
    Exec(*con, "CREATE SINK out FROM t INTO FILE '" + file + "' WITH ('format' = 'append')");
  }
  Exec(a, "INSERT INTO t VALUES (1, 'only_in_a')");
  Exec(b, "INSERT INTO t VALUES (2, 'only_in_b')");

  std::vector<int64_t> seen_a, seen_b;
  SetSinkProgressCallback(a, [&](const SinkProgressReport& p) { seen_a.push_back(p.delivered_version); });
  SetSinkProgressCallback(b, [&](const SinkProgressReport& p) { seen_b.push_back(p.delivered_version); });

  Exec(a, "RUN SINK out");
  EXPECT_FALSE(seen_a.empty()) << "database a's listener hears its sink";
  EXPECT_TRUE(seen_b.empty()) << "database b's listener must not hear database a's sink";
  Exec(b, "RUN SINK out");
  EXPECT_FALSE(seen_b.empty());

  // Run both again after new rows: each database's open file target writes its own file.
  Exec(a, "INSERT INTO t VALUES (3, 'again_a')");
  Exec(b, "INSERT INTO t VALUES (4, 'again_b')");
  Exec(a, "RUN SINK out");
  Exec(b, "RUN SINK out");
  std::string file_a = lakestream::testing::ReadWholeFile(tmp.path + "/a_out.jsonl");
  std::string file_b = lakestream::testing::ReadWholeFile(tmp.path + "/b_out.jsonl");
  EXPECT_NE(file_a.find("only_in_a"), std::string::npos) << file_a;
  EXPECT_NE(file_a.find("again_a"), std::string::npos) << file_a;
  EXPECT_EQ(file_a.find("only_in_b"), std::string::npos) << file_a;
  EXPECT_EQ(file_a.find("again_b"), std::string::npos) << file_a;
  EXPECT_NE(file_b.find("only_in_b"), std::string::npos) << file_b;
  EXPECT_NE(file_b.find("again_b"), std::string::npos) << file_b;
  EXPECT_EQ(file_b.find("only_in_a"), std::string::npos) << file_b;
  EXPECT_EQ(file_b.find("again_a"), std::string::npos) << file_b;

  // Dropping b's sink closes only b's session: a's sink still delivers.
  Exec(b, "DROP SINK out");
  Exec(a, "INSERT INTO t VALUES (5, 'after_drop_a')");
  Exec(a, "RUN SINK out");
  EXPECT_NE(lakestream::testing::ReadWholeFile(tmp.path + "/a_out.jsonl").find("after_drop_a"), std::string::npos);
}

}  // namespace
}  // namespace lakestream
