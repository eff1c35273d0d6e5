// Incremental refresh of GROUP BY views whose stored rows the maintainer
// keeps in memory (ivm/aggregate_maintainer.hpp, "The view's stored rows"):
// the touched groups' old rows and places come from there instead of a scan
// of the view, and the rows a commit writes are placed in its new data file.
// Every check compares the view with its query run now (both ways, as bags);
// the scan counter shows the places were kept from one refresh to the next.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ivm/compiled_view.hpp"
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

// Every row of a result, each as its values joined by '|', rows joined by ';'.
std::string Rows(Connection& con, const std::string& sql) {
  auto r = Ok(con, sql);
  std::string out;
  for (idx_t row = 0; row < r->RowCount(); row++) {
    if (row > 0) out += ";";
    for (idx_t c = 0; c < r->ColumnCount(); c++) out += (c > 0 ? "|" : "") + r->GetValue(c, row).ToString();
  }
  return out;
}

int64_t Scans() { return GetIvmCounters().stored_row_scans.load(); }

constexpr const char* kSum = "SELECT g, SUM(v) AS total, COUNT(*) AS n FROM s GROUP BY g";
constexpr const char* kHaving = "SELECT g, COUNT(*) AS n, MAX(v) AS top FROM s GROUP BY g HAVING COUNT(*) > 3";

class AggregateViewRefresh : public ::testing::Test {
 protected:
  void SetUp() override {
    Open();
    Ok(*con_, "CREATE TABLE s (id BIGINT, g BIGINT, v DECIMAL(12,2)) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    Ok(*con_, "INSERT INTO s SELECT i, i % 6, CAST(i AS DECIMAL(12,2)) FROM range(0, 60) t(i)");
    Ok(*con_, std::string("CREATE MATERIALIZED VIEW sums TBLPROPERTIES ('refresh' = 'manual') AS ") + kSum);
    Ok(*con_, std::string("CREATE MATERIALIZED VIEW big TBLPROPERTIES ('refresh' = 'manual') AS ") + kHaving);
  }
  void Open() {
    con_.reset();
    db_.reset();
    db_ = std::make_unique<Database>(dir_.path + "/db");
    con_ = std::make_unique<Connection>(*db_);
  }
  // Refreshes both views and checks they hold their queries' rows, through
  // incremental refreshes ("up to date" too when `may_be_current`: a
  // statement that changed no row).
  void RefreshAndCheck(const std::string& context, bool may_be_current = false) {
    for (auto [view, query] : {std::pair{"sums", kSum}, std::pair{"big", kHaving}}) {
      auto refreshed = Ok(*con_, std::string("REFRESH MATERIALIZED VIEW ") + view);
      std::string path = refreshed->GetValue(0, 0).ToString();
      if (!(may_be_current && path == "up to date")) {
        EXPECT_EQ(path, "incremental") << context << " (" << view << ")";
      }
      EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM " + std::string(view) + " EXCEPT ALL " + query + ")"), "0")
          << context << " (" << view << ")";
      EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (" + std::string(query) + " EXCEPT ALL SELECT * FROM " + view + ")"), "0")
          << context << " (" << view << ")";
    }
  }

  testing::ScopedTempDir dir_{"aggregate_view_refresh"};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(AggregateViewRefresh, GroupsAppearChangeAndVanishWithoutScans) {
  const char* statements[] = {
      "UPDATE s SET v = v + 1 WHERE id < 10",                  // groups' sums change
      "DELETE FROM s WHERE g = 5",                              // a group vanishes
      "INSERT INTO s VALUES (100, 7, 1.50), (101, 7, 2.50)",   // a group appears
      "INSERT INTO s VALUES (102, NULL, 3.00)",                 // the NULL group appears
      "UPDATE s SET g = NULL WHERE id IN (0, 6)",               // rows move into it
      "INSERT INTO s SELECT 200 + i, 7, 1.00 FROM range(0, 5) t(i)",  // group 7 passes HAVING
      "DELETE FROM s WHERE g = 7 AND id > 201",                 // and falls back below it
      "DELETE FROM s WHERE g IS NULL",                          // the NULL group vanishes
      "INSERT INTO s VALUES (300, 5, 9.00)",                    // a vanished group comes back
      "UPDATE s SET v = 0",                                     // every group at once
  };
  int64_t scans = Scans();
  for (const char* sql : statements) {
    Ok(*con_, sql);
    RefreshAndCheck(sql);
  }
  // The first refresh of each view scanned it; later ones found their rows in memory.
  EXPECT_EQ(Scans() - scans, 2);
}

TEST_F(AggregateViewRefresh, ChangeFeedHoldsUpdatePairsDeletesAndInserts) {
  Ok(*con_, "UPDATE s SET v = v + 1 WHERE id = 59");
  RefreshAndCheck("first refresh: rows from a scan");
  int64_t scans = Scans();
  Ok(*con_, "UPDATE s SET v = v + 1 WHERE id < 2");
  Ok(*con_, "DELETE FROM s WHERE g = 5");
  Ok(*con_, "INSERT INTO s VALUES (100, 9, 1.50), (101, NULL, 2.00)");
  RefreshAndCheck("second refresh: rows from memory");
  EXPECT_EQ(Scans(), scans);
  std::string version = One(*con_, "SELECT MAX(_commit_version) FROM table_changes('sums', 0)");
  // Groups 0 and 1 change (an update pair each), 5 vanishes, 9 and NULL appear.
  EXPECT_EQ(Rows(*con_, "SELECT _change_type, g, total, n FROM table_changes('sums', " + version + ", " + version +
                            ") ORDER BY _change_type, g NULLS FIRST"),
            "delete|5|321.00|10;"
            "insert|NULL|2.00|1;insert|9|1.50|1;"
            "update_postimage|0|271.00|10;update_postimage|1|281.00|10;"
            "update_preimage|0|270.00|10;update_preimage|1|280.00|10");
  // The view's whole feed replays to its rows (as bags, both ways).
  std::string net = "(SELECT g, total, n FROM table_changes('sums', 0) WHERE _change_type IN ('insert', 'update_postimage') "
                    "EXCEPT ALL SELECT g, total, n FROM table_changes('sums', 0) "
                    "WHERE _change_type IN ('delete', 'update_preimage'))";
  EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (" + net + " EXCEPT ALL SELECT * FROM sums)"), "0");
  EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM sums EXCEPT ALL " + net + ")"), "0");
}

TEST_F(AggregateViewRefresh, ReopenAndRefreshFullInBetween) {
  Ok(*con_, "UPDATE s SET v = v * 2 WHERE id < 30");
  RefreshAndCheck("before restart");
  Open();
  int64_t scans = Scans();
  Ok(*con_, "DELETE FROM s WHERE id % 4 = 0");
  RefreshAndCheck("after restart");
  Ok(*con_, "INSERT INTO s VALUES (400, 11, 4.00)");
  RefreshAndCheck("second refresh after restart");
  EXPECT_EQ(Scans() - scans, 2);  // one scan per view, after the restart only
  Ok(*con_, "UPDATE s SET v = v + 3 WHERE g = 1");
  Ok(*con_, "REFRESH MATERIALIZED VIEW sums FULL");  // rewrites rows without the maintainer placing them
  Ok(*con_, "REFRESH MATERIALIZED VIEW big FULL");
  Ok(*con_, "DELETE FROM s WHERE g = 1");
  RefreshAndCheck("after FULL");
  Ok(*con_, "UPDATE s SET v = v - 1 WHERE g = 2");
  RefreshAndCheck("second refresh after FULL");
  EXPECT_EQ(Scans() - scans, 4);
}

// Random changes, refreshed now and then, always equal to the query; the
// seed is fixed so a failure repeats.
// A select list that reorders the view's columns keeps finding each group's
// stored row by its state key (the keys still in GROUP BY order); one whose
// keys come in another order than GROUP BY's takes the general diff. Both
// stay exact, and neither scans the view after its first refresh.
TEST_F(AggregateViewRefresh, ReorderedColumnsAndKeys) {
  const std::pair<const char*, const char*> views[] = {
      {"reordered", "SELECT COUNT(*) AS n, g, SUM(v) AS total FROM s GROUP BY g"},
      {"keys_swapped", "SELECT v, g, COUNT(*) AS n FROM s GROUP BY g, v"},
  };
  for (auto& [view, query] : views) {
    Ok(*con_, std::string("CREATE MATERIALIZED VIEW ") + view + " TBLPROPERTIES ('refresh' = 'manual') AS " + query);
  }
  const char* statements[] = {
      "UPDATE s SET v = v + 1 WHERE id < 10", "DELETE FROM s WHERE g = 5", "INSERT INTO s VALUES (100, 7, 1.50)",
      "INSERT INTO s VALUES (101, NULL, 2.00)", "UPDATE s SET g = 7 WHERE id % 4 = 1", "DELETE FROM s WHERE g = 7",
  };
  int64_t scans = Scans();
  for (const char* sql : statements) {
    Ok(*con_, sql);
    for (auto& [view, query] : views) {
      EXPECT_EQ(One(*con_, std::string("REFRESH MATERIALIZED VIEW ") + view), "incremental") << sql << " (" << view << ")";
      EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM " + std::string(view) + " EXCEPT ALL " + query + ")"), "0")
          << sql << " (" << view << ")";
      EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (" + std::string(query) + " EXCEPT ALL SELECT * FROM " + view + ")"), "0")
          << sql << " (" << view << ")";
    }
  }
  EXPECT_EQ(Scans() - scans, 2);
}

// Views grouped by a key of each flat type (and by all of them at once) keep
// their stored rows by group in typed cells (ivm/view_stored_rows.hpp):
// NULL keys, DECIMAL, strings, dates, timestamps, booleans and doubles, a
// group deleted to zero and added again in one refresh, and groups that
// vanish. Each view equals its query after every refresh, and only each
// view's first refresh scans it.
TEST_F(AggregateViewRefresh, GroupKeysOfEveryTypeKeptByGroup) {
  Ok(*con_, "CREATE TABLE t (id BIGINT, ki INTEGER, kb BIGINT, kd DECIMAL(10,3), ks VARCHAR, kt DATE, kts TIMESTAMP, "
            "kz BOOLEAN, kf DOUBLE, v DECIMAL(12,2), w BIGINT) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
  // Row i: keys from i % 5 (4 is NULL for every key), values from i.
  auto rows = [](int from, int to) {
    return "INSERT INTO t SELECT i, CASE WHEN i % 5 = 4 THEN NULL ELSE CAST(i % 5 AS INTEGER) END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE i % 5 - 2 END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE CAST(i % 5 AS DECIMAL(10,3)) / 8 END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE 'key ' || CAST(i % 5 AS VARCHAR) END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE CAST('2024-01-01' AS DATE) + CAST(i % 5 AS INTEGER) END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE CAST('2024-01-01 10:00:00' AS TIMESTAMP) END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE i % 2 = 0 END, "
           "CASE WHEN i % 5 = 4 THEN NULL ELSE CAST(i % 5 AS DOUBLE) / 4 END, "
           "CAST(i AS DECIMAL(12,2)) / 4, i FROM range(" + std::to_string(from) + ", " + std::to_string(to) + ") r(i)";
  };
  Ok(*con_, rows(0, 40));
  const char* keys[] = {"ki", "kb", "kd", "ks", "kt", "kts", "kz", "kf", "ki, ks, kd, kt, kz"};
  std::vector<std::pair<std::string, std::string>> views;
  for (const char* key : keys) {
    std::string name = "by_" + std::to_string(views.size());
    std::string query = std::string("SELECT ") + key + ", SUM(v) AS total, COUNT(*) AS n, SUM(w) AS sw, COUNT(v) AS nv, "
                        "AVG(v) AS mean, MAX(w) AS top FROM t GROUP BY " + key;
    Ok(*con_, "CREATE MATERIALIZED VIEW " + name + " TBLPROPERTIES ('refresh' = 'manual') AS " + query);
    views.emplace_back(name, query);
  }
  const std::vector<std::string> statements = {
      "UPDATE t SET v = v + 1 WHERE id < 7",                                 // sums change
      "UPDATE t SET v = NULL WHERE id % 5 = 1",                              // SUM(v) of a group turns NULL
      "DELETE FROM t WHERE id % 5 = 4",                                      // the NULL groups vanish
      rows(100, 103),                                                        // and groups come back
      "DELETE FROM t WHERE id % 5 = 2; " + rows(202, 203),                   // deleted to zero, re-added
      "DELETE FROM t WHERE id % 5 = 3",                                      // a group vanishes
      "UPDATE t SET w = w + 1",                                              // every group at once
      rows(300, 310),
  };
  int64_t scans = Scans();
  for (auto& sql : statements) {
    Ok(*con_, sql);
    for (auto& [view, query] : views) {
      EXPECT_EQ(One(*con_, "REFRESH MATERIALIZED VIEW " + view), "incremental") << sql << " (" << query << ")";
      EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (SELECT * FROM " + view + " EXCEPT ALL " + query + ")"), "0")
          << sql << " (" << query << ")";
      EXPECT_EQ(One(*con_, "SELECT COUNT(*) FROM (" + query + " EXCEPT ALL SELECT * FROM " + view + ")"), "0")
          << sql << " (" << query << ")";
    }
  }
  EXPECT_EQ(Scans() - scans, static_cast<int64_t>(views.size()));
  // The feed of a refresh that deleted a group to zero and added it again
  // holds one update pair for it (its stored row found by its group).
  std::string before = One(*con_, "SELECT n FROM by_0 WHERE ki = 0");
  ASSERT_NE(before, "1");
  Ok(*con_, "DELETE FROM t WHERE ki = 0; " + rows(400, 401));
  Ok(*con_, "REFRESH MATERIALIZED VIEW by_0");
  std::string version = One(*con_, "SELECT MAX(_commit_version) FROM table_changes('by_0', 0)");
  EXPECT_EQ(Rows(*con_, "SELECT _change_type, ki, n FROM table_changes('by_0', " + version + ", " + version +
                            ") ORDER BY _change_type"),
            "update_postimage|0|1;update_preimage|0|" + before);
}

TEST_F(AggregateViewRefresh, RandomChangesRefreshLikeRecompute) {
  std::mt19937 rng(20261207);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  auto group = [&]() { return pick(10) == 0 ? std::string("NULL") : std::to_string(pick(9)); };
  int next_id = 10000;
  for (int step = 0; step < 100; step++) {
    std::string sql;
    switch (pick(6)) {
      case 0: sql = "INSERT INTO s VALUES (" + std::to_string(next_id++) + ", " + group() + ", " + std::to_string(pick(50)) + ".25)"; break;
      case 1: sql = "DELETE FROM s WHERE id % 13 = " + std::to_string(pick(13)) + " AND g = " + group(); break;
      case 2: sql = "UPDATE s SET v = v + 1 WHERE id % 7 = " + std::to_string(pick(7)); break;
      case 3: sql = "UPDATE s SET g = " + group() + " WHERE id % 11 = " + std::to_string(pick(11)); break;
      case 4: sql = "DELETE FROM s WHERE g = " + group(); break;
      default: sql = "INSERT INTO s SELECT " + std::to_string(next_id) + " + i, " + group() + ", 1.00 FROM range(0, 4) t(i)"; next_id += 4; break;
    }
    Ok(*con_, sql);
    if (pick(3) == 0) RefreshAndCheck("step " + std::to_string(step) + ": " + sql, true);
    if (pick(30) == 0) Open();
  }
  RefreshAndCheck("last", true);
}

}  // namespace
}  // namespace lakestream
