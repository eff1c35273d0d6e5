// Auto views refreshed in the background after DML (ivm/view_maintainer.hpp):
// whatever the maintainer thread has done when a statement starts, a read
// sees every write before it, the view and its source agree within one
// statement, and closing the database finishes the pending refresh.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

#include "lakestream.hpp"
#include "query_test_util.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

std::string One(Connection& con, const std::string& sql) {
  auto r = Ok(con, sql);
  if (r->HasError() || r->RowCount() != 1) return "<" + std::to_string(r->RowCount()) + " rows>";
  return r->GetValue(0, 0).ToString();
}

class ViewMaintainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<Database>(Path());
    con_ = std::make_unique<Connection>(*db_);
    Ok(*con_, "CREATE TABLE t (id BIGINT, note VARCHAR, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')");
    Ok(*con_, "CREATE MATERIALIZED VIEW v AS SELECT id, note FROM t");
    Ok(*con_, "CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c FROM v");  // a view over the view
  }
  std::string Path() const { return dir_.path + "/db"; }

  testing::ScopedTempDir dir_{"view_maintainer"};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(ViewMaintainerTest, ReadAfterInsertSeesItOnEveryConnection) {
  Connection other(*db_);
  for (int i = 1; i <= 60; i++) {
    Ok(*con_, "INSERT INTO t VALUES (" + std::to_string(i) + ", 'x')");
    Connection& reader = i % 2 ? *con_ : other;
    EXPECT_EQ(One(reader, "SELECT note FROM v WHERE id = " + std::to_string(i)), "x") << "after INSERT " << i;
    EXPECT_EQ(One(reader, "SELECT c FROM n"), std::to_string(i)) << "the view over the view, after INSERT " << i;
  }
  Ok(*con_, "UPDATE t SET note = 'y' WHERE id <= 10");
  EXPECT_EQ(One(other, "SELECT COUNT(*) FROM v WHERE note = 'y'"), "10");
  Ok(*con_, "DELETE FROM t WHERE id > 50");
  EXPECT_EQ(One(other, "SELECT COUNT(*) FROM v"), "50");
  EXPECT_EQ(One(other, "SELECT c FROM n"), "50");
}

TEST_F(ViewMaintainerTest, AWriterThreadAndAReaderAgreeInEveryStatement) {
  constexpr int kRows = 300;
  std::thread writer([&] {
    Connection con(*db_);
    for (int i = 1; i <= kRows; i++) {
      auto r = con.Query("INSERT INTO t VALUES (" + std::to_string(i) + ", 'w')");
      ASSERT_FALSE(r->HasError()) << r->GetError();
    }
  });
  Connection reader(*db_);
  int64_t last = 0;
  for (int k = 0; k < 200; k++) {
    // One statement reads the source and the views: caught up before it,
    // they must agree, and never go back.
    auto r = Ok(reader, "SELECT (SELECT COUNT(*) FROM t), (SELECT COUNT(*) FROM v), (SELECT c FROM n)");
    int64_t source = r->GetValue(0, 0).GetBigint();
    EXPECT_EQ(r->GetValue(1, 0).GetBigint(), source) << "read " << k;
    EXPECT_EQ(r->GetValue(2, 0).GetBigint(), source) << "read " << k;
    EXPECT_GE(source, last);
    last = source;
  }
  writer.join();
  EXPECT_EQ(One(reader, "SELECT COUNT(*) FROM v"), std::to_string(kRows));
  EXPECT_EQ(One(reader, "SELECT COUNT(*) FROM (SELECT id, note FROM t EXCEPT ALL SELECT id, note FROM v)"), "0");
}

TEST_F(ViewMaintainerTest, ClosingTheDatabaseFinishesThePendingRefresh) {
  for (int i = 1; i <= 40; i++) Ok(*con_, "INSERT INTO t VALUES (" + std::to_string(i) + ", 'c')");
  con_.reset();
  db_.reset();
  // Read-only: a read catches nothing up, so the views hold what the
  // maintainer committed before the close.
  DatabaseOptions options;
  options.read_only = true;
  Database db(Path(), options);
  Connection con(db);
  auto r = Ok(con, "SELECT (SELECT COUNT(*) FROM v), (SELECT c FROM n)");
  EXPECT_EQ(r->GetValue(0, 0).ToString(), "40");
  EXPECT_EQ(r->GetValue(1, 0).ToString(), "40");
  EXPECT_TRUE(r->Warnings().empty()) << r->Warnings()[0];
}

TEST_F(ViewMaintainerTest, AFailedBackgroundRefreshWarnsOnRead) {
  Ok(*con_, "CREATE TABLE raw (s VARCHAR)");
  Ok(*con_, "CREATE MATERIALIZED VIEW typed AS SELECT CAST(s AS INTEGER) AS x FROM raw");
  auto insert = con_->Query("INSERT INTO raw VALUES ('abc')");
  ASSERT_FALSE(insert->HasError()) << insert->GetError();  // the statement's own commit stands
  auto r = Ok(*con_, "SELECT COUNT(*) FROM typed");
  EXPECT_EQ(r->GetValue(0, 0).ToString(), "0");
  bool behind = false;
  for (auto& w : r->Warnings()) behind = behind || w.find("typed is behind its source raw") != std::string::npos;
  EXPECT_TRUE(behind);
  auto show = Ok(*con_, "SHOW MATERIALIZED VIEWS");
  std::string status;
  for (idx_t row = 0; row < show->RowCount(); row++) {
    if (show->GetValue(0, row).ToString() == "typed") status = show->GetValue(4, row).ToString();
  }
  EXPECT_EQ(status, "failed");
}

}  // namespace
}  // namespace lakestream
