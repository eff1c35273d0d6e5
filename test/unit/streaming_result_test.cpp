// Connection::SendQuery: a streaming SELECT gives the rows a materialized
// Query gives, and keeps its contract (include/lakestream/connection.hpp):
// errors and interrupts mid-stream become the result's error, another
// statement or closing the connection invalidates the stream, random access
// materializes, and the statement lock is held only while the stream runs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lakestream.hpp"

namespace lakestream {
namespace {

// Every cell as text, row by row, read chunk by chunk through FetchChunk.
std::vector<std::string> FetchAllCells(QueryResult& result) {
  std::vector<std::string> cells;
  while (auto chunk = result.FetchChunk()) {
    for (idx_t r = 0; r < chunk->RowCount(); r++) {
      for (idx_t c = 0; c < chunk->ColumnCount(); c++) cells.push_back(chunk->GetValue(c, r).ToString());
    }
  }
  return cells;
}

class StreamingResult : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(con_.Query("CREATE TABLE t (i BIGINT, s VARCHAR, d DOUBLE)")->HasError());
    auto r = con_.Query(
        "INSERT INTO t SELECT range, CASE WHEN range % 7 = 0 THEN NULL ELSE 's' || range END, range / 3.0 "
        "FROM range(5000)");
    ASSERT_FALSE(r->HasError()) << r->GetError();
  }
  Database db_;
  Connection con_{db_};
};

TEST_F(StreamingResult, SameRowsAsQueryForManyShapes) {
  const char* queries[] = {
      "SELECT * FROM t",
      "SELECT * FROM t WHERE i < 0",                   // empty
      "SELECT i FROM t WHERE i = 17",                  // one row
      "SELECT i, s FROM t WHERE i < 2048",             // exactly one full chunk
      "SELECT i, s FROM t WHERE i < 2049",             // one row past it
      "SELECT i * 2 AS x, s || '!' AS y FROM t WHERE i % 3 = 1",
      "SELECT s, count(*) AS n, sum(d) AS total FROM t GROUP BY s ORDER BY s NULLS FIRST",
      "SELECT a.i, b.s FROM t a JOIN t b ON a.i = b.i + 1 ORDER BY a.i",
      "SELECT * FROM t ORDER BY d DESC LIMIT 3000",
      "SELECT 1 AS one, NULL AS nothing",
      "SELECT * FROM range(10000) UNION ALL SELECT * FROM range(3)",
  };
  for (const char* sql : queries) {
    SCOPED_TRACE(sql);
    auto materialized = con_.Query(sql);
    ASSERT_FALSE(materialized->HasError()) << materialized->GetError();
    std::vector<std::string> expected = FetchAllCells(*materialized);
    auto streaming = con_.SendQuery(sql);
    ASSERT_FALSE(streaming->HasError()) << streaming->GetError();
    EXPECT_TRUE(streaming->IsStreaming());
    EXPECT_EQ(streaming->Names(), materialized->Names());
    ASSERT_EQ(streaming->ColumnCount(), materialized->ColumnCount());
    for (idx_t c = 0; c < streaming->ColumnCount(); c++) {
      EXPECT_EQ(streaming->ColumnTypes()[c].ToString(), materialized->ColumnTypes()[c].ToString());
    }
    EXPECT_EQ(FetchAllCells(*streaming), expected);
    EXPECT_FALSE(streaming->HasError()) << streaming->GetError();
    EXPECT_FALSE(streaming->IsStreaming());
    EXPECT_EQ(streaming->FetchChunk(), nullptr);
  }
}

TEST_F(StreamingResult, ColumnViewReadsEachFetchedChunk) {
  auto r = con_.SendQuery("SELECT i, s FROM t ORDER BY i");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_THROW(ColumnView(*r, 0), std::out_of_range);  // nothing fetched yet
  int64_t next = 0;
  idx_t chunks = 0;
  while (r->FetchNext()) {
    chunks++;
    ColumnView ids(*r, 0);
    ColumnView names(*r, 1);
    EXPECT_THROW(ColumnView(*r, 2), std::out_of_range);
    ASSERT_LE(ids.RowCount(), 2048u);
    for (idx_t k = 0; k < ids.RowCount(); k++, next++) {
      ASSERT_EQ(ids.Bigints()[k], next);
      ASSERT_EQ(names.IsValid(k), next % 7 != 0);
      if (names.IsValid(k)) ASSERT_EQ(names.Strings()[k], "s" + std::to_string(next));
    }
  }
  EXPECT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(next, 5000);
  EXPECT_GE(chunks, 3u);
  EXPECT_THROW(ColumnView(*r, 0), std::out_of_range);  // past the end
}

TEST_F(StreamingResult, ParametersAndOtherStatements) {
  auto r = con_.SendQuery("SELECT i FROM t WHERE i < ? ORDER BY i", {SqlValue::Bigint(3)});
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_TRUE(r->IsStreaming());
  EXPECT_EQ(FetchAllCells(*r), (std::vector<std::string>{"0", "1", "2"}));

  // Not a single SELECT: runs now, as Query does.
  auto insert = con_.SendQuery("INSERT INTO t VALUES (-1, 'x', 0)");
  ASSERT_FALSE(insert->HasError()) << insert->GetError();
  EXPECT_FALSE(insert->IsStreaming());
  EXPECT_EQ(insert->GetValue(0, 0).ToString(), "1");
  auto several = con_.SendQuery("SELECT 1; SELECT count(*) FROM t");
  EXPECT_FALSE(several->IsStreaming());
  EXPECT_EQ(several->GetValue(0, 0).ToString(), "5001");

  auto bad = con_.SendQuery("SELECT nope FROM t");
  EXPECT_EQ(bad->GetErrorKind(), ErrorKind::BINDER);
  EXPECT_FALSE(bad->IsStreaming());
  auto unparsable = con_.SendQuery("SELEC 1");
  EXPECT_EQ(unparsable->GetErrorKind(), ErrorKind::PARSER);
  auto missing = con_.SendQuery("SELECT i FROM t WHERE i < ?");
  EXPECT_TRUE(missing->HasError());
  EXPECT_EQ(missing->FetchChunk(), nullptr);
}

TEST_F(StreamingResult, ErrorMidStreamBecomesTheResultsError) {
  // Row 4000 does not convert: the chunks before it arrive, then the error.
  auto r = con_.SendQuery("SELECT CAST(CASE WHEN i = 4000 THEN 'x' ELSE CAST(i AS VARCHAR) END AS INTEGER) AS v "
                         "FROM t");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  idx_t rows = 0;
  while (r->FetchNext()) rows += ColumnView(*r, 0).RowCount();
  EXPECT_GT(rows, 0u);
  EXPECT_LT(rows, 5000u);
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::CONVERSION) << r->GetError();
  EXPECT_NE(r->GetError().find('x'), std::string::npos) << r->GetError();
  EXPECT_FALSE(r->FetchNext());
  // The connection (and the database's statement lock) are free again.
  EXPECT_EQ(con_.Query("SELECT count(*) FROM t")->GetValue(0, 0).ToString(), "5000");
}

TEST_F(StreamingResult, InterruptMidStream) {
  auto r = con_.SendQuery("SELECT * FROM t");
  ASSERT_TRUE(r->FetchNext());
  con_.Interrupt();
  EXPECT_FALSE(r->FetchNext());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
  EXPECT_EQ(r->FetchChunk(), nullptr);
  // The next call clears the request.
  EXPECT_EQ(con_.Query("SELECT count(*) FROM t")->GetValue(0, 0).ToString(), "5000");
}

TEST_F(StreamingResult, AnotherStatementInvalidatesTheStream) {
  auto r = con_.SendQuery("SELECT * FROM t");
  ASSERT_TRUE(r->FetchNext());
  auto other = con_.Query("SELECT count(*) FROM t");  // must not wait for the stream
  ASSERT_FALSE(other->HasError()) << other->GetError();
  EXPECT_FALSE(r->FetchNext());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INVALID_INPUT);
  EXPECT_NE(r->GetError().find("another statement ran on its connection"), std::string::npos) << r->GetError();
  EXPECT_NE(r->GetError().find("Connection::Query"), std::string::npos) << r->GetError();

  // A second SendQuery and a prepared statement invalidate it too.
  auto first = con_.SendQuery("SELECT * FROM t");
  auto second = con_.SendQuery("SELECT i FROM t WHERE i = 1");
  EXPECT_EQ(first->FetchChunk(), nullptr);
  EXPECT_EQ(first->GetErrorKind(), ErrorKind::INVALID_INPUT);
  EXPECT_EQ(FetchAllCells(*second), std::vector<std::string>{"1"});
  auto third = con_.SendQuery("SELECT * FROM t");
  auto prepared = con_.Prepare("SELECT 1");
  EXPECT_FALSE(prepared->Execute()->HasError());
  EXPECT_FALSE(third->FetchNext());
  EXPECT_EQ(third->GetErrorKind(), ErrorKind::INVALID_INPUT);

  // A stream fetched to the end is not affected.
  auto done = con_.SendQuery("SELECT i FROM t WHERE i = 2");
  EXPECT_EQ(FetchAllCells(*done), std::vector<std::string>{"2"});
  con_.Query("SELECT 1");
  EXPECT_FALSE(done->HasError());
}

TEST_F(StreamingResult, ResultOutlivesItsConnection) {
  std::unique_ptr<QueryResult> r;
  {
    Connection other(db_);
    r = other.SendQuery("SELECT * FROM t");
    ASSERT_TRUE(r->FetchNext());
  }
  EXPECT_FALSE(r->FetchNext());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INVALID_INPUT);
  EXPECT_NE(r->GetError().find("connection was closed"), std::string::npos) << r->GetError();
  // The lock went with the stream: other connections can write.
  EXPECT_FALSE(con_.Query("INSERT INTO t VALUES (1, 'a', 1)")->HasError());

  // Moving a connection over one with an open stream ends that stream too.
  Connection a(db_);
  auto s = a.SendQuery("SELECT * FROM t");
  a = Connection(db_);
  EXPECT_FALSE(s->FetchNext());
  EXPECT_EQ(s->GetErrorKind(), ErrorKind::INVALID_INPUT);
}

TEST_F(StreamingResult, RandomAccessMaterializesFirst) {
  auto expected = con_.Query("SELECT * FROM t");
  auto r = con_.SendQuery("SELECT * FROM t");
  EXPECT_EQ(r->RowCount(), 5000u);
  EXPECT_FALSE(r->IsStreaming());
  EXPECT_EQ(r->ChunkCount(), expected->ChunkCount());
  EXPECT_EQ(r->GetValue(1, 4999).ToString(), expected->GetValue(1, 4999).ToString());
  EXPECT_EQ(r->ToString(), expected->ToString());
  EXPECT_EQ(FetchAllCells(*r), FetchAllCells(*expected));  // FetchChunk still starts at the first chunk

  // Fetched without keeping the chunks: the rows are gone, and it says so.
  auto dropped = con_.SendQuery("SELECT * FROM t");
  ASSERT_TRUE(dropped->FetchNext());
  EXPECT_THROW(dropped->RowCount(), std::logic_error);
  EXPECT_THROW(dropped->GetValue(0, 0), std::logic_error);

  // RetainFetched keeps them: random access covers every row.
  auto kept = con_.SendQuery("SELECT * FROM t");
  kept->RetainFetched(true);
  ASSERT_TRUE(kept->FetchNext());
  EXPECT_EQ(ColumnView(*kept, 0).Bigints()[0], 0);
  EXPECT_EQ(kept->RowCount(), 5000u);
  EXPECT_EQ(kept->ToString(), expected->ToString());
}

TEST_F(StreamingResult, OtherConnectionsWaitWhileTheStreamRuns) {
  auto r = con_.SendQuery("SELECT * FROM t");
  ASSERT_TRUE(r->FetchNext());
  std::atomic<bool> inserted{false};
  std::thread writer([&] {
    Connection other(db_);
    auto w = other.Query("INSERT INTO t VALUES (-5, 'w', 0)");
    EXPECT_FALSE(w->HasError()) << w->GetError();
    inserted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // The stream still runs on a stable table: the writer waits.
  EXPECT_FALSE(inserted.load());
  idx_t rows = ColumnView(*r, 0).RowCount();
  while (r->FetchNext()) rows += ColumnView(*r, 0).RowCount();
  EXPECT_EQ(rows, 5000u);
  writer.join();
  EXPECT_TRUE(inserted.load());
  EXPECT_EQ(con_.Query("SELECT count(*) FROM t")->GetValue(0, 0).ToString(), "5001");
}

TEST_F(StreamingResult, AnotherThreadMayFinishTheStream) {
  // Started here, fetched to the end on another thread: the statement lock
  // goes with the stream, whichever thread ends it.
  auto r = con_.SendQuery("SELECT * FROM t");
  ASSERT_TRUE(r->FetchNext());
  idx_t rows = ColumnView(*r, 0).RowCount();
  std::thread reader([&] {
    while (r->FetchNext()) rows += ColumnView(*r, 0).RowCount();
  });
  reader.join();
  EXPECT_EQ(rows, 5000u);
  Connection other(db_);
  EXPECT_FALSE(other.Query("INSERT INTO t VALUES (1, 'a', 1)")->HasError());
  // And destroyed on another thread while still open.
  auto open = con_.SendQuery("SELECT * FROM t");
  ASSERT_TRUE(open->FetchNext());
  std::thread([&] { open.reset(); }).join();
  EXPECT_FALSE(other.Query("INSERT INTO t VALUES (2, 'b', 2)")->HasError());
}

}  // namespace
}  // namespace lakestream
