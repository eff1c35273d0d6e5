// Differential test of materialized view maintenance (issue 6).
//
// One database holds two CDF-enabled sources and a view of every shape the
// issue names (each incremental form and two recompute-and-diff forms). A
// fixed-seed generator runs random INSERT/UPDATE/DELETE/MERGE statements on
// the sources, including ones that change nothing. After every statement (for
// the manual view: after every REFRESH) each view must
//   * equal a fresh computation of its query (as a multiset of rows), and
//   * have a change feed that, applied to its previous contents, yields the
//     new contents, with no no-op rows: nothing removed and re-added within a
//     version, no update pair whose images are equal, and no version at all
//     when the contents did not change.
// Usage: ivm_differential DB_DIR [OPERATIONS] [SEED]. Exit 0 on success.
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"

using namespace lakestream;

namespace {

struct ViewShape {
  std::string name;
  std::string query;
  bool manual = false;
  std::vector<std::string> contents;  // sorted rows, as text
  int64_t version = 0;  // version 0 is the CREATE (metadata only)
};

[[noreturn]] void Fail(const std::string& message) {
  std::cerr << "FAIL: " << message << std::endl;
  std::exit(1);
}

std::unique_ptr<QueryResult> Run(Connection& con, const std::string& sql) {
  auto result = con.Query(sql);
  if (result->HasError()) Fail(sql + "\n  -> " + result->GetError());
  return result;
}

std::string RowText(const QueryResult& r, idx_t row, idx_t columns) {
  std::string text;
  for (idx_t c = 0; c < columns; c++) {
    if (c) text += '|';
    text += r.GetValue(c, row).ToString();
  }
  return text;
}

std::vector<std::string> Rows(Connection& con, const std::string& sql) {
  auto r = Run(con, sql);
  std::vector<std::string> out;
  for (idx_t i = 0; i < r->RowCount(); i++) out.push_back(RowText(*r, i, r->ColumnCount()));
  std::sort(out.begin(), out.end());
  return out;
}

int64_t LatestVersion(Connection& con, const std::string& table) {
  auto r = Run(con, "DESCRIBE HISTORY " + table + " LIMIT 1");
  return r->GetValue(0, 0).AsBigint();
}

std::string Show(const std::vector<std::string>& rows) {
  std::string s;
  for (auto& r : rows) s += "    " + r + "\n";
  return s;
}

std::string g_database_dir;  // main's argument: the views' Delta logs are under it

void Check(Connection& con, ViewShape& view, const std::string& after) {
  std::vector<std::string> now = Rows(con, "SELECT * FROM " + view.name);
  std::vector<std::string> expected = Rows(con, view.query);
  if (now != expected) {
    Fail("view " + view.name + " differs from its query after: " + after + "\n  view:\n" + Show(now) + "  query:\n" + Show(expected));
  }
  int64_t latest = LatestVersion(con, view.name);
  if (latest > view.version) {
    auto cols = Run(con, "SELECT * FROM " + view.name + " LIMIT 0")->ColumnCount();
    auto feed = Run(con, "SELECT * FROM table_changes('" + view.name + "', " + std::to_string(view.version + 1) + ", " +
                             std::to_string(latest) + ")");
    std::map<int64_t, std::pair<std::vector<std::string>, std::vector<std::string>>> by_version;  // removed, added
    std::map<int64_t, std::vector<std::pair<std::string, std::string>>> pairs;
    for (idx_t i = 0; i < feed->RowCount(); i++) {
      std::string row = RowText(*feed, i, cols);
      std::string type = feed->GetValue(cols, i).ToString();
      int64_t version = feed->GetValue(cols + 1, i).AsBigint();
      bool removes = type == "delete" || type == "update_preimage";
      (removes ? by_version[version].first : by_version[version].second).push_back(row);
    }
    std::multiset<std::string> contents(view.contents.begin(), view.contents.end());
    for (int64_t v = view.version + 1; v <= latest; v++) {
      auto& [removed, added] = by_version[v];
      // A version without change rows is a refresh that moved its sources'
      // versions without changing a row: it commits the txns alone, the
      // view's log being their one record (docs/views.md, "Crash safety").
      // Anything more (files written, removed or change files) is a refresh
      // that did work for nothing.
      if (removed.empty() && added.empty()) {
        char name[32];
        std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(v));
        std::ifstream entry(g_database_dir + "/" + view.name + "/_delta_log/" + name);
        std::string text((std::istreambuf_iterator<char>(entry)), std::istreambuf_iterator<char>());
        if (text.empty() || text.find("\"txn\"") == std::string::npos || text.find("\"add\"") != std::string::npos ||
            text.find("\"remove\"") != std::string::npos || text.find("\"cdc\"") != std::string::npos) {
          Fail("view " + view.name + " has version " + std::to_string(v) +
               " without any change that is not a txn-only commit (after: " + after + ")");
        }
        continue;
      }
      std::multiset<std::string> gone(removed.begin(), removed.end());
      for (auto& row : added) {
        if (gone.count(row)) Fail("view " + view.name + " version " + std::to_string(v) + " removes and re-adds " + row);
      }
      for (auto& row : removed) {
        auto it = contents.find(row);
        if (it == contents.end()) Fail("view " + view.name + " version " + std::to_string(v) + " removes a row it did not hold: " + row);
        contents.erase(it);
      }
      for (auto& row : added) contents.insert(row);
    }
    std::vector<std::string> replayed(contents.begin(), contents.end());
    if (replayed != now) {
      Fail("view " + view.name + ": its change feed replayed does not give its rows after: " + after + "\n  replayed:\n" +
           Show(replayed) + "  rows:\n" + Show(now));
    }
  } else if (now != view.contents) {
    Fail("view " + view.name + " changed without a new version after: " + after);
  }
  view.contents = std::move(now);
  view.version = latest;
}

std::string Decimal(std::mt19937& rng) {
  if (rng() % 10 == 0) return "NULL";
  return std::to_string(rng() % 100) + "." + std::to_string(rng() % 10) + "0";
}

std::string Int(std::mt19937& rng, int n, bool nullable = true) {
  if (nullable && rng() % 10 == 0) return "NULL";
  return std::to_string(rng() % n);
}

// One random statement over t1 (id, g, v, w) and t2 (g, name).
std::string RandomStatement(std::mt19937& rng, int& next_id) {
  int pick = static_cast<int>(rng() % 100);
  auto some_ids = [&](int count) {
    std::string list;
    for (int i = 0; i < count; i++) list += (i ? ", " : "") + std::to_string(rng() % std::max(1, next_id));
    return list;
  };
  if (pick < 35) {
    std::string sql = "INSERT INTO t1 VALUES ";
    int rows = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < rows; i++) {
      sql += (i ? ", (" : "(") + std::to_string(next_id++) + ", " + Int(rng, 8, false) + ", " + Decimal(rng) + ", " + Int(rng, 4) + ")";
    }
    return sql;
  }
  if (pick < 50) return "UPDATE t1 SET v = " + Decimal(rng) + " WHERE id IN (" + some_ids(2) + ")";
  if (pick < 57) return "UPDATE t1 SET g = " + Int(rng, 8, false) + " WHERE id IN (" + some_ids(2) + ")";
  if (pick < 62) return "UPDATE t1 SET v = v WHERE g = " + Int(rng, 8, false);  // changes nothing
  if (pick < 64) return "UPDATE t1 SET w = " + Int(rng, 4) + " WHERE g = " + Int(rng, 8, false);
  if (pick < 80) return "DELETE FROM t1 WHERE id IN (" + some_ids(3) + ")";
  if (pick < 83) return "DELETE FROM t1 WHERE g = " + Int(rng, 8, false);
  if (pick < 88) {
    return "MERGE INTO t1 USING (SELECT " + some_ids(1) + " AS id, " + Decimal(rng) +
           " AS v) s ON t1.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, g, v, w) VALUES (s.id, 3, s.v, 1)";
  }
  if (pick < 93) return "INSERT INTO t2 VALUES (" + Int(rng, 10, false) + ", 'n" + Int(rng, 5, false) + "')";
  if (pick < 97) return "UPDATE t2 SET name = 'n" + Int(rng, 5, false) + "' WHERE g = " + Int(rng, 10, false);
  return "DELETE FROM t2 WHERE g = " + Int(rng, 10, false);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: ivm_differential DB_DIR [OPERATIONS] [SEED]\n";
    return 2;
  }
  std::string dir = argv[1];
  g_database_dir = dir;
  int operations = argc > 2 ? std::atoi(argv[2]) : 1000;
  unsigned seed = argc > 3 ? static_cast<unsigned>(std::atol(argv[3])) : 20240601u;
  std::filesystem::remove_all(dir);
  Database db(dir);
  Connection con(db);
  Run(con, "CREATE TABLE t1 (id INT, g INT, v DECIMAL(10,2), w INT) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
  Run(con, "CREATE TABLE t2 (g INT, name STRING) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
  Run(con, "INSERT INTO t2 VALUES (0, 'n0'), (1, 'n1'), (2, 'n2'), (3, 'n0'), (4, 'n1')");
  std::vector<ViewShape> views = {
      {"agg", "SELECT g, COUNT(*) AS n, SUM(v) AS s, AVG(v) AS a, MIN(v) AS lo, MAX(v) AS hi, COUNT(w) AS cw, "
              "COUNT(DISTINCT w) AS dw FROM t1 GROUP BY g"},
      {"agg_having", "SELECT g, SUM(v) AS s FROM t1 WHERE w IS NOT NULL GROUP BY g HAVING COUNT(*) > 2"},
      {"rows", "SELECT id, g, v * 2 AS v2 FROM t1 WHERE v > 20"},
      {"joined", "SELECT t1.id, t1.v, t2.name FROM t1 JOIN t2 ON t1.g = t2.g"},
      {"joined_agg", "SELECT t2.name, COUNT(*) AS n, SUM(t1.v) AS s FROM t1 JOIN t2 ON t1.g = t2.g GROUP BY t2.name"},
      {"unioned", "SELECT g, w FROM t1 WHERE v < 50 UNION ALL SELECT g, g FROM t2"},
      {"silver", "SELECT id, g, v FROM t1 WHERE w IS NOT NULL"},
      {"gold", "SELECT g, SUM(v) AS s, MAX(v) AS hi, COUNT(*) AS n FROM silver GROUP BY g"},
      {"top3", "SELECT g, SUM(v) AS s FROM t1 GROUP BY g ORDER BY s DESC NULLS LAST, g LIMIT 3"},
      {"left_joined", "SELECT t1.id, t2.name FROM t1 LEFT JOIN t2 ON t1.g = t2.g", true},
  };
  for (auto& view : views) {
    Run(con, "CREATE MATERIALIZED VIEW " + view.name + (view.manual ? " TBLPROPERTIES ('refresh' = 'manual')" : "") +
                 " AS " + view.query);
  }
  for (auto& view : views) Check(con, view, "CREATE");
  std::mt19937 rng(seed);
  int next_id = 0;
  int since_refresh = 0;
  for (int op = 0; op < operations; op++) {
    std::string sql = RandomStatement(rng, next_id);
    Run(con, sql);
    std::string what = "#" + std::to_string(op) + " " + sql;
    for (auto& view : views) {
      if (view.manual) continue;
      Check(con, view, what);
    }
    if (++since_refresh >= static_cast<int>(1 + rng() % 4)) {
      since_refresh = 0;
      for (auto& view : views) {
        if (!view.manual) continue;
        Run(con, "REFRESH MATERIALIZED VIEW " + view.name);
        Check(con, view, what + " + REFRESH");
      }
    }
  }
  // A full refresh of an up-to-date view changes nothing.
  for (auto& view : views) {
    Run(con, "REFRESH MATERIALIZED VIEW " + view.name + " FULL");
    Check(con, view, "REFRESH FULL");
  }
  auto shapes = Run(con, "SHOW MATERIALIZED VIEWS");
  std::cout << shapes->ToString();
  std::cout << "ok: " << operations << " operations, seed " << seed << ", " << views.size() << " views" << std::endl;
  return 0;
}
