// Binding is pure: the binder names columns, checks types and shapes the plan,
// and reads no rows. A subquery used as a value is bound into a SUBQUERY node
// holding its plan, a stream read into a STREAM_GET node, stream_has_data()
// into a function call; all of them read when the plan runs. Checked by
// binding over tables whose data files are gone: binding succeeds, running
// fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "main/connection_access.hpp"
#include "lakestream.hpp"
#include "execution/plan_executor.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

class BinderReadsNoDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<Database>(dir_.path);
    con_ = std::make_unique<Connection>(*db_);
    Run("CREATE TABLE t (id INT, v INT)");
    Run("ALTER TABLE t SET PROPERTIES ('change_tracking' = 'true')");
    Run("CREATE STREAM s ON TABLE t");
    Run("INSERT INTO t VALUES (1, 10), (2, 20)");
  }

  void Run(const std::string& sql) {
    auto result = con_->Query(sql);
    ASSERT_FALSE(result->HasError()) << sql << "\n" << result->GetError();
  }

  BoundQuery Bind(const std::string& sql) {
    Binder binder(ConnectionAccess::Context(*con_));
    auto node = Parser::ParseQuery(sql);
    return binder.BindQuery(*node);
  }

  // Removes every data file of table t (its Delta log stays).
  void RemoveDataFiles() {
    int removed = 0;
    for (auto& entry : std::filesystem::recursive_directory_iterator(dir_.path)) {
      if (entry.path().extension() == ".parquet") {
        std::filesystem::remove(entry.path());
        removed++;
      }
    }
    ASSERT_GT(removed, 0) << "no data file found under " << dir_.path;
  }

  lakestream::testing::ScopedTempDir dir_{"lakestream_binder_reads"};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

bool PlanHas(const LogicalOperator& op, LogicalOperatorType type) {
  if (op.type == type) return true;
  for (auto& c : op.children) {
    if (PlanHas(*c, type)) return true;
  }
  return false;
}

// Finds the first expression of the plan (any operator, any list) satisfying `pred`.
const BoundExpression* FindExpression(const LogicalOperator& op, const std::function<bool(const BoundExpression&)>& pred) {
  std::function<const BoundExpression*(const BoundExpression&)> walk = [&](const BoundExpression& e) -> const BoundExpression* {
    if (pred(e)) return &e;
    for (auto& c : e.children) {
      if (auto* found = walk(*c)) return found;
    }
    return nullptr;
  };
  for (auto& e : op.expressions) {
    if (auto* found = walk(*e)) return found;
  }
  for (auto& c : op.children) {
    if (auto* found = FindExpression(*c, pred)) return found;
  }
  return nullptr;
}

TEST_F(BinderReadsNoDataTest, ScalarAndInSubqueriesAreBoundNotRun) {
  auto query = Bind("SELECT (SELECT max(id) FROM t) AS m, 2 IN (SELECT id FROM t) AS found");
  auto* scalar = FindExpression(*query.plan, [](const BoundExpression& e) {
    return e.type == BoundExpressionType::SUBQUERY && e.subquery_kind == SubqueryKind::SCALAR;
  });
  ASSERT_NE(scalar, nullptr);
  ASSERT_NE(scalar->subquery, nullptr);
  EXPECT_NE(scalar->subquery->plan, nullptr);
  EXPECT_EQ(scalar->subquery->rows, nullptr);  // not run
  EXPECT_TRUE(PlanHas(*scalar->subquery->plan, LogicalOperatorType::GET));
  // x IN (SELECT ...) is planned as a MARK join whose right side scans t when run.
  std::function<const LogicalOperator*(const LogicalOperator&)> find_mark = [&](const LogicalOperator& op) -> const LogicalOperator* {
    if (op.type == LogicalOperatorType::JOIN && op.join_type == LogicalJoinType::MARK) return &op;
    for (auto& c : op.children) {
      if (auto* found = find_mark(*c)) return found;
    }
    return nullptr;
  };
  const LogicalOperator* mark = find_mark(*query.plan);
  ASSERT_NE(mark, nullptr);
  ASSERT_NE(mark->mark_condition, nullptr);  // 2 = t.id
  EXPECT_TRUE(PlanHas(*mark->children[1], LogicalOperatorType::GET));

  auto result = con_->Query("SELECT (SELECT max(id) FROM t) AS m, 2 IN (SELECT id FROM t) AS found");
  ASSERT_FALSE(result->HasError()) << result->GetError();
  EXPECT_EQ(result->GetValue(0, 0).AsBigint(), 2);
  EXPECT_TRUE(result->GetValue(1, 0).GetBoolean());
}

TEST_F(BinderReadsNoDataTest, SubqueryOverMissingFilesBindsAndFailsWhenRun) {
  RemoveDataFiles();
  const std::string sql = "SELECT 1 AS one WHERE EXISTS (SELECT id FROM t WHERE v > 0)";
  BoundQuery query;
  ASSERT_NO_THROW(query = Bind(sql));
  EXPECT_NE(FindExpression(*query.plan, [](const BoundExpression& e) { return e.type == BoundExpressionType::SUBQUERY; }),
            nullptr);
  auto result = con_->Query(sql);
  EXPECT_TRUE(result->HasError());
}

TEST_F(BinderReadsNoDataTest, StreamIsNamedNotRead) {
  auto query = Bind("SELECT id, __change_type FROM s");
  ASSERT_TRUE(PlanHas(*query.plan, LogicalOperatorType::STREAM_GET));
  ASSERT_EQ(query.names.size(), 2U);
  EXPECT_EQ(query.names[1], "__change_type");
  EXPECT_EQ(query.types[1].id(), TypeId::VARCHAR);
  // Binding recorded no read, so nothing would be consumed.
  EXPECT_TRUE(ConnectionAccess::Context(*con_).StreamReads().empty());

  RemoveDataFiles();
  ASSERT_NO_THROW(Bind("SELECT id, __change_type FROM s"));
  auto result = con_->Query("SELECT id, __change_type FROM s");
  ASSERT_TRUE(result->HasError());
  EXPECT_NE(result->GetError().find("s"), std::string::npos) << result->GetError();
}

TEST_F(BinderReadsNoDataTest, StreamHasDataIsEvaluatedWhenRun) {
  auto query = Bind("SELECT stream_has_data('s') AS pending");
  auto* call = FindExpression(*query.plan, [](const BoundExpression& e) {
    return e.type == BoundExpressionType::FUNCTION && e.function.name == "stream_has_data";
  });
  ASSERT_NE(call, nullptr);
  EXPECT_FALSE(call->function.deterministic);

  auto before = con_->Query("SELECT stream_has_data('s')");
  ASSERT_FALSE(before->HasError()) << before->GetError();
  EXPECT_TRUE(before->GetValue(0, 0).GetBoolean());
  Run("CREATE TABLE sink_t (id INT, v INT)");
  Run("INSERT INTO sink_t SELECT id, v FROM s");
  auto after = con_->Query("SELECT SYSTEM$STREAM_HAS_DATA('live.s')");
  ASSERT_FALSE(after->HasError()) << after->GetError();
  EXPECT_FALSE(after->GetValue(0, 0).GetBoolean());
}

// A plan bound before a change and run after it sees the change: nothing was
// read or decided while binding.
TEST_F(BinderReadsNoDataTest, PlanBoundBeforeAChangeSeesItWhenRun) {
  auto subquery = Bind("SELECT (SELECT count(*) FROM t) AS n");
  auto stream = Bind("SELECT id FROM s");
  auto has_data = Bind("SELECT stream_has_data('s') AS pending");
  Run("INSERT INTO t VALUES (3, 30)");
  ChunkCollection n = ExecutePlan(ConnectionAccess::Context(*con_), std::move(subquery.plan));
  ASSERT_EQ(n.Count(), 1U);
  EXPECT_EQ(n.GetValue(0, 0).AsBigint(), 3);
  ChunkCollection rows = ExecutePlan(ConnectionAccess::Context(*con_), std::move(stream.plan));
  EXPECT_EQ(rows.Count(), 3U);

  Run("CREATE TABLE sink_t (id INT, v INT)");
  Run("INSERT INTO sink_t SELECT id, v FROM s");
  ChunkCollection pending = ExecutePlan(ConnectionAccess::Context(*con_), std::move(has_data.plan));
  ASSERT_EQ(pending.Count(), 1U);
  EXPECT_FALSE(pending.GetValue(0, 0).GetBoolean());
}

}  // namespace
}  // namespace lakestream
