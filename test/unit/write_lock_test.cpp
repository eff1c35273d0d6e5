// The write lock (CatalogStore::WaitLock, DatabaseInstance::AcquireWriteLock):
// a waiter sleeps in line and gets the lock before a holder that lets go and
// asks again (no starvation); the wait still ends at lock_wait_ms with the
// holder named; several writers, some sharing a Database and some with their
// own (as separate processes are), commit exactly what they wrote.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "catalog/catalog_store.hpp"
#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<CatalogStore> OpenStore(const std::string& db) {
  return CatalogStore::Open(FileSystem::Default(), db, /*read_only=*/false).ValueOrThrow();
}

// Whether someone holds the turnstile (byte 0 of LOCK): a waiter is in line.
bool SomeoneInLine(const std::string& db) {
  int fd = ::open((db + "/_lakestream/LOCK").c_str(), O_RDWR | O_CLOEXEC);
  struct flock range {};
  range.l_type = F_WRLCK;
  range.l_whence = SEEK_SET;
  range.l_len = 1;
  bool held = ::fcntl(fd, F_OFD_GETLK, &range) == 0 && range.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

TEST(WriteLock, WaiterInLineGoesBeforeTheHolderAsksAgain) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db = tmp.path + "/db";
  auto holder = OpenStore(db);
  auto waiter = OpenStore(db);
  bool acquired = false;
  ASSERT_TRUE(holder->TryLock(&acquired).ok());
  ASSERT_TRUE(acquired);

  std::atomic<bool> waiter_got{false}, waiter_done{false};
  std::thread wait([&] {
    bool got = false;
    EXPECT_TRUE(waiter->WaitLock(10s, &got).ok());
    waiter_got = got;
    std::this_thread::sleep_for(20ms);
    waiter_done = true;
    waiter->Unlock();
  });
  auto until = std::chrono::steady_clock::now() + 10s;
  while (!SomeoneInLine(db) && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(SomeoneInLine(db)) << "the waiter never got in line";

  // The holder lets go and asks again at once (a polling waiter would lose
  // this race every time): the waiter in line must win it.
  holder->Unlock();
  ASSERT_TRUE(holder->TryLock(&acquired).ok());
  EXPECT_FALSE(acquired) << "the holder took the lock back past a waiter in line";
  ASSERT_TRUE(holder->WaitLock(10s, &acquired).ok());
  EXPECT_TRUE(acquired);
  EXPECT_TRUE(waiter_done) << "the holder got the lock while the waiter held it";
  wait.join();
  EXPECT_TRUE(waiter_got);
}

TEST(WriteLock, WaitEndsAtItsDeadlineAndNamesTheHolder) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db = tmp.path + "/db";
  { Database create(db); }
  auto holder = OpenStore(db);
  bool acquired = false;
  ASSERT_TRUE(holder->TryLock(&acquired).ok());
  ASSERT_TRUE(acquired);

  DatabaseOptions options;
  options.lock_wait_ms = 300;
  Database other(db, options);
  Connection con(other);
  auto start = std::chrono::steady_clock::now();
  auto result = con.Query("CREATE TABLE t (id BIGINT)");
  auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(result->HasError());
  EXPECT_NE(result->GetError().find("is already open for writing by process " + std::to_string(::getpid())),
            std::string::npos)
      << result->GetError();
  EXPECT_NE(result->GetError().find("(waited 0.3 s)"), std::string::npos) << result->GetError();
  EXPECT_GE(waited, 300ms);
  EXPECT_LT(waited, 5s);
  // Giving up gave up the place in line too: the holder can take the lock again.
  EXPECT_FALSE(SomeoneInLine(db));
  holder->Unlock();
  EXPECT_FALSE(con.Query("CREATE TABLE t (id BIGINT)")->HasError());
}

TEST(WriteLock, SeveralWritersCommitExactlyWhatTheyWrote) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db = tmp.path + "/db";
  {
    Database create(db);
    Connection con(create);
    ASSERT_FALSE(con.Query("CREATE TABLE t (writer BIGINT, n BIGINT)")->HasError());
  }
  // Three open databases (each its own lock file descriptor, as separate
  // processes have) with two connections each (the statement lock).
  constexpr int kDatabases = 3, kConnections = 2, kInserts = 25;
  std::vector<std::unique_ptr<Database>> databases;
  for (int d = 0; d < kDatabases; d++) databases.push_back(std::make_unique<Database>(db));
  std::vector<std::thread> writers;
  std::atomic<int> errors{0};
  for (int d = 0; d < kDatabases; d++) {
    for (int c = 0; c < kConnections; c++) {
      int writer = d * kConnections + c;
      writers.emplace_back([&, d, writer] {
        Connection con(*databases[d]);
        for (int n = 0; n < kInserts; n++) {
          auto r = con.Query("INSERT INTO t VALUES (" + std::to_string(writer) + ", " + std::to_string(n) + ")");
          if (r->HasError()) {
            ADD_FAILURE() << r->GetError();
            errors++;
          }
        }
      });
    }
  }
  for (auto& w : writers) w.join();
  ASSERT_EQ(errors, 0);
  Connection con(*databases[0]);
  auto r = con.Query("SELECT writer, count(*), count(DISTINCT n), min(n), max(n) FROM t GROUP BY writer ORDER BY writer");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  ASSERT_EQ(r->RowCount(), static_cast<idx_t>(kDatabases * kConnections));
  for (idx_t w = 0; w < r->RowCount(); w++) {
    EXPECT_EQ(r->GetValue(0, w).ToString(), std::to_string(w));
    EXPECT_EQ(r->GetValue(1, w).ToString(), std::to_string(kInserts)) << "writer " << w;
    EXPECT_EQ(r->GetValue(2, w).ToString(), std::to_string(kInserts)) << "writer " << w;
    EXPECT_EQ(r->GetValue(3, w).ToString(), "0");
    EXPECT_EQ(r->GetValue(4, w).ToString(), std::to_string(kInserts - 1));
  }
}

}  // namespace
}  // namespace lakestream
