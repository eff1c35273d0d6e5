// EXCEPT / INTERSECT read their inputs a chunk at a time and check the
// connection's interrupt flag on each: a long one stops on Interrupt().
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "lakestream.hpp"

namespace lakestream {
namespace {

void ExpectInterrupted(const std::string& sql) {
  Database db;
  Connection con(db);
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    // The first request may come before the call starts, which clears it.
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      con.Interrupt();
    }
  });
  auto start = std::chrono::steady_clock::now();
  auto r = con.Query(sql);
  done = true;
  interrupter.join();
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r->HasError()) << sql;
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
  EXPECT_LT(seconds, 30);
  // The connection carries on.
  auto next = con.Query("SELECT count(*) FROM (SELECT 1 EXCEPT SELECT 2) t");
  ASSERT_FALSE(next->HasError()) << next->GetError();
  EXPECT_EQ(next->GetValue(0, 0).AsBigint(), 1);
}

// Each runs for hours when not interrupted; the distinct rows stay few, so
// memory stays small while it runs.
TEST(SetOperation, InterruptStopsReadingTheLeftInput) {
  ExpectInterrupted("SELECT count(*) FROM (SELECT range % 1000 FROM range(1000000000000) EXCEPT ALL SELECT 1) t");
}

TEST(SetOperation, InterruptStopsReadingTheRightInput) {
  ExpectInterrupted("SELECT count(*) FROM (SELECT 1 INTERSECT SELECT range % 1000 FROM range(1000000000000)) t");
}

}  // namespace
}  // namespace lakestream
