// Parallel scans and aggregates (execution/parallel): every morsel of a
// table is read by exactly one of the threads sharing it, numbered in scan
// order when the pipeline keeps the input order (NumberedMorsels); an error
// in one worker reaches the caller once; Ctrl-C stops every worker.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "execution/parallel/numbered_morsels.hpp"
#include "lakestream.hpp"
#include "lakestream/progress.hpp"
#include "storage/data_table.hpp"

namespace lakestream {
namespace {

// A table in memory holding 0, 1, ..., rows - 1 in one BIGINT column.
std::unique_ptr<InMemoryTable> Numbers(idx_t rows) {
  auto table = std::make_unique<InMemoryTable>(std::vector<LogicalType>{TypeId::BIGINT});
  TableCommit commit;
  commit.inserted.SetTypes({TypeId::BIGINT});
  for (idx_t first = 0; first < rows; first += STANDARD_VECTOR_SIZE) {
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, rows - first);
    DataChunk chunk;
    chunk.Initialize({TypeId::BIGINT});
    for (idx_t r = 0; r < n; r++) chunk.data[0].GetData<int64_t>()[r] = static_cast<int64_t>(first + r);
    chunk.data[0].SetAllValid(n);
    chunk.SetCardinality(n);
    commit.inserted.Append(chunk);
  }
  table->Commit(commit);
  return table;
}

TEST(ParallelScan, EveryRowOfEveryMorselIsReadOnce) {
  const idx_t rows = 1000003;  // a last morsel shorter than the others
  auto table = Numbers(rows);
  auto morsels = table->ParallelScan({0}, {});
  ASSERT_NE(morsels, nullptr);
  EXPECT_GT(morsels->MorselCount(), 4u);
  std::vector<std::atomic<int>> seen(rows);
  std::atomic<idx_t> taken{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&] {
      DataChunk chunk;
      chunk.Initialize({TypeId::BIGINT});
      while (auto scan = morsels->NextMorsel()) {
        taken++;
        while (scan->Next(chunk, nullptr)) {
          for (idx_t r = 0; r < chunk.size(); r++) seen[chunk.data[0].GetData<int64_t>()[r]]++;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(taken.load(), morsels->MorselCount());
  idx_t wrong = 0;
  for (idx_t i = 0; i < rows; i++) wrong += seen[i].load() != 1;
  EXPECT_EQ(wrong, 0u) << "rows read never or more than once";
  EXPECT_EQ(morsels->NextMorsel(), nullptr);
}

TEST(ParallelScan, CancelStopsHandingOutMorsels) {
  auto table = Numbers(100000);
  auto morsels = table->ParallelScan({0}, {});
  ASSERT_NE(morsels->NextMorsel(), nullptr);
  morsels->Cancel();
  EXPECT_EQ(morsels->NextMorsel(), nullptr);
}

idx_t Occurrences(const std::string& text, const std::string& what) {
  idx_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

TEST(ParallelAggregate, WorkerErrorIsReportedOnceAndConnectionWorks) {
  Database db;
  Connection con(db);
  ASSERT_FALSE(con.Query("SET threads = 4")->HasError());
  auto made = con.Query("CREATE TABLE m AS SELECT range AS i, CASE WHEN range % 100000 = 99999 THEN 'bad' || "
                        "CAST(range AS VARCHAR) ELSE CAST(range AS VARCHAR) END AS s FROM range(0, 1000000)");
  ASSERT_FALSE(made->HasError()) << made->GetError();
  auto plan = con.Query("EXPLAIN SELECT sum(CAST(s AS BIGINT)) FROM m");
  ASSERT_FALSE(plan->HasError()) << plan->GetError();
  ASSERT_NE(plan->GetValue(0, 0).ToString().find("[4 threads]"), std::string::npos) << plan->GetValue(0, 0).ToString();
  // Ten bad rows spread over the morsels: several workers may fail, one error is reported.
  auto r = con.Query("SELECT sum(CAST(s AS BIGINT)) FROM m");
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(Occurrences(r->GetError(), "'bad"), 1u) << r->GetError();
  auto ok = con.Query("SELECT count(*) FROM m WHERE s NOT LIKE 'bad%'");
  ASSERT_FALSE(ok->HasError()) << ok->GetError();
  EXPECT_EQ(ok->GetValue(0, 0).AsBigint(), 999990);
}

TEST(ParallelAggregate, InterruptStopsEveryWorker) {
  Database db;
  Connection con(db);
  ASSERT_FALSE(con.Query("SET threads = 4")->HasError());
  ASSERT_FALSE(con.Query("CREATE TABLE m AS SELECT CAST(range AS VARCHAR) AS s FROM range(0, 1000000)")->HasError());
  // Each row makes a 60 KB string: about a minute of copying on one thread.
  const std::string sql = "SELECT sum(length(repeat(s, 10000))) FROM m";
  auto plan = con.Query("EXPLAIN " + sql);
  ASSERT_NE(plan->GetValue(0, 0).ToString().find("[4 threads]"), std::string::npos) << plan->GetValue(0, 0).ToString();
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    // The first request may come before the statement starts, which clears it.
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      con.Interrupt();
    }
  });
  auto start = std::chrono::steady_clock::now();
  auto r = con.Query(sql);
  done = true;
  interrupter.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
  EXPECT_LT(seconds, 10);
  auto after = con.Query("SELECT count(*) FROM m");
  ASSERT_FALSE(after->HasError()) << after->GetError();
  EXPECT_EQ(after->GetValue(0, 0).AsBigint(), 1000000);
}

// Every worker's scan counts its rows done, and one adds the table's size to
// the total: the bar passes the middle while the query runs.
TEST(ParallelAggregate, ProgressCountsEveryWorker) {
  Database db;
  Connection con(db);
  ASSERT_FALSE(con.Query("SET threads = 4")->HasError());
  ASSERT_FALSE(con.Query("CREATE TABLE m AS SELECT CAST(range AS VARCHAR) AS s FROM range(0, 200000)")->HasError());
  const std::string sql = "SELECT sum(length(repeat(s, 300))) FROM m";
  auto plan = con.Query("EXPLAIN " + sql);
  ASSERT_NE(plan->GetValue(0, 0).ToString().find("[4 threads]"), std::string::npos) << plan->GetValue(0, 0).ToString();
  std::atomic<bool> done{false};
  std::atomic<double> highest{-1};
  std::thread watcher([&] {
    while (!done) {
      double p = GetQueryProgress(con);
      if (p > highest) highest = p;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  auto r = con.Query(sql);
  done = true;
  watcher.join();
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_GT(highest.load(), 50.0);
  EXPECT_LE(highest.load(), 100.0);
}

// NumberedMorsels (execution/parallel/numbered_morsels.hpp): readers sharing
// one table's morsels learn the number of the morsel they read, numbers
// follow the serial scan's order, and cancelling one reader stops them all.
TEST(NumberedMorsels, NumbersFollowTheSerialScanOrder) {
  auto table = Numbers(500000);
  auto source = table->ParallelScan({0}, {});
  ASSERT_NE(source, nullptr);
  const idx_t count = source->MorselCount();
  ASSERT_GT(count, 8u);
  auto readers = NumberedMorsels::Split(source, 4);
  ASSERT_EQ(readers.size(), 4u);
  EXPECT_EQ(readers[0]->MorselCount(), count);
  std::mutex mutex;
  std::map<idx_t, std::pair<int64_t, int64_t>> first_last;  // morsel number -> its first and last row
  std::vector<std::thread> threads;
  for (auto& reader : readers) {
    threads.emplace_back([&, reader] {
      DataChunk chunk;
      chunk.Initialize({TypeId::BIGINT});
      while (auto scan = reader->NextMorsel()) {
        idx_t number = reader->Current();
        int64_t first = -1, last = -1;
        while (scan->Next(chunk, nullptr)) {
          if (first < 0) first = chunk.data[0].GetData<int64_t>()[0];
          last = chunk.data[0].GetData<int64_t>()[chunk.size() - 1];
        }
        std::lock_guard<std::mutex> lock(mutex);
        EXPECT_TRUE(first_last.emplace(number, std::make_pair(first, last)).second) << "number " << number << " twice";
      }
      EXPECT_EQ(reader->Current(), NumberedMorsels::kAfterLast);
    });
  }
  for (auto& t : threads) t.join();
  // Every number once, 0 .. count - 1, and morsel k + 1 starts where k ended.
  ASSERT_EQ(first_last.size(), count);
  int64_t next = 0;
  for (auto& [number, rows] : first_last) {
    EXPECT_EQ(rows.first, next) << "morsel " << number;
    next = rows.second + 1;
  }
  EXPECT_EQ(next, 500000);
  EXPECT_EQ(first_last.rbegin()->first, count - 1);
}

TEST(NumberedMorsels, CancellingOneReaderStopsEveryReader) {
  auto table = Numbers(300000);
  auto readers = NumberedMorsels::Split(table->ParallelScan({0}, {}), 2);
  ASSERT_NE(readers[0]->NextMorsel(), nullptr);
  EXPECT_EQ(readers[0]->Current(), 0u);
  ASSERT_NE(readers[1]->NextMorsel(), nullptr);
  EXPECT_EQ(readers[1]->Current(), 1u);
  readers[1]->CancelAll();
  EXPECT_EQ(readers[0]->NextMorsel(), nullptr);
  EXPECT_EQ(readers[0]->Current(), NumberedMorsels::kAfterLast);
  EXPECT_EQ(readers[1]->NextMorsel(), nullptr);
}

}  // namespace
}  // namespace lakestream
