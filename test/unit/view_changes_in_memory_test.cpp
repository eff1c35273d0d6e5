// View maintenance after a statement takes the statement's committed change
// set in memory (storage/change_set.hpp, transaction/statement_commit.hpp)
// and the view's compiled plan (ivm/compiled_view.hpp): counted by
// GetIvmCounters, so these tests see which path a refresh took.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "common/date.hpp"
#include "ivm/compiled_view.hpp"
#include "ivm/view_refresh.hpp"
#include "main/connection_access.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/client_context.hpp"
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

struct Counts {
  int64_t compiles, in_memory, from_feed;
  static Counts Now() {
    IvmCounters& c = GetIvmCounters();
    return {c.compiles.load(), c.changes_in_memory.load(), c.changes_from_feed.load()};
  }
  Counts operator-(const Counts& o) const { return {compiles - o.compiles, in_memory - o.in_memory, from_feed - o.from_feed}; }
};

class ViewChangesInMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<Database>(dir_.path + "/db");
    con_ = std::make_unique<Connection>(*db_);
    Ok(*con_, "CREATE TABLE src (id BIGINT, g BIGINT, v DECIMAL(12,2)) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    Ok(*con_, "INSERT INTO src SELECT i, i % 10, i FROM range(0, 100) t(i)");
    Ok(*con_, "CREATE MATERIALIZED VIEW rows_v AS SELECT id, v * 2 AS w FROM src WHERE g < 5");
    Ok(*con_, "CREATE MATERIALIZED VIEW sums AS SELECT g, SUM(v) AS total, COUNT(*) AS n FROM src GROUP BY g");
  }
  // A statement that reads a view catches every auto view up first (DML
  // leaves its views to the background maintainer, ivm/view_maintainer.hpp,
  // so the counts are taken after this).
  void CatchUp() { Ok(*con_, "SELECT COUNT(*) FROM sums"); }
  // The views hold what their queries compute now.
  void ExpectViewsCurrent() {
    EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM rows_v EXCEPT ALL SELECT id, v * 2 FROM src WHERE g < 5)"), "0");
    EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT id, v * 2 FROM src WHERE g < 5 EXCEPT ALL SELECT * FROM rows_v)"), "0");
    EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM sums EXCEPT ALL "
                         "SELECT g, SUM(v), COUNT(*) FROM src GROUP BY g)"), "0");
    EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM sums"), One(*con_, "SELECT COUNT(DISTINCT g) FROM src"));
  }

  testing::ScopedTempDir dir_{"view_changes"};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(ViewChangesInMemory, InsertRefreshesFromTheCommitWithoutRecompiling) {
  Ok(*con_, "INSERT INTO src VALUES (1000, 1, 7.50)");  // the views compile (after CREATE's own refresh) at most once
  CatchUp();
  Counts before = Counts::Now();
  for (int i = 0; i < 5; i++) Ok(*con_, "INSERT INTO src VALUES (" + std::to_string(2000 + i) + ", " + std::to_string(i) + ", 1.25)");
  CatchUp();
  Counts d = Counts::Now() - before;
  // 2 views, refreshed after each of the 5 statements or fewer times for
  // several at once, always from the commits in memory.
  EXPECT_GE(d.in_memory, 2);
  EXPECT_LE(d.in_memory, 10);
  EXPECT_EQ(d.from_feed, 0);
  EXPECT_EQ(d.compiles, 0);
  ExpectViewsCurrent();
  auto describe = Ok(*con_, "DESCRIBE MATERIALIZED VIEW sums");
  bool found = false;
  for (idx_t r = 0; r < describe->RowCount(); r++) {
    if (describe->GetValue(0, r).ToString() != "last_refresh_changes") continue;
    found = true;
    EXPECT_EQ(describe->GetValue(1, r).ToString(), "the statement's commits (in memory)");
  }
  EXPECT_TRUE(found);
}

TEST_F(ViewChangesInMemory, UpdateDeleteAndMergeRefreshFromTheCommit) {
  // Their pre-images and deletes are kept by the Delta commit as it writes
  // them (TableCommit::written): no change file is read back.
  const char* statements[] = {
      "UPDATE src SET v = v + 1 WHERE id < 20",
      "UPDATE src SET g = 7 WHERE id = 3",  // moves a row out of rows_v and between groups
      "DELETE FROM src WHERE id % 7 = 0",
      "DELETE FROM src WHERE g = 9",  // empties a group
      "MERGE INTO src USING (SELECT i AS id, i % 10 AS g, CAST(i AS DECIMAL(12,2)) AS v FROM range(90, 110) t(i)) s "
      "ON src.id = s.id WHEN MATCHED AND s.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET v = src.v + 100 "
      "WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.g, s.v)",
  };
  for (const char* sql : statements) {
    Counts before = Counts::Now();
    Ok(*con_, sql);
    CatchUp();
    Counts d = Counts::Now() - before;
    EXPECT_EQ(d.in_memory, 2) << sql;
    EXPECT_EQ(d.from_feed, 0) << sql;
    ExpectViewsCurrent();
  }
}

TEST_F(ViewChangesInMemory, WhatTheCommitDidNotKeepIsReadFromTheFeed) {
  // An UPDATE of more rows than a commit keeps.
  Ok(*con_, "INSERT INTO src SELECT 10000 + i, i % 10, 1 FROM range(0, 20000) t(i)");
  CatchUp();
  Counts before = Counts::Now();
  Ok(*con_, "UPDATE src SET v = v + 1 WHERE id >= 10000");
  CatchUp();
  Counts d = Counts::Now() - before;
  EXPECT_EQ(d.in_memory, 0);
  EXPECT_EQ(d.from_feed, 2);
  ExpectViewsCurrent();
  // An INSERT larger than an append keeps in memory.
  before = Counts::Now();
  Ok(*con_, "INSERT INTO src SELECT 50000 + i, i % 10, 1 FROM range(0, 20000) t(i)");
  CatchUp();
  d = Counts::Now() - before;
  EXPECT_EQ(d.in_memory, 0);
  EXPECT_EQ(d.from_feed, 2);
  ExpectViewsCurrent();
}

TEST_F(ViewChangesInMemory, AViewBehindTheCommitCatchesUpFromTheFeed) {
  Ok(*con_, "CREATE MATERIALIZED VIEW man TBLPROPERTIES ('refresh' = 'manual') AS SELECT id, v FROM src WHERE g = 1");
  Counts before = Counts::Now();
  Ok(*con_, "INSERT INTO src VALUES (3000, 1, 2.00)");
  Ok(*con_, "INSERT INTO src VALUES (3001, 1, 3.00)");
  // Two commits behind, in a statement of its own: nothing kept covers it.
  Ok(*con_, "REFRESH MATERIALIZED VIEW man");
  Counts d = Counts::Now() - before;
  // The auto views, after each INSERT or once for both (REFRESH catches
  // them up first).
  EXPECT_GE(d.in_memory, 2);
  EXPECT_LE(d.in_memory, 4);
  EXPECT_EQ(d.from_feed, 1);  // man
  EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM man"), "12");
  EXPECT_EQ(One(*con_, "SELECT SUM(v) FROM man"), One(*con_, "SELECT SUM(v) FROM src WHERE g = 1"));
  ExpectViewsCurrent();
}

TEST_F(ViewChangesInMemory, AManualRefreshAfterTheDmlTakesItsChangesFromMemory) {
  // A table whose views are all manual: its DML's change set stays with the
  // connection (ClientContext::RecentChanges) for the next statement.
  Ok(*con_, "CREATE TABLE facts (id BIGINT, g BIGINT, v BIGINT) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
  Ok(*con_, "INSERT INTO facts SELECT i, i % 4, i FROM range(0, 40) t(i)");
  Ok(*con_, "CREATE MATERIALIZED VIEW facts_sum TBLPROPERTIES ('refresh' = 'manual') AS "
            "SELECT g, SUM(v) AS total, COUNT(*) AS n FROM facts GROUP BY g");
  auto current = [&] {
    EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM facts_sum EXCEPT ALL "
                         "SELECT g, SUM(v), COUNT(*) FROM facts GROUP BY g)"), "0");
    EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM facts_sum"), One(*con_, "SELECT COUNT(DISTINCT g) FROM facts"));
  };
  const char* statements[] = {"UPDATE facts SET v = v + 1 WHERE id < 10", "DELETE FROM facts WHERE id % 5 = 0",
                              "INSERT INTO facts VALUES (100, 1, 7), (101, 6, 8)"};
  for (const char* sql : statements) {
    Ok(*con_, sql);
    Counts before = Counts::Now();
    Ok(*con_, "REFRESH MATERIALIZED VIEW facts_sum");
    Counts d = Counts::Now() - before;
    EXPECT_EQ(d.in_memory, 1) << sql;
    EXPECT_EQ(d.from_feed, 0) << sql;
    current();
  }
  // Two commits, then the refresh: the sets of both statements chain.
  Ok(*con_, "UPDATE facts SET v = v * 2 WHERE g = 2");
  Ok(*con_, "INSERT INTO facts VALUES (102, 3, 1)");
  Counts before = Counts::Now();
  Ok(*con_, "REFRESH MATERIALIZED VIEW facts_sum");
  Counts d = Counts::Now() - before;
  EXPECT_EQ(d.in_memory, 1);
  EXPECT_EQ(d.from_feed, 0);
  current();
  // Another connection's commit in between: a gap the kept sets do not
  // cover, read from the feed.
  Connection other(*db_);
  Ok(*con_, "UPDATE facts SET v = v + 3 WHERE g = 1");
  Ok(other, "INSERT INTO facts VALUES (103, 1, 5)");
  before = Counts::Now();
  Ok(*con_, "REFRESH MATERIALIZED VIEW facts_sum");
  d = Counts::Now() - before;
  EXPECT_EQ(d.in_memory, 0);
  EXPECT_EQ(d.from_feed, 1);
  current();
}

TEST_F(ViewChangesInMemory, KeptChangesOfADroppedTableAreNotTakenForItsSuccessor) {
  Ok(*con_, "CREATE TABLE facts (id BIGINT, v BIGINT) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
  Ok(*con_, "INSERT INTO facts VALUES (1, 10)");
  Ok(*con_, "CREATE MATERIALIZED VIEW facts_total TBLPROPERTIES ('refresh' = 'manual') AS SELECT SUM(v) AS total FROM facts");
  Ok(*con_, "INSERT INTO facts VALUES (2, 20)");  // kept for the next statement, never refreshed
  Ok(*con_, "DROP MATERIALIZED VIEW facts_total");
  Ok(*con_, "DROP TABLE facts");
  // The same name, columns and versions again (whether the new table's
  // object takes the old one's address is up to the allocator: the test
  // below forges that case).
  Ok(*con_, "CREATE TABLE facts (id BIGINT, v BIGINT) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
  Ok(*con_, "INSERT INTO facts VALUES (1, 1)");
  Ok(*con_, "CREATE MATERIALIZED VIEW facts_total TBLPROPERTIES ('refresh' = 'manual') AS SELECT SUM(v) AS total FROM facts");
  Ok(*con_, "INSERT INTO facts VALUES (2, 2)");
  Ok(*con_, "REFRESH MATERIALIZED VIEW facts_total");
  EXPECT_EQ(One(*con_, "SELECT total FROM facts_total"), "3");
}

TEST_F(ViewChangesInMemory, AKeptSetIsTakenOnlyForTheTableItsIdentityNames) {
  ClientContext& context = ConnectionAccess::Context(*con_);
  DeltaTable* table = DatabaseInstance::AsDelta(*context.GetCatalog().FindTable("src"));
  ASSERT_NE(table, nullptr);
  // A set left by a dropped table whose object had this address, and one of this table.
  ChangeSet stale, own;
  stale.table = own.table = table;
  stale.table_identity = table->Path() + "\nan-older-table-id";
  own.table_identity = table->Identity();
  context.CommittedChanges().push_back(std::move(stale));
  context.CommittedChanges().push_back(std::move(own));
  context.BeginStatement(Timestamp::Now());  // the next statement: both become RecentChanges
  auto count = [](const std::vector<const ChangeSet*>& sets, const std::string& identity) {
    return std::count_if(sets.begin(), sets.end(), [&](const ChangeSet* s) { return s->table_identity == identity; });
  };
  std::vector<const ChangeSet*> recent;
  for (const ChangeSet& set : context.RecentChanges()) recent.push_back(&set);
  ASSERT_EQ(count(recent, table->Path() + "\nan-older-table-id"), 1);
  std::vector<const ChangeSet*> kept = KeptChangesOf(context, *table);
  EXPECT_EQ(count(kept, table->Path() + "\nan-older-table-id"), 0);
  EXPECT_EQ(count(kept, table->Identity()), static_cast<std::ptrdiff_t>(kept.size()));
  EXPECT_GE(kept.size(), 1U);
}

}  // namespace
}  // namespace lakestream
