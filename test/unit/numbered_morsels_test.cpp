// NumberedMorsels (execution/parallel/numbered_morsels.hpp): readers sharing
// one table's morsels on several threads each learn the number of the morsel
// they read, numbers follow the serial scan's order, and cancelling one
// reader stops them all.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "execution/parallel/numbered_morsels.hpp"
#include "lakestream.hpp"
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
