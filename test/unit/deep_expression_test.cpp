// Deeply nested and very long SQL (issue 14): every shape either runs and
// gives the right answer or ends the statement with the typed "nested too
// deeply" error; none may end the process. Each shape is generated at sizes
// 10, 1,000 and 20,000, and 100,000 too with LAKESTREAM_LONG_TESTS=1 (it
// adds about a minute under the sanitizers). Flat shapes (AND/OR chains, IN
// lists, CTE lists, runs of signs) must work at every size; nesting shapes
// must work at small sizes and fail cleanly at the large ones.
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "common/exception.hpp"
#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "parser/parser.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

std::vector<int> Sizes() {
  std::vector<int> sizes = {10, 1000, 20000};
  if (std::getenv("LAKESTREAM_LONG_TESTS")) sizes.push_back(100000);
  return sizes;
}

std::string Repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * n);
  for (int i = 0; i < n; i++) out += s;
  return out;
}

// "prefix i0 sep i1 sep ... suffix" with each item made by `item(i)`.
std::string Join(int n, const std::function<std::string(int)>& item, const std::string& sep) {
  std::string out;
  for (int i = 0; i < n; i++) {
    if (i) out += sep;
    out += item(i);
  }
  return out;
}

struct Shape {
  const char* name;
  std::function<std::string(int)> sql;                // the statement for size n
  std::function<std::string(int)> expected;           // first value of the result for size n
  bool flat = false;                                  // must succeed at every size
  int moderate = 200;                                 // a size that must succeed
};

std::string Str(int v) { return std::to_string(v); }

std::vector<Shape> Shapes() {
  const std::string one_row = " FROM (VALUES (1), (2), (3)) t(x)";
  return {
      {"add", [](int n) { return "SELECT 1" + Repeat(" + 1", n - 1); }, [](int n) { return Str(n); }},
      {"subtract", [](int n) { return "SELECT 0" + Repeat(" - 1", n); }, [](int n) { return Str(-n); }},
      {"multiply", [](int n) { return "SELECT 1" + Repeat(" * 1", n); }, [](int) { return std::string("1"); }},
      {"modulo", [](int n) { return "SELECT 7" + Repeat(" % 5", n); }, [](int) { return std::string("2"); }},
      {"divide", [](int n) { return "SELECT 1.5" + Repeat(" / 1", n) + " = 1.5"; },
       [](int) { return std::string("true"); }},
      {"concat", [](int n) { return "SELECT length('a'" + Repeat(" || 'a'", n - 1) + ")"; },
       [](int n) { return Str(n); }},
      {"equals", [](int n) { return "SELECT 1 = 1" + Repeat(" = TRUE", n - 1); }, [](int) { return std::string("true"); }},
      {"less_than", [](int n) { return "SELECT 1 < 2" + Repeat(" <= TRUE", n - 1); },
       [](int) { return std::string("true"); }},
      {"is_not_null", [](int n) { return "SELECT 1" + Repeat(" IS NOT NULL", n); }, [](int) { return std::string("true"); }},
      // BETWEEN and CASE x WHEN repeat their operand: these chains double at
      // each link, so they stop at the size limit long before the depth one.
      {"between", [](int n) { return "SELECT TRUE" + Repeat(" BETWEEN FALSE AND TRUE", n); },
       [](int) { return std::string("true"); }, false, 12},
      {"simple_case", [](int n) { return "SELECT " + Repeat("CASE ", n) + "1" + Repeat(" WHEN 1 THEN 1 WHEN 2 THEN 2 END", n); },
       [](int) { return std::string("1"); }, false, 12},
      {"and_chain", [](int n) { return "SELECT TRUE" + Repeat(" AND TRUE", n - 1); }, [](int) { return std::string("true"); },
       true},
      {"or_chain",
       [one_row](int n) {
         return "SELECT count(*)" + one_row + " WHERE " + Join(n, [](int i) { return "x = " + Str(-i); }, " OR ");
       },
       [](int) { return std::string("0"); }, true},
      {"or_chain_hit",
       [one_row](int n) {
         return "SELECT count(*)" + one_row + " WHERE " + Join(n, [](int i) { return "x = " + Str(i + 2); }, " OR ");
       },
       [](int n) { return Str(n >= 2 ? 2 : n); }, true},
      {"in_list",
       [one_row](int n) { return "SELECT count(*)" + one_row + " WHERE x IN (" + Join(n, Str, ", ") + ")"; },
       [](int) { return std::string("3"); }, true},
      {"not_in_list",
       [one_row](int n) { return "SELECT count(*)" + one_row + " WHERE x NOT IN (" + Join(n, Str, ", ") + ")"; },
       [](int) { return std::string("0"); }, true},
      {"unary_minus_literal", [](int n) { return "SELECT " + Repeat("- ", n) + "1"; },
       [](int n) { return std::string(n % 2 ? "-1" : "1"); }, true},
      {"unary_minus_column", [one_row](int n) { return "SELECT max(" + Repeat("- ", n) + "x)" + one_row; },
       [](int n) { return std::string(n % 2 ? "-1" : "3"); }},
      {"unary_plus", [](int n) { return "SELECT " + Repeat("+ ", n) + "1"; }, [](int) { return std::string("1"); }, true},
      {"not_chain", [](int n) { return "SELECT " + Repeat("NOT ", n) + "TRUE"; },
       [](int n) { return std::string(n % 2 ? "false" : "true"); }},
      {"parentheses", [](int n) { return "SELECT " + Repeat("(", n) + "1" + Repeat(")", n); },
       [](int) { return std::string("1"); }, false, 100},
      {"nested_calls", [](int n) { return "SELECT " + Repeat("abs(", n) + "-1" + Repeat(")", n); },
       [](int) { return std::string("1"); }, false, 100},
      {"postfix_casts", [](int n) { return "SELECT 1" + Repeat("::INT", n); }, [](int) { return std::string("1"); }},
      {"cast_calls", [](int n) { return "SELECT " + Repeat("CAST(", n) + "1" + Repeat(" AS BIGINT)", n); },
       [](int) { return std::string("1"); }, false, 100},
      {"case", [](int n) { return "SELECT " + Repeat("CASE WHEN TRUE THEN ", n) + "1" + Repeat(" END", n); },
       [](int) { return std::string("1"); }, false, 100},
      {"scalar_subqueries", [](int n) { return "SELECT " + Repeat("(SELECT ", n) + "1" + Repeat(")", n); },
       [](int) { return std::string("1"); }, false, 100},
      {"in_subqueries", [](int n) { return "SELECT " + Repeat("TRUE IN (SELECT ", n) + "TRUE" + Repeat(")", n); },
       [](int) { return std::string("true"); }, false, 100},
      {"nested_in_lists", [](int n) { return "SELECT " + Repeat("TRUE IN (", n) + "TRUE" + Repeat(")", n); },
       [](int) { return std::string("true"); }, false, 100},
      {"nested_structs", [](int n) { return "SELECT " + Repeat("struct(", n) + "1" + Repeat(") IS NOT NULL", n); },
       [](int) { return std::string("true"); }, false, 100},
      {"where", [one_row](int n) { return "SELECT count(*)" + one_row + " WHERE x" + Repeat(" + 1", n) + " > 2 + " + Str(n); },
       [](int) { return std::string("1"); }},
      {"group_by",
       [one_row](int n) { return "SELECT count(*) FROM (SELECT 1" + one_row + " GROUP BY x" + Repeat(" * 1", n) + ") s"; },
       [](int) { return std::string("3"); }},
      {"order_by", [one_row](int n) { return "SELECT x" + one_row + " ORDER BY x" + Repeat(" * 1", n) + " DESC LIMIT 1"; },
       [](int) { return std::string("3"); }},
      {"having",
       [one_row](int n) {
         return "SELECT count(*)" + one_row + " GROUP BY x > 0 HAVING count(*)" + Repeat(" + 0", n) + " = 3";
       },
       [](int) { return std::string("3"); }},
      {"union_all",
       [](int n) { return "SELECT count(*) FROM (SELECT 1 AS x" + Repeat(" UNION ALL SELECT 1", n - 1) + ") s"; },
       [](int n) { return Str(n); }},
      {"joins",
       [](int n) {
         return "SELECT count(*) FROM (VALUES (1)) t0(c)" +
                Join(n, [](int i) { return " JOIN (VALUES (1)) t" + Str(i + 1) + "(c) ON TRUE"; }, "");
       },
       [](int) { return std::string("1"); }},
      {"parenthesised_joins",
       [](int n) {
         return "WITH v AS (SELECT 1 AS c) SELECT count(*) FROM " +
                Join(n, [](int i) { return "v a" + Str(i) + " CROSS JOIN ("; }, "") + "v z" + Repeat(")", n);
       },
       [](int) { return std::string("1"); }, false, 100},
      {"derived_tables",
       [](int n) { return "SELECT count(*) FROM " + Repeat("(SELECT * FROM ", n) + "(VALUES (1)) t(c)" + Repeat(") s", n); },
       [](int) { return std::string("1"); }, false, 100},
      {"cte_chain",
       [](int n) {
         return "WITH c0 AS (SELECT 1 AS x)" + Join(n, [](int i) { return ", c" + Str(i + 1) + " AS (SELECT x FROM c" + Str(i) + ")"; }, "") +
                " SELECT x FROM c" + Str(n);
       },
       [](int) { return std::string("1"); }, false, 100},
      {"cte_list",
       [](int n) {
         return "WITH " + Join(n, [](int i) { return "c" + Str(i) + " AS (SELECT " + Str(i) + " AS x)"; }, ", ") +
                " SELECT x FROM c" + Str(n - 1);
       },
       [](int n) { return Str(n - 1); }, true},
      {"values_rows",
       [](int n) { return "SELECT count(*) FROM (VALUES " + Join(n, [](int i) { return "(" + Str(i) + ")"; }, ", ") + ") t(x)"; },
       [](int n) { return Str(n); }, true},
  };
}

bool IsNestingError(const QueryResult& r) {
  const std::string& e = r.GetError();
  return r.HasError() &&
         (e.find("nested too deeply") != std::string::npos || e.find("statement is too large") != std::string::npos) &&
         (r.GetErrorType() == ExceptionType::PARSER || r.GetErrorType() == ExceptionType::BINDER ||
          r.GetErrorType() == ExceptionType::INVALID_INPUT);
}

// Runs `shape` at size n and checks the outcome; returns true when it ran.
bool Check(Connection& con, const Shape& shape, int n) {
  auto r = con.Query(shape.sql(n));
  SCOPED_TRACE(std::string(shape.name) + " at size " + std::to_string(n));
  if (!r->HasError()) {
    EXPECT_GE(r->RowCount(), 1u);
    if (r->RowCount() >= 1) {
      EXPECT_EQ(r->GetValue(0, 0).ToString(), shape.expected(n));
    }
    return true;
  }
  EXPECT_TRUE(IsNestingError(*r)) << r->GetError().substr(0, 400);
  return false;
}

TEST(DeepExpression, EveryShapeRunsOrFailsCleanly) {
  Database db;
  Connection con(db);
  for (const Shape& shape : Shapes()) {
    for (int n : Sizes()) {
      bool ran = Check(con, shape, n);
      // Small and moderate depths are ordinary SQL and must work; past the
      // limit only flat shapes may (and must) still work.
      if (n <= 10 || shape.flat) {
        EXPECT_TRUE(ran) << shape.name << " at size " << n;
      }
      if (n >= 20000 && !shape.flat) {
        EXPECT_FALSE(ran) << shape.name << " at size " << n;
      }
    }
    // The connection is still usable after the errors.
    auto ok = con.Query("SELECT 40 + 2");
    ASSERT_FALSE(ok->HasError()) << shape.name;
    EXPECT_EQ(ok->GetValue(0, 0).ToString(), "42");
  }
}

TEST(DeepExpression, ModerateDepthsWork) {
  // Generated SQL of a few hundred levels is legitimate and must run.
  Database db;
  Connection con(db);
  for (const Shape& shape : Shapes()) EXPECT_TRUE(Check(con, shape, shape.moderate)) << shape.name;
}

TEST(DeepExpression, ErrorNamesTheLimitAndTheFix) {
  Database db;
  Connection con(db);
  auto r = con.Query("SELECT 1" + Repeat(" + 1", 20000));
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorType(), ExceptionType::PARSER);
  const std::string& e = r->GetError();
  EXPECT_NE(e.find("nested too deeply (more than " + std::to_string(kMaxNestingDepth) + " levels"), std::string::npos) << e;
  EXPECT_NE(e.find("simplify"), std::string::npos) << e;
  // The caret context is one line, not the whole 80 KB statement.
  EXPECT_LT(e.size(), 2000u) << e.substr(0, 300);
}

TEST(DeepExpression, CteThatReadsItselfFailsCleanly) {
  Database db;
  Connection con(db);
  auto r = con.Query("WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a");
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorType(), ExceptionType::BINDER);
  EXPECT_NE(r->GetError().find("reads itself"), std::string::npos) << r->GetError();
  auto self = con.Query("WITH a AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM a) SELECT * FROM a");
  ASSERT_TRUE(self->HasError());
  EXPECT_NE(self->GetError().find("reads itself"), std::string::npos) << self->GetError();
}

TEST(DeepExpression, TablesViewsInsertAndMerge) {
  testing::ScopedTempDir dir("lakestream_deep");
  Database db(dir.path);
  Connection con(db);
  ASSERT_FALSE(con.Query("CREATE TABLE t (x BIGINT)")->HasError());
  for (int n : Sizes()) {
    SCOPED_TRACE("size " + std::to_string(n));
    std::string chain = "1" + Repeat(" + 1", n - 1);
    auto insert = con.Query("INSERT INTO t VALUES (" + chain + ")");
    if (!insert->HasError()) {
      auto r = con.Query("SELECT max(x) FROM t");
      EXPECT_EQ(r->GetValue(0, 0).ToString(), Str(n));
    } else {
      EXPECT_TRUE(IsNestingError(*insert)) << insert->GetError().substr(0, 300);
      EXPECT_GE(n, 1000);
    }
    auto view = con.Query("CREATE OR REPLACE MATERIALIZED VIEW mv AS SELECT max(x" + Repeat(" + 0", n) + ") AS m FROM t");
    if (!view->HasError()) {
      auto r = con.Query("SELECT m FROM mv");
      ASSERT_FALSE(r->HasError()) << r->GetError();
      EXPECT_EQ(r->RowCount(), 1u);
    } else {
      EXPECT_TRUE(IsNestingError(*view)) << view->GetError().substr(0, 300);
      EXPECT_GE(n, 1000);
    }
    auto merge = con.Query("MERGE INTO t USING (VALUES (1)) s(y) ON t.x = s.y" + Repeat(" + 0", n) +
                           " WHEN MATCHED THEN UPDATE SET x = s.y" + Repeat(" * 1", n));
    if (merge->HasError()) {
      EXPECT_TRUE(IsNestingError(*merge)) << merge->GetError().substr(0, 300);
      EXPECT_GE(n, 1000);
    }
    auto in_list = con.Query("SELECT count(*) FROM t WHERE x IN (" + Join(n, Str, ", ") + ")");
    ASSERT_FALSE(in_list->HasError()) << in_list->GetError().substr(0, 300);
  }
  // The table is intact after all the failed statements.
  auto count = con.Query("SELECT count(*) FROM t");
  ASSERT_FALSE(count->HasError()) << count->GetError();
}

// Statements may run on threads with stacks smaller than the main thread's
// (language bindings, thread pools): the stack check must stop them first.
TEST(DeepExpression, SmallThreadStack) {
  struct Job {
    std::vector<std::string> errors;
    int ran = 0;
  } job;
  auto body = [](void* arg) -> void* {
    auto* j = static_cast<Job*>(arg);
    Database db;
    Connection con(db);
    for (const Shape& shape : Shapes()) {
      for (int n : {300, 2000}) {
        auto r = con.Query(shape.sql(n));
        if (!r->HasError()) {
          j->ran++;
        } else if (!IsNestingError(*r)) {
          j->errors.push_back(std::string(shape.name) + ": " + r->GetError().substr(0, 200));
        }
      }
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);  // 1 MB
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, body, &job), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_TRUE(job.errors.empty()) << job.errors.front();
  EXPECT_GT(job.ran, 0);
}

}  // namespace
}  // namespace lakestream
