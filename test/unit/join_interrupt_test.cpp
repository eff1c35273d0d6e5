// Joins stop on Connection::Interrupt() even when they emit nothing for a
// long time: the nested-loop join checks the flag per (left row, right chunk)
// step, the hash join per probe chunk.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "lakestream.hpp"

namespace lakestream {
namespace {

// Runs `sql` (minutes long when not interrupted) while another thread keeps
// interrupting; returns the seconds it took and expects the interrupt error.
double RunInterrupted(Connection& con, const std::string& sql) {
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    // The first request may come before the statement starts, which clears it.
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      con.Interrupt();
    }
  });
  auto start = std::chrono::steady_clock::now();
  auto r = con.Query(sql);
  done = true;
  interrupter.join();
  EXPECT_TRUE(r->HasError()) << sql;
  if (r->HasError()) EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(JoinInterrupt, NestedLoopJoinWithoutAnyMatchStops) {
  Database db;
  Connection con(db);
  // No pair ever satisfies the condition: the join produces no chunk at all.
  double seconds = RunInterrupted(con, "SELECT count(*) FROM range(1000000) a JOIN range(1000000) b ON a.range > b.range + 5000000");
  EXPECT_LT(seconds, 30);
}

TEST(JoinInterrupt, FullAndAntiNestedLoopJoinsStop) {
  Database db;
  Connection con(db);
  EXPECT_LT(RunInterrupted(con, "SELECT count(*) FROM range(1000000) a FULL JOIN range(1000000) b ON a.range > b.range + 5000000"), 30);
  EXPECT_LT(RunInterrupted(con, "SELECT count(*) FROM range(1000000) a ANTI JOIN range(1000000) b ON a.range > b.range + 5000000"), 30);
}

TEST(JoinInterrupt, ConnectionWorksAfterwards) {
  Database db;
  Connection con(db);
  RunInterrupted(con, "SELECT count(*) FROM range(1000000) a SEMI JOIN range(1000000) b ON a.range < b.range - 5000000");
  auto r = con.Query("SELECT count(*) FROM range(10) a FULL JOIN range(5, 15) b ON a.range = b.range");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(r->GetValue(0, 0).AsBigint(), 15);
}

}  // namespace lakestream
