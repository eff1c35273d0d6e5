// Scalar functions registered by the application on a connection
// (Connection::CreateScalarFunction, docs/api.md): called per row, NULL
// handling, casts, errors that name the function, several threads at once.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lakestream.hpp"
#include "query_test_util.hpp"

namespace lakestream {
namespace {

Connection::ScalarFunction Doubler(std::atomic<int64_t>* calls = nullptr) {
  return [calls](const std::vector<SqlValue>& args) {
    if (calls) calls->fetch_add(1);
    return SqlValue::Bigint(args[0].GetBigint() * 2);
  };
}

TEST(UserFunction, CalledPerRowWithArgumentsCastToItsParameters) {
  Database db;
  Connection con(db);
  std::atomic<int64_t> calls{0};
  con.CreateScalarFunction("twice", std::vector<ColumnType>{TypeKind::BIGINT}, TypeKind::BIGINT, Doubler(&calls));
  Ok(con, "CREATE TABLE t (i INTEGER)");
  Ok(con, "INSERT INTO t VALUES (1), (2), (NULL), (40)");
  auto r = Ok(con, "SELECT TWICE(i) AS d FROM t ORDER BY i NULLS LAST");
  ASSERT_EQ(r->RowCount(), 4u);
  EXPECT_EQ(r->ColumnTypes()[0].kind, TypeKind::BIGINT);
  EXPECT_EQ(r->GetValue(0, 0).GetBigint(), 2);
  EXPECT_EQ(r->GetValue(0, 2).GetBigint(), 80);
  EXPECT_TRUE(r->GetValue(0, 3).IsNull());
  EXPECT_EQ(calls.load(), 3);  // not called for the NULL row
  // In WHERE and GROUP BY as any function.
  r = Ok(con, "SELECT count(*) FROM t WHERE twice(i) > 3");
  EXPECT_EQ(r->GetValue(0, 0).GetBigint(), 2);
}

TEST(UserFunction, HandlesNullsWhenAskedAndTakesAnyArgumentsWithoutParameterTypes) {
  Database db;
  Connection con(db);
  Connection::ScalarFunctionOptions options;
  options.handles_nulls = true;
  con.CreateScalarFunction(
      "describe_args", std::nullopt, TypeKind::VARCHAR,
      [](const std::vector<SqlValue>& args) {
        std::string out;
        for (auto& a : args) out += (a.IsNull() ? std::string("null") : a.Type().ToString()) + ";";
        return SqlValue::Varchar(out);
      },
      options);
  auto r = Ok(con, "SELECT describe_args(1, 'x', NULL, 2.5::DOUBLE)");
  EXPECT_EQ(r->GetValue(0, 0).GetString(), "INTEGER;VARCHAR;null;DOUBLE;");
}

TEST(UserFunction, ResultIsCastToTheReturnTypeOrTheErrorNamesTheFunction) {
  Database db;
  Connection con(db);
  con.CreateScalarFunction("as_text", std::vector<ColumnType>{TypeKind::BIGINT}, TypeKind::BIGINT,
                           [](const std::vector<SqlValue>& args) {
                             return SqlValue::Varchar(args[0].GetBigint() == 1 ? "7" : "seven");
                           });
  auto r = Ok(con, "SELECT as_text(1)");
  EXPECT_EQ(r->GetValue(0, 0).GetBigint(), 7);
  r = con.Query("SELECT as_text(2)");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("as_text"), std::string::npos) << r->GetError();
  EXPECT_NE(r->GetError().find("BIGINT"), std::string::npos) << r->GetError();
}

TEST(UserFunction, AnExceptionFailsTheStatementAndNothingIsWritten) {
  Database db;
  Connection con(db);
  con.CreateScalarFunction("picky", std::vector<ColumnType>{TypeKind::BIGINT}, TypeKind::BIGINT,
                           [](const std::vector<SqlValue>& args) {
                             if (args[0].GetBigint() == 3) throw std::runtime_error("three is not allowed");
                             return args[0];
                           });
  Ok(con, "CREATE TABLE src (i BIGINT)");
  Ok(con, "INSERT INTO src VALUES (1), (2), (3)");
  Ok(con, "CREATE TABLE dst (i BIGINT)");
  auto r = con.Query("INSERT INTO dst SELECT picky(i) FROM src");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("picky"), std::string::npos) << r->GetError();
  EXPECT_NE(r->GetError().find("three is not allowed"), std::string::npos) << r->GetError();
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM dst")->GetValue(0, 0).GetBigint(), 0);
}

TEST(UserFunction, WrongArgumentCountIsABinderErrorWithTheSignature) {
  Database db;
  Connection con(db);
  con.CreateScalarFunction("twice", std::vector<ColumnType>{TypeKind::BIGINT}, TypeKind::BIGINT, Doubler());
  auto r = con.Query("SELECT twice(1, 2)");
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::BINDER);
  EXPECT_NE(r->GetError().find("twice(BIGINT)"), std::string::npos) << r->GetError();
}

TEST(UserFunction, NamesOfBuiltinsAreRefusedAndFunctionsBelongToTheirConnection) {
  Database db;
  Connection con(db);
  Connection other(db);
  EXPECT_THROW(con.CreateScalarFunction("lower", std::nullopt, TypeKind::VARCHAR, Doubler()), std::invalid_argument);
  EXPECT_THROW(con.CreateScalarFunction("SUM", std::nullopt, TypeKind::BIGINT, Doubler()), std::invalid_argument);
  EXPECT_THROW(con.CreateScalarFunction("a b", std::nullopt, TypeKind::BIGINT, Doubler()), std::invalid_argument);
  EXPECT_THROW(con.CreateScalarFunction("f", std::nullopt, TypeKind::BIGINT, nullptr), std::invalid_argument);
  con.CreateScalarFunction("twice", std::vector<ColumnType>{TypeKind::BIGINT}, TypeKind::BIGINT, Doubler());
  EXPECT_TRUE(other.Query("SELECT twice(1)")->HasError());
  EXPECT_TRUE(con.RemoveScalarFunction("TWICE"));
  EXPECT_FALSE(con.RemoveScalarFunction("twice"));
  auto r = con.Query("SELECT twice(1)");
  ASSERT_TRUE(r->HasError());
  EXPECT_NE(r->GetError().find("twice"), std::string::npos);
}

TEST(UserFunction, NonDeterministicFunctionsAreNotFoldedToOneCall) {
  Database db;
  Connection con(db);
  std::atomic<int64_t> counter{0};
  Connection::ScalarFunctionOptions options;
  options.deterministic = false;
  con.CreateScalarFunction(
      "next_id", std::vector<ColumnType>{}, TypeKind::BIGINT,
      [&counter](const std::vector<SqlValue>&) { return SqlValue::Bigint(counter.fetch_add(1)); }, options);
  auto r = Ok(con, "SELECT count(DISTINCT next_id()) FROM range(100)");
  EXPECT_EQ(r->GetValue(0, 0).GetBigint(), 100);
}

TEST(UserFunction, ParallelQueriesCallItFromSeveralThreads) {
  Database db;
  Connection con(db);
  std::atomic<int64_t> calls{0};
  con.CreateScalarFunction("twice", std::vector<ColumnType>{TypeKind::BIGINT}, TypeKind::BIGINT, Doubler(&calls));
  Ok(con, "SET threads = 4");
  Ok(con, "CREATE TABLE big AS SELECT range AS i FROM range(300000)");
  auto r = Ok(con, "SELECT sum(twice(i)), count(*) FROM big GROUP BY i % 7 = 0 ORDER BY 2");
  int64_t total = 0;
  for (idx_t row = 0; row < r->RowCount(); row++) total += r->GetValue(0, row).GetBigint();
  EXPECT_EQ(total, 299999LL * 300000LL);  // 2 * sum(0 .. 299999)
  EXPECT_EQ(calls.load(), 300000);
}

TEST(UserFunction, ParseGivesTheTypeOfASqlSpellingAndRefusesTheRest) {
  EXPECT_EQ(ColumnType::Parse("bigint").kind, TypeKind::BIGINT);
  EXPECT_EQ(ColumnType::Parse("DECIMAL(18, 2)"), ColumnType::Decimal(18, 2));
  EXPECT_EQ(ColumnType::Parse("INT[]"), ColumnType::List(TypeKind::INTEGER));
  EXPECT_THROW(ColumnType::Parse("INT) + (1"), std::invalid_argument);
  EXPECT_THROW(ColumnType::Parse("not a type"), std::invalid_argument);
}

TEST(NamedParameters, NamesInOrderOfFirstUseOneValueEachAcrossTheText) {
  Database db;
  Connection con(db);
  Ok(con, "CREATE TABLE t (a BIGINT, b VARCHAR)");
  auto insert = con.Prepare("INSERT INTO t VALUES ($id, $Name); INSERT INTO t VALUES ($id + 1, $name || '!')");
  ASSERT_FALSE(insert->HasError()) << insert->GetError();
  EXPECT_EQ(insert->ParameterNames(), (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(insert->ParameterCount(), 2u);
  ASSERT_FALSE(insert->Execute({SqlValue::Bigint(7), SqlValue::Varchar("x")})->HasError());
  auto r = Ok(con, "SELECT a, b FROM t ORDER BY a");
  ASSERT_EQ(r->RowCount(), 2u);
  EXPECT_EQ(r->GetValue(1, 0).GetString(), "x");
  EXPECT_EQ(r->GetValue(0, 1).GetBigint(), 8);
  EXPECT_EQ(r->GetValue(1, 1).GetString(), "x!");
  // Positional forms keep no names.
  EXPECT_TRUE(con.Prepare("SELECT ?, $2")->HasError());
  EXPECT_TRUE(con.Prepare("SELECT $1, $2")->ParameterNames().empty());
}

TEST(NamedParameters, MixingKindsIsAParserErrorThatSaysSo) {
  Database db;
  Connection con(db);
  for (const char* sql : {"SELECT $a, ?", "SELECT $1, $a", "SELECT $a; SELECT ?", "SELECT ?; SELECT $a"}) {
    auto p = con.Prepare(sql);
    ASSERT_TRUE(p->HasError()) << sql;
    EXPECT_NE(p->GetError().find("one kind of parameters"), std::string::npos) << sql << ": " << p->GetError();
  }
  // A dollar inside an identifier is no parameter.
  Ok(con, "CREATE TABLE price$usd (v INT)");
  EXPECT_TRUE(con.Prepare("SELECT v FROM price$usd")->ParameterNames().empty());
}

}  // namespace
}  // namespace lakestream
