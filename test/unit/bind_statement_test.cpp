// The planner's statement binders (planner/bound_statement.hpp): each DML
// statement kind binds to its target, its column mapping and a plan, decides
// its name and type errors, and reads no rows. The source table's data files
// are deleted before binding: binding still succeeds, running the plan fails.
#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "execution/plan_executor.hpp"
#include "lakestream.hpp"
#include "main/connection_access.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "planner/bound_statement.hpp"
#include "temp_dir_util.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;

class BindStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Run("CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR DEFAULT 'dflt', c DOUBLE)");
    Run("CREATE TABLE src (x INTEGER, y VARCHAR)");
    Run("INSERT INTO src VALUES (1, 'p'), (2, 'q')");
    Run("INSERT INTO t VALUES (1, 'one', 1.5)");
    Run("COPY (SELECT 7 AS a, 'seven' AS b, 7.5 AS c) TO '" + ParquetPath() + "'");
  }

  void Run(const std::string& sql) {
    auto result = conn_.Query(sql);
    ASSERT_FALSE(result->HasError()) << sql << ": " << result->GetError();
  }

  int64_t CountRows(const std::string& table) {
    auto result = conn_.Query("SELECT count(*) FROM " + table);
    EXPECT_FALSE(result->HasError()) << result->GetError();
    return result->GetValue(0, 0).AsBigint();
  }

  std::string ParquetPath() const { return dir_.path + "/seven.parquet"; }

  // Deletes the data files of table `name`: its log (and so its schema and
  // file list) stays, its rows are gone.
  void DeleteDataFiles(const std::string& name) {
    int removed = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir_.path + "/db/" + name)) {
      if (entry.path().extension() == ".parquet" && entry.path().string().find("_delta_log") == std::string::npos) {
        fs::remove(entry.path());
        removed++;
      }
    }
    ASSERT_GT(removed, 0) << "no data file found for " << name;
  }

  template <class T>
  std::unique_ptr<T> Parse(const std::string& sql) {
    auto statements = Parser::Parse(sql);
    EXPECT_EQ(statements.size(), 1U);
    return std::unique_ptr<T>(static_cast<T*>(statements[0].release()));
  }

  ClientContext& Context() { return ConnectionAccess::Context(conn_); }
  TableCatalogEntry* Table(const std::string& name) { return &Context().GetCatalog().GetTable(name); }

  testing::ScopedTempDir dir_{"bind_statement"};
  Database db_{dir_.path + "/db"};
  Connection conn_{db_};
};

TEST_F(BindStatementTest, InsertMapsNamedColumnsAndReadsNoRows) {
  DeleteDataFiles("src");
  auto stmt = Parse<InsertStatement>("INSERT INTO t (c, a) SELECT x, x FROM src");
  Binder binder(Context());
  BoundInsert bound = BindInsert(binder, *stmt);
  EXPECT_EQ(bound.table, Table("t"));
  EXPECT_FALSE(bound.overwrite);
  EXPECT_EQ(bound.source_of, (std::vector<int64_t>{1, -1, 0}));  // a <- 2nd, b default, c <- 1st
  ASSERT_NE(bound.plan, nullptr);
  EXPECT_EQ(bound.plan->type, LogicalOperatorType::PROJECTION);
  EXPECT_EQ(bound.plan->GetTypes(), Table("t")->Types());  // cast to the columns' types
  // The plan is where the rows come from: running it reads the deleted files.
  EXPECT_THROW(ExecutePlan(Context(), std::move(bound.plan)), IOError);
  EXPECT_EQ(CountRows("t"), 1);
}

TEST_F(BindStatementTest, InsertErrorsComeFromBindingAlone) {
  DeleteDataFiles("src");
  Binder binder(Context());
  auto count = Parse<InsertStatement>("INSERT INTO t SELECT x FROM src");
  EXPECT_THROW(BindInsert(binder, *count), BinderError);
  auto twice = Parse<InsertStatement>("INSERT INTO t (a, a) SELECT x, x FROM src");
  EXPECT_THROW(BindInsert(binder, *twice), BinderError);
  auto missing = Parse<InsertStatement>("INSERT INTO t (a, nope) SELECT x, x FROM src");
  EXPECT_THROW(BindInsert(binder, *missing), BinderError);
  auto no_table = Parse<InsertStatement>("INSERT INTO nowhere SELECT x FROM src");
  EXPECT_THROW(BindInsert(binder, *no_table), CatalogError);
}

TEST_F(BindStatementTest, InsertDefaultKeywordBecomesTheColumnDefault) {
  auto stmt = Parse<InsertStatement>("INSERT INTO t VALUES (5, DEFAULT, NULL)");
  Binder binder(Context());
  BoundInsert bound = BindInsert(binder, *stmt);
  EXPECT_EQ(bound.source_of, (std::vector<int64_t>{0, 1, 2}));
  ASSERT_EQ(stmt->query->values[0][1]->type, ExpressionType::CONSTANT);
  EXPECT_EQ(stmt->query->values[0][1]->value.ToString(), "dflt");
}

TEST_F(BindStatementTest, UpdateBindsSetListOverTheTargetScan) {
  DeleteDataFiles("t");
  auto stmt = Parse<UpdateStatement>("UPDATE t AS u SET u.c = a WHERE a > 0");
  Binder binder(Context());
  BoundUpdate bound = BindUpdate(binder, *stmt);
  EXPECT_EQ(bound.table, Table("t"));
  EXPECT_EQ(bound.assigned, (std::vector<bool>{false, false, true}));
  ASSERT_NE(bound.plan, nullptr);
  std::vector<LogicalType> types = Table("t")->Types();
  types.emplace_back(TypeId::BIGINT);  // the row id
  EXPECT_EQ(bound.plan->GetTypes(), types);
  EXPECT_THROW(ExecutePlan(Context(), std::move(bound.plan)), IOError);

  Binder again(Context());
  auto wrong_alias = Parse<UpdateStatement>("UPDATE t AS u SET t.c = 1");
  EXPECT_THROW(BindUpdate(again, *wrong_alias), BinderError);
  auto not_boolean = Parse<UpdateStatement>("UPDATE t SET c = 1 WHERE a + 1");
  EXPECT_THROW(BindUpdate(again, *not_boolean), BinderError);
}

TEST_F(BindStatementTest, DeleteBindsRowIdsAndTruncateBindsNoPlan) {
  DeleteDataFiles("t");
  auto stmt = Parse<DeleteStatement>("DELETE FROM t WHERE b = 'one'");
  Binder binder(Context());
  BoundDelete bound = BindDelete(binder, *stmt);
  EXPECT_EQ(bound.table, Table("t"));
  EXPECT_FALSE(bound.truncate);
  ASSERT_NE(bound.plan, nullptr);
  EXPECT_EQ(bound.plan->GetTypes(), (std::vector<LogicalType>{TypeId::BIGINT}));
  EXPECT_THROW(ExecutePlan(Context(), std::move(bound.plan)), IOError);

  auto truncate = Parse<DeleteStatement>("TRUNCATE TABLE t");
  BoundDelete bound_truncate = BindDelete(binder, *truncate);
  EXPECT_TRUE(bound_truncate.truncate);
  EXPECT_EQ(bound_truncate.plan, nullptr);
}

TEST_F(BindStatementTest, MergeLaysOutEachClauseInThePlanRow) {
  DeleteDataFiles("src");
  DeleteDataFiles("t");
  auto stmt = Parse<MergeStatement>(
      "MERGE INTO t USING src s ON t.a = s.x "
      "WHEN MATCHED AND s.y = 'del' THEN DELETE "
      "WHEN MATCHED THEN UPDATE SET b = s.y "
      "WHEN NOT MATCHED THEN INSERT (a, c) VALUES (s.x, s.x)");
  Binder binder(Context());
  BoundMerge bound = BindMerge(binder, *stmt);
  EXPECT_EQ(bound.table, Table("t"));
  ASSERT_EQ(bound.clauses.size(), 3U);
  EXPECT_EQ(bound.clauses[0].action, MergeAction::DELETE);
  EXPECT_EQ(bound.clauses[1].action, MergeAction::UPDATE);
  EXPECT_EQ(bound.clauses[2].match, MergeMatch::NOT_MATCHED);
  // Row layout: row id | DELETE cond | UPDATE cond, 3 values | INSERT cond, 3 values.
  EXPECT_EQ(bound.clauses[0].condition_column, 1U);
  EXPECT_EQ(bound.clauses[1].condition_column, 2U);
  EXPECT_EQ(bound.clauses[1].first_value_column, 3U);
  EXPECT_EQ(bound.clauses[2].condition_column, 6U);
  EXPECT_EQ(bound.clauses[2].first_value_column, 7U);
  ASSERT_NE(bound.plan, nullptr);
  std::vector<LogicalType> types = bound.plan->GetTypes();
  ASSERT_EQ(types.size(), 10U);
  EXPECT_EQ(types[0], LogicalType(TypeId::BIGINT));
  std::vector<LogicalType> table_types = Table("t")->Types();
  for (idx_t i = 0; i < table_types.size(); i++) {
    EXPECT_EQ(types[3 + i], table_types[i]);
    EXPECT_EQ(types[7 + i], table_types[i]);
  }
  EXPECT_THROW(ExecutePlan(Context(), std::move(bound.plan)), IOError);

  Binder again(Context());
  auto insert_count = Parse<MergeStatement>(
      "MERGE INTO t USING src s ON t.a = s.x WHEN NOT MATCHED THEN INSERT (a) VALUES (s.x, s.y)");
  EXPECT_THROW(BindMerge(again, *insert_count), BinderError);
  auto target_in_insert = Parse<MergeStatement>(
      "MERGE INTO t USING src s ON t.a = s.x WHEN NOT MATCHED THEN INSERT (a) VALUES (t.a)");
  EXPECT_THROW(BindMerge(again, *target_in_insert), BinderError);
  auto star = Parse<MergeStatement>("MERGE INTO t USING src s ON t.a = s.x WHEN NOT MATCHED THEN INSERT *");
  EXPECT_THROW(BindMerge(again, *star), BinderError);  // src has no column a
}

TEST_F(BindStatementTest, CopyToBindsOptionsAndColumnsCopyFromBindsAnInsert) {
  DeleteDataFiles("src");
  auto to = Parse<CopyStatement>("COPY (SELECT x, NULL AS n FROM src) TO '" + dir_.path +
                                 "/out.parquet' (COMPRESSION snappy, ROW_GROUP_SIZE 10)");
  Binder binder(Context());
  BoundCopy bound = BindCopy(binder, *to);
  EXPECT_FALSE(bound.is_from);
  EXPECT_EQ(bound.options.codec, ParquetCodec::kSnappy);
  EXPECT_EQ(bound.options.row_group_rows, 10U);
  EXPECT_EQ(bound.names, (std::vector<std::string>{"x", "n"}));
  EXPECT_EQ(bound.types, (std::vector<LogicalType>{TypeId::INTEGER, TypeId::INTEGER}));  // untyped NULL written as INTEGER
  ASSERT_NE(bound.plan, nullptr);
  EXPECT_THROW(ExecutePlan(Context(), std::move(bound.plan)), IOError);
  EXPECT_FALSE(fs::exists(dir_.path + "/out.parquet"));

  auto bad_option = Parse<CopyStatement>("COPY src TO '" + dir_.path + "/bad.parquet' (ROW_GROUP_SIZE 0)");
  EXPECT_THROW(BindCopy(binder, *bad_option), InvalidInputError);

  auto from = Parse<CopyStatement>("COPY t FROM '" + ParquetPath() + "'");
  BoundCopy bound_from = BindCopy(binder, *from);
  EXPECT_TRUE(bound_from.is_from);
  EXPECT_EQ(bound_from.insert.table, Table("t"));
  EXPECT_EQ(bound_from.insert.source_of, (std::vector<int64_t>{0, 1, 2}));
  ASSERT_NE(bound_from.insert.plan, nullptr);
  EXPECT_EQ(CountRows("t"), 1);  // bound, not run
}

}  // namespace
}  // namespace lakestream
