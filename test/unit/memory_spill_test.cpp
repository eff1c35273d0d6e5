// SET memory_limit's parts: the pool operators reserve from (limits, threads,
// reservations given back), size parsing, the spill file format (every
// spillable type, NULLs, rows in more than one chunk), and that a query's
// spill folder is gone after the query succeeds, fails and is interrupted.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "common/exception.hpp"
#include "execution/memory/memory_pool.hpp"
#include "execution/memory/spill_file.hpp"
#include "lakestream.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

idx_t Entries(const std::string& dir) {
  idx_t n = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(dir); it != std::filesystem::recursive_directory_iterator(); ++it) n++;
  return n;
}

}  // namespace

TEST(MemoryPool, ReservesWithinTheLimitOnly) {
  auto pool = std::make_shared<MemoryPool>(nullptr, "");
  pool->SetLimit(1000);
  EXPECT_TRUE(pool->TryReserve(600));
  EXPECT_FALSE(pool->TryReserve(401));
  EXPECT_EQ(pool->Used(), 600U);  // a refused reservation adds nothing
  EXPECT_TRUE(pool->TryReserve(400));
  pool->Release(1000);
  EXPECT_EQ(pool->Used(), 0U);
  {
    MemoryReservation r(pool);
    EXPECT_TRUE(r.Grow(700));
    EXPECT_FALSE(r.Grow(400));
    EXPECT_EQ(r.Size(), 700U);
    r.ForceGrow(400);  // may pass the limit
    EXPECT_EQ(pool->Used(), 1100U);
    r.Shrink(100);
    EXPECT_EQ(pool->Used(), 1000U);
  }
  EXPECT_EQ(pool->Used(), 0U);  // given back when the reservation goes
  pool->SetLimit(0);
  EXPECT_GT(pool->Limit(), 1000U);  // the default: most of the machine's memory
}

TEST(MemoryPool, ThreadsShareTheLimit) {
  auto pool = std::make_shared<MemoryPool>(nullptr, "");
  pool->SetLimit(2500);
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; i++) granted += pool->TryReserve(1) ? 1 : 0;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(granted.load(), 2500);
  EXPECT_EQ(pool->Used(), 2500U);
}

TEST(MemoryPool, ParsesSizes) {
  EXPECT_EQ(ParseMemorySize("memory_limit", "2GB"), 2000000000U);
  EXPECT_EQ(ParseMemorySize("memory_limit", "512 MiB"), 512U << 20);
  EXPECT_EQ(ParseMemorySize("memory_limit", "1.5gib"), 3U << 29);
  EXPECT_EQ(ParseMemorySize("memory_limit", "100kb"), 100000U);
  EXPECT_EQ(ParseMemorySize("memory_limit", "7 B"), 7U);
  EXPECT_EQ(ParseMemorySize("memory_limit", "1TB"), 1000000000000U);
  for (const char* bad : {"", "GB", "12", "1.2.3GB", "5 XB", "-1GB", "0GB"}) {
    try {
      ParseMemorySize("memory_limit", bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidInputError& e) {
      EXPECT_NE(std::string(e.what()).find("SET memory_limit = '" + std::string(bad) + "'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("e.g. '2GB'"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(FormatBytes(512), "512 bytes");
  EXPECT_EQ(FormatBytes(3U << 29), "1.5 GiB");
}

TEST(SpillFile, RoundTripsEveryType) {
  testing::ScopedTempDir dir("spill");
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR, TypeId::DOUBLE, LogicalType::Decimal(18, 2),
                                    TypeId::BOOLEAN, TypeId::DATE, TypeId::INTEGER};
  ASSERT_TRUE(CanSpill(types));
  EXPECT_FALSE(CanSpill({LogicalType::List(TypeId::BIGINT)}));
  std::string folder_path;
  {
    auto folder = std::make_shared<SpillFolder>(dir.path);
    SpillFile file(folder, types, "t");
    folder_path = std::filesystem::path(folder->NewFilePath("probe")).parent_path().string();
    DataChunk chunk;
    chunk.Initialize(types);
    const idx_t kRows = 5000;
    // Chunks of 2048 rows, every other row kept (a selection), NULLs every 7th.
    idx_t written = 0;
    for (idx_t start = 0; start < kRows; start += STANDARD_VECTOR_SIZE) {
      chunk.Reset();
      idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, kRows - start);
      for (idx_t i = 0; i < n; i++) {
        int64_t v = static_cast<int64_t>(start + i);
        bool null = v % 7 == 3;
        chunk.SetValue(0, i, null ? Value() : Value::BIGINT(v));
        chunk.SetValue(1, i, null ? Value() : Value(std::string(static_cast<size_t>(v % 50), 'x') + std::to_string(v)));
        chunk.SetValue(2, i, Value::DOUBLE(static_cast<double>(v) / 4));
        chunk.SetValue(3, i, Value::DECIMAL(hugeint_t(v * 100), 18, 2));
        chunk.SetValue(4, i, Value::BOOLEAN(v % 2 == 0));
        chunk.SetValue(5, i, Value::DATE(date_t(static_cast<int32_t>(v))));
        chunk.SetValue(6, i, Value::INTEGER(static_cast<int32_t>(-v)));
      }
      chunk.SetCardinality(n);
      std::vector<sel_t> sel;
      for (idx_t i = 0; i < n; i += 2) sel.push_back(static_cast<sel_t>(i));
      file.Append(chunk, sel.data(), sel.size());
      written += sel.size();
    }
    EXPECT_EQ(file.Rows(), written);
    DataChunk out;
    out.Initialize(types);
    idx_t row = 0;
    for (int pass = 0; pass < 2; pass++) {  // Rewind reads it all again
      row = 0;
      if (pass == 1) file.Rewind();
      while (file.Read(out)) {
        for (idx_t i = 0; i < out.size(); i++, row++) {
          int64_t v = static_cast<int64_t>(row * 2);
          bool null = v % 7 == 3;
          ASSERT_EQ(out.GetValue(0, i).IsNull(), null) << row;
          if (!null) {
            ASSERT_EQ(out.GetValue(0, i).GetBigint(), v);
            ASSERT_EQ(out.GetValue(1, i).ToString(), std::string(static_cast<size_t>(v % 50), 'x') + std::to_string(v));
          }
          ASSERT_EQ(out.GetValue(2, i).ToString(), Value::DOUBLE(static_cast<double>(v) / 4).ToString());
          ASSERT_EQ(out.GetValue(3, i).ToString(), std::to_string(v) + ".00");
          ASSERT_EQ(out.GetValue(4, i).ToString(), v % 2 == 0 ? "true" : "false");
          ASSERT_EQ(out.GetValue(6, i).ToString(), std::to_string(-v));
        }
      }
      EXPECT_EQ(row, written);
    }
    EXPECT_TRUE(std::filesystem::exists(folder_path));
  }
  // The file and then the folder go with the last reference.
  EXPECT_FALSE(std::filesystem::exists(folder_path));
  EXPECT_EQ(Entries(dir.path), 0U);
}

// A query's spill files are gone when it succeeds, fails or is interrupted.
TEST(SpillFile, QueryFolderIsRemovedAfterSuccessErrorAndInterrupt) {
  testing::ScopedTempDir dir("spill");
  Database db;
  Connection con(db);
  ASSERT_FALSE(con.Query("SET temp_directory = '" + dir.path + "'")->HasError());
  ASSERT_FALSE(con.Query("SET memory_limit = '2MB'")->HasError());
  for (int threads : {1, 4}) {
    ASSERT_FALSE(con.Query("SET threads = " + std::to_string(threads))->HasError());
    auto ok = con.Query("SELECT count(*), sum(c) FROM (SELECT range % 300000 AS g, count(*) AS c FROM range(0, 900000) GROUP BY g)");
    ASSERT_FALSE(ok->HasError()) << ok->GetError();
    EXPECT_EQ(ok->GetValue(0, 0).AsBigint(), 300000);
    EXPECT_EQ(ok->GetValue(1, 0).AsBigint(), 900000);
    EXPECT_EQ(Entries(dir.path), 0U);
    // Fails at row 800000, long after the aggregate began to spill.
    auto failed = con.Query(
        "SELECT g, sum(CAST(s AS BIGINT)) FROM (SELECT range % 300000 AS g, CASE WHEN range = 800000 THEN 'bad' ELSE "
        "CAST(range AS VARCHAR) END AS s FROM range(0, 900000)) GROUP BY g");
    ASSERT_TRUE(failed->HasError());
    EXPECT_NE(failed->GetError().find("bad"), std::string::npos) << failed->GetError();
    EXPECT_EQ(Entries(dir.path), 0U);
    // A join spilling both sides, interrupted from another thread.
    std::atomic<bool> done{false};
    std::thread interrupter([&] {
      while (!done) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        con.Interrupt();
      }
    });
    auto cancelled = con.Query("SELECT count(*) FROM range(0, 50000000) a JOIN range(0, 50000000) b ON a.range = b.range");
    done = true;
    interrupter.join();
    ASSERT_TRUE(cancelled->HasError());
    EXPECT_EQ(cancelled->GetErrorKind(), ErrorKind::INTERRUPTED) << cancelled->GetError();
    EXPECT_EQ(Entries(dir.path), 0U);
  }
}

}  // namespace lakestream
