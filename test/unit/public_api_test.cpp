// The public C++ API (include/lakestream/, docs/api.md): prepared statements
// and parameters, typed values, chunk-by-chunk results and Interrupt.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lakestream.hpp"
#include "query_test_util.hpp"

namespace lakestream {
namespace {

TEST(PublicApi, PreparedInsertAndSelectManyTimes) {
  Database db;
  Connection con(db);
  Ok(con, "CREATE TABLE t (id BIGINT, name VARCHAR)");
  auto insert = con.Prepare("INSERT INTO t VALUES ($1, $2)");
  ASSERT_FALSE(insert->HasError()) << insert->GetError();
  EXPECT_EQ(insert->ParameterCount(), 2u);
  for (int64_t i = 0; i < 20; i++) {
    auto r = insert->Execute({SqlValue::Bigint(i), SqlValue::Varchar("n" + std::to_string(i))});
    ASSERT_FALSE(r->HasError()) << r->GetError();
  }
  auto select = con.Prepare("SELECT name FROM t WHERE id = ?");
  EXPECT_EQ(select->ParameterCount(), 1u);
  for (int64_t i : {19, 0, 7}) {
    auto r = select->Execute({SqlValue::Bigint(i)});
    ASSERT_FALSE(r->HasError()) << r->GetError();
    ASSERT_EQ(r->RowCount(), 1u);
    EXPECT_EQ(r->GetValue(0, 0).GetString(), "n" + std::to_string(i));
  }
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM t")->GetValue(0, 0).AsBigint(), 20);
  // Connection::Query with parameters, the same value used twice through $1.
  auto r = Ok(con, "SELECT count(*) FROM t WHERE id >= $1 AND id < $1 + $2", {SqlValue::Bigint(5), SqlValue::Bigint(3)});
  EXPECT_EQ(r->GetValue(0, 0).AsBigint(), 3);
}

TEST(PublicApi, WrongParameterCountNamesTheParameter) {
  Database db;
  Connection con(db);
  auto select = con.Prepare("SELECT $1 + $2");
  auto missing = select->Execute({SqlValue::Integer(1)});
  ASSERT_TRUE(missing->HasError());
  EXPECT_EQ(missing->GetErrorKind(), ErrorKind::INVALID_INPUT);
  EXPECT_NE(missing->GetError().find("parameter $2 has no value"), std::string::npos) << missing->GetError();
  auto extra = select->Execute({SqlValue::Integer(1), SqlValue::Integer(2), SqlValue::Integer(3)});
  ASSERT_TRUE(extra->HasError());
  EXPECT_NE(extra->GetError().find("takes 2 parameters but 3"), std::string::npos) << extra->GetError();
  // Run without any values (plain Query): the same error, not a binder failure.
  auto none = con.Query("SELECT ?");
  ASSERT_TRUE(none->HasError());
  EXPECT_NE(none->GetError().find("parameter $1 has no value"), std::string::npos) << none->GetError();
  // Mixing the two styles is a parse error at the second style.
  auto mixed = con.Prepare("SELECT ?, $1");
  ASSERT_TRUE(mixed->HasError());
  EXPECT_NE(mixed->GetError().find("not several"), std::string::npos) << mixed->GetError();
  // A value of the wrong type fails as a conversion, naming the value.
  Ok(con, "CREATE TABLE n (v INTEGER)");
  auto bad = con.Query("INSERT INTO n VALUES (?)", {SqlValue::Varchar("abc")});
  ASSERT_TRUE(bad->HasError());
  EXPECT_NE(bad->GetError().find("abc"), std::string::npos) << bad->GetError();
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM n")->GetValue(0, 0).AsBigint(), 0);
  // A view stores its SQL text: parameters cannot stand in it.
  auto view = con.Query("CREATE MATERIALIZED VIEW mv AS SELECT * FROM n WHERE v > ?", {SqlValue::Integer(1)});
  ASSERT_TRUE(view->HasError());
  EXPECT_NE(view->GetError().find("stored as SQL text"), std::string::npos) << view->GetError();
}

TEST(PublicApi, TypedValues) {
  Database db;
  Connection con(db);
  auto r = Ok(con,
              "SELECT CAST(1234.5 AS DECIMAL(18,2)) AS d, DATE '2024-01-31' AS day, "
              "TIMESTAMP '2024-01-31 10:00:00' AS ts, CAST(NULL AS INTEGER) AS n, "
              "struct(1 AS a, struct('y' AS b) AS nest) AS s, 12345678901234567890123.5 AS wide");
  ASSERT_EQ(r->ColumnCount(), 6u);
  EXPECT_EQ(r->ColumnTypes()[0].ToString(), "DECIMAL(18,2)");
  EXPECT_EQ(r->ColumnTypes()[0].kind, TypeKind::DECIMAL);
  EXPECT_EQ(r->ColumnTypes()[0].scale, 2);
  SqlValue d = r->GetValue(0, 0);
  EXPECT_EQ(d.GetUnscaled(), 123450);
  EXPECT_EQ(d.ToString(), "1234.50");
  EXPECT_EQ(d.AsBigint(), 1234);
  EXPECT_DOUBLE_EQ(d.AsDouble(), 1234.5);
  EXPECT_THROW(d.GetString(), std::invalid_argument);
  EXPECT_EQ(r->GetValue(1, 0).Type().kind, TypeKind::DATE);
  EXPECT_EQ(r->GetValue(1, 0).GetDate(), SqlValue::DateFromString("2024-01-31").GetDate());
  EXPECT_EQ(r->GetValue(1, 0).ToString(), "2024-01-31");
  EXPECT_EQ(r->GetValue(2, 0).GetTimestamp(), 1706695200000000LL);
  EXPECT_TRUE(r->GetValue(3, 0).IsNull());
  EXPECT_EQ(r->ColumnTypes()[3].kind, TypeKind::INTEGER);
  SqlValue s = r->GetValue(4, 0);
  ASSERT_EQ(s.Type().kind, TypeKind::STRUCT);
  EXPECT_EQ(s.Type().child_names, (std::vector<std::string>{"a", "nest"}));
  ASSERT_EQ(s.Children().size(), 2u);
  EXPECT_EQ(s.Children()[0].GetInteger(), 1);
  EXPECT_EQ(s.Children()[1].Type().kind, TypeKind::STRUCT);
  EXPECT_EQ(s.Children()[1].Children()[0].GetString(), "y");
  EXPECT_EQ(s.ToString(), "{'a': 1, 'nest': {'b': 'y'}}");
  SqlValue wide = r->GetValue(5, 0);
  EXPECT_EQ(wide.ToString(), "12345678901234567890123.5");
  EXPECT_THROW(wide.GetUnscaled(), std::out_of_range);
  EXPECT_THROW(r->GetValue(6, 0), std::out_of_range);
  // Typed parameters round-trip, nested ones included.
  auto p = Ok(con, "SELECT $1, $2, $3",
              {SqlValue::DecimalFromString("-0.05", 4, 2), SqlValue::TimestampFromString("2024-01-31 10:00:00.5"),
               SqlValue::List({SqlValue::Bigint(1), SqlValue::Null(), SqlValue::Bigint(3)})});
  EXPECT_EQ(p->GetValue(0, 0).ToString(), "-0.05");
  EXPECT_EQ(p->ColumnTypes()[0].ToString(), "DECIMAL(4,2)");
  EXPECT_EQ(p->GetValue(1, 0).ToString(), "2024-01-31 10:00:00.5");
  EXPECT_EQ(p->GetValue(2, 0).ToString(), "[1, NULL, 3]");
  EXPECT_EQ(p->ColumnTypes()[2].ToString(), "BIGINT[]");
  EXPECT_TRUE(p->GetValue(2, 0).Children()[1].IsNull());
  EXPECT_EQ(p->GetValue(2, 0), SqlValue::List({SqlValue::Bigint(1), SqlValue::Null(), SqlValue::Bigint(3)}));
}

TEST(PublicApi, FetchChunkStreamsEveryRowOnce) {
  Database db;
  Connection con(db);
  auto r = Ok(con, "SELECT range AS i FROM range(100000)");
  ASSERT_EQ(r->RowCount(), 100000u);
  idx_t rows = 0, chunks = 0;
  int64_t sum = 0, expected_next = 0;
  bool in_order = true;
  while (auto chunk = r->FetchChunk()) {
    chunks++;
    EXPECT_LE(chunk->RowCount(), 2048u);
    ASSERT_EQ(chunk->ColumnCount(), 1u);
    for (idx_t i = 0; i < chunk->RowCount(); i++) {
      int64_t v = chunk->GetValue(0, i).GetBigint();
      in_order = in_order && v == expected_next++;
      sum += v;
    }
    rows += chunk->RowCount();
  }
  EXPECT_TRUE(in_order);
  EXPECT_EQ(rows, 100000u);
  EXPECT_GT(chunks, 1u);
  EXPECT_EQ(sum, 99999LL * 100000 / 2);
  EXPECT_EQ(r->FetchChunk(), nullptr);
}

TEST(PublicApi, InterruptStopsALongQueryAndCommitsNothing) {
  Database db;
  Connection con(db);
  Ok(con, "CREATE TABLE t (v BIGINT); INSERT INTO t VALUES (1), (2)");
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    // Keep asking until the statement is over: the first request may come
    // before the call starts, which clears it.
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      con.Interrupt();
    }
  });
  auto start = std::chrono::steady_clock::now();
  // Runs for minutes when not interrupted.
  auto r = con.Query("INSERT INTO t SELECT a.range * b.range FROM range(1000000) a CROSS JOIN range(1000000) b");
  done = true;
  interrupter.join();
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::INTERRUPTED) << r->GetError();
  EXPECT_NE(r->GetError().find("interrupted"), std::string::npos) << r->GetError();
  EXPECT_LT(seconds, 30);
  auto after = Ok(con, "SELECT count(*), sum(v) FROM t");
  EXPECT_EQ(after->GetValue(0, 0).AsBigint(), 2);
  EXPECT_EQ(after->GetValue(1, 0).AsBigint(), 3);
  // The next statement runs normally.
  EXPECT_EQ(Ok(con, "SELECT 42")->GetValue(0, 0).GetInteger(), 42);
}

TEST(PublicApi, SplitStatementsKeepsSemicolonsInStrings) {
  auto parts = SplitStatements("SELECT ';' AS a; ; -- c\nSELECT 2;");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], "SELECT ';' AS a");
  EXPECT_EQ(parts[1], "SELECT 2");
  EXPECT_THROW(SplitStatements("SELECT 'open"), std::invalid_argument);
  EXPECT_TRUE(IsCompleteStatement("SELECT 1;"));
  EXPECT_FALSE(IsCompleteStatement("SELECT ';'"));
}

}  // namespace
}  // namespace lakestream
