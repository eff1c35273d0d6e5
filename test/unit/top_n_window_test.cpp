// The top-N window rewrite (planner/top_n_window.hpp, TOP_N_WINDOW) against
// the general WINDOW operator on random tables: for many window specs and
// filters the rewritten query must give exactly the rows and row numbers of
// the same query forced through the general path (a second window function
// in the same SELECT disables the rewrite). Keys have few distinct values
// (ties), NULLs, -0.0/0.0 and NaN.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "lakestream.hpp"

namespace lakestream {
namespace {

// The rows as text (all of them, one line each); `rows` counts them.
std::string RunSql(Connection& con, const std::string& sql, idx_t* rows = nullptr) {
  auto r = con.Query(sql);
  EXPECT_FALSE(r->HasError()) << sql << "\n" << r->GetError();
  if (r->HasError()) return "";
  std::string text = r->ToString();
  if (rows) *rows += r->RowCount();
  return text;
}

void FillRandomTable(Connection& con, uint32_t seed, int rows) {
  std::mt19937 rng(seed);
  RunSql(con, "CREATE TABLE r (id INT, k VARCHAR, g INT, ts INT, d DOUBLE)");
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  static const char* kDoubles[] = {"-0.0", "0.0", "1.5", "-2.25", "CAST('NaN' AS DOUBLE)", "NULL", "7.0"};
  std::string sql;
  for (int i = 0; i < rows; i++) {
    if (sql.empty()) sql = "INSERT INTO r VALUES ";
    else sql += ", ";
    std::string k = pick(10) == 0 ? "NULL" : "'k" + std::to_string(pick(1 + static_cast<int>(seed % 40))) + "'";
    std::string g = pick(8) == 0 ? "NULL" : std::to_string(pick(3));
    std::string ts = pick(6) == 0 ? "NULL" : std::to_string(pick(12));
    sql += "(" + std::to_string(i) + ", " + k + ", " + g + ", " + ts + ", " + kDoubles[pick(7)] + ")";
    if (i % 500 == 499 || i + 1 == rows) {
      RunSql(con, sql);
      sql.clear();
    }
  }
}

TEST(TopNWindow, MatchesTheGeneralWindowOnRandomTables) {
  static const char* kWindows[] = {
      "PARTITION BY k ORDER BY ts DESC",
      "PARTITION BY k ORDER BY ts",
      "PARTITION BY k, g ORDER BY ts DESC NULLS LAST, d",
      "PARTITION BY g ORDER BY d DESC, k NULLS FIRST",
      "PARTITION BY k ORDER BY d",
      "ORDER BY ts, d DESC",
      "PARTITION BY k",
      "PARTITION BY upper(k) ORDER BY ts * 2 - g DESC",
  };
  static const char* kFilters[] = {"rn = 1", "rn <= 2", "rn < 4", "7 >= rn", "rn = 2"};
  idx_t compared_rows = 0;
  for (uint32_t seed = 1; seed <= 6; seed++) {
    Database db;
    Connection con(db);
    FillRandomTable(con, seed, seed % 2 ? 3000 : 400);
    for (const char* w : kWindows) {
      for (const char* f : kFilters) {
        std::string fast = std::string("SELECT id, rn FROM (SELECT id, row_number() OVER (") + w + ") AS rn FROM r) q WHERE " + f +
                           " ORDER BY id";
        std::string general = std::string("SELECT id, rn FROM (SELECT id, row_number() OVER (") + w +
                              ") AS rn, count(*) OVER () AS c FROM r) q WHERE " + f + " ORDER BY id";
        ASSERT_NE(RunSql(con, "EXPLAIN " + fast).find("TOP_N_WINDOW"), std::string::npos) << fast;
        ASSERT_EQ(RunSql(con, "EXPLAIN " + general).find("TOP_N_WINDOW"), std::string::npos) << general;
        std::string expected = RunSql(con, general, &compared_rows);
        EXPECT_EQ(RunSql(con, fast), expected) << "seed " << seed << ": " << fast;
      }
    }
  }
  EXPECT_GT(compared_rows, 1000u);  // the comparisons were not all of empty results
}

// The operator reads its input a chunk at a time and checks the
// connection's interrupt flag on each: a long one stops on Interrupt().
TEST(TopNWindow, InterruptStopsReadingTheInput) {
  Database db;
  Connection con(db);
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      con.Interrupt();
    }
  });
  auto r = con.Query(
      "SELECT count(*) FROM (SELECT row_number() OVER (PARTITION BY range % 100 ORDER BY range DESC) AS rn FROM "
      "range(1000000000000)) q WHERE rn = 1");
  done = true;
  interrupter.join();
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
}

}  // namespace
}  // namespace lakestream
