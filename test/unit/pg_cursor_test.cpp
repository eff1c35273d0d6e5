// The grammar of SQL cursors for `lakestream serve` (tools/cli/pg_cursor.hpp):
// what psycopg and psql send parses, names keep PostgreSQL's case rules, and
// every backward or scrolling form is refused as not supported yet.
#include <gtest/gtest.h>

#include <string>

#include "pg_cursor.hpp"
#include "pg_format.hpp"

namespace lakestream::pg {
namespace {

using Kind = CursorCommand::Kind;

CursorCommand Parse(const std::string& sql) {
  auto command = ParseCursorCommand(sql);
  EXPECT_TRUE(command.has_value()) << sql;
  return command.value_or(CursorCommand{});
}

std::string Refusal(const std::string& sql) {
  try {
    ParseCursorCommand(sql);
  } catch (SqlError& e) {
    return e.SqlState() + " " + e.what();
  }
  return "accepted";
}

TEST(PgCursorTest, DeclareAsPsycopgAndPsqlSendIt) {
  auto c = Parse("DECLARE \"my \"\"cur\"\"\" NO SCROLL CURSOR WITH HOLD FOR SELECT a FROM t WHERE b = $1");
  EXPECT_EQ(c.kind, Kind::DECLARE);
  EXPECT_EQ(c.name, "my \"cur\"");
  EXPECT_TRUE(c.hold);
  EXPECT_FALSE(c.binary);
  EXPECT_EQ(c.query, "SELECT a FROM t WHERE b = $1");
  c = Parse("declare _psql_cursor binary insensitive cursor without hold for\n  select 1");
  EXPECT_EQ(c.name, "_psql_cursor");
  EXPECT_TRUE(c.binary);
  EXPECT_FALSE(c.hold);
  EXPECT_EQ(c.query, "select 1");
  EXPECT_EQ(Parse("DECLARE Mixed CURSOR FOR SELECT 1").name, "mixed");  // unquoted names fold to lower case
}

TEST(PgCursorTest, FetchMoveAndCloseForms) {
  auto c = Parse("FETCH FORWARD 100 FROM \"c\"");
  EXPECT_EQ(c.kind, Kind::FETCH);
  EXPECT_EQ(c.count, 100);
  EXPECT_FALSE(c.all);
  EXPECT_EQ(c.name, "c");
  EXPECT_TRUE(Parse("FETCH ALL IN c").all);
  EXPECT_TRUE(Parse("FETCH FORWARD ALL FROM c").all);
  EXPECT_EQ(Parse("FETCH NEXT FROM c").count, 1);
  EXPECT_EQ(Parse("FETCH c").count, 1);
  EXPECT_EQ(Parse("FETCH FORWARD c").count, 1);
  EXPECT_EQ(Parse("FETCH 7 c;").count, 7);
  c = Parse("MOVE 10 FROM c");
  EXPECT_EQ(c.kind, Kind::MOVE);
  EXPECT_EQ(c.count, 10);
  c = Parse("CLOSE ALL");
  EXPECT_EQ(c.kind, Kind::CLOSE);
  EXPECT_TRUE(c.all);
  EXPECT_EQ(Parse("close \"All\"").name, "All");  // a quoted name is never the keyword
  EXPECT_FALSE(ParseCursorCommand("SELECT 1").has_value());
  EXPECT_FALSE(ParseCursorCommand("CLOSED_TABLE").has_value());
}

TEST(PgCursorTest, BackwardAndScrollAreNotSupportedYet) {
  for (const char* sql : {"DECLARE c SCROLL CURSOR FOR SELECT 1", "FETCH BACKWARD 2 FROM c", "FETCH PRIOR FROM c",
                          "FETCH FIRST FROM c", "FETCH LAST FROM c", "FETCH ABSOLUTE 1 FROM c",
                          "FETCH RELATIVE 1 FROM c", "FETCH -1 FROM c", "FETCH 0 FROM c", "MOVE BACKWARD ALL IN c"}) {
    std::string refusal = Refusal(sql);
    EXPECT_EQ(refusal.rfind("0A000 not supported yet: ", 0), 0u) << sql << ": " << refusal;
  }
}

TEST(PgCursorTest, MalformedCommandsAreSyntaxErrors) {
  for (const char* sql : {"DECLARE", "DECLARE c", "DECLARE c CURSOR", "DECLARE c CURSOR FOR",
                          "DECLARE c CURSOR WITH x FOR SELECT 1", "DECLARE c NO CURSOR FOR SELECT 1",
                          "DECLARE c FOO CURSOR FOR SELECT 1", "FETCH", "FETCH 1 2 c", "CLOSE", "CLOSE a b",
                          "DECLARE \"c CURSOR FOR SELECT 1"}) {
    std::string refusal = Refusal(sql);
    EXPECT_EQ(refusal.rfind("42601 ", 0), 0u) << sql << ": " << refusal;
  }
}

}  // namespace
}  // namespace lakestream::pg
