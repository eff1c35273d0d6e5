// Pipeline planning (pipeline/pipeline_graph.hpp): dependency order, idempotent
// statements, cycles and non-declarations; read_files schema inference rules.
#include <gtest/gtest.h>

#include "common/exception.hpp"
#include "function/table/file_readers.hpp"
#include "pipeline/pipeline_graph.hpp"

namespace lakestream {
namespace {

std::vector<std::string> Names(const std::vector<Flow>& flows) {
  std::vector<std::string> out;
  for (auto& f : flows) out.push_back(f.name);
  return out;
}

TEST(PipelineGraph, SourcesRunBeforeTheirReaders) {
  auto flows = PlanPipeline(R"(
    CREATE SINK out FROM gold INTO FILE 'x.jsonl';
    CREATE OR REFRESH MATERIALIZED VIEW gold AS SELECT g, count(*) AS n FROM LIVE.silver GROUP BY g;
    CREATE OR REFRESH STREAMING TABLE silver AS SELECT * FROM STREAM(LIVE.bronze) WHERE id IN (SELECT id FROM ok);
    CREATE OR REFRESH STREAMING TABLE bronze AS SELECT * FROM read_files('landing/', format => 'json');
    CREATE TABLE ok (id INT);
  )", "p.sql");
  EXPECT_EQ(Names(flows), (std::vector<std::string>{"bronze", "ok", "silver", "gold", "out"}));
  EXPECT_EQ(flows[4].statements.size(), 2u);
  EXPECT_EQ(flows[4].statements[1], "RUN SINK out");
  EXPECT_EQ(flows[3].kind, FlowKind::MATERIALIZED_VIEW);
  EXPECT_EQ(flows[1].line, 6u);
}

TEST(PipelineGraph, DeclarationsAreMadeIdempotent) {
  auto flows = PlanPipeline(
      "CREATE STREAMING TABLE b AS SELECT * FROM read_files('x');\n"
      "CREATE SINK s FROM b INTO FILE 'o.jsonl';\n"
      "create table t (a int);\n",
      "p.sql");
  EXPECT_EQ(flows[0].statements[0].rfind("CREATE OR REFRESH STREAMING TABLE b", 0), 0u) << flows[0].statements[0];
  EXPECT_NE(flows[1].statements[0].find("CREATE SINK IF NOT EXISTS s"), std::string::npos) << flows[1].statements[0];
  EXPECT_NE(flows[2].statements[0].find("CREATE TABLE IF NOT EXISTS t"), std::string::npos) << flows[2].statements[0];
}

TEST(PipelineGraph, CycleIsAnErrorNamingIt) {
  try {
    PlanPipeline("CREATE OR REFRESH STREAMING TABLE a AS SELECT * FROM STREAM(c);\n"
                 "CREATE OR REFRESH STREAMING TABLE b AS SELECT * FROM STREAM(a);\n"
                 "CREATE OR REFRESH STREAMING TABLE c AS SELECT * FROM b JOIN a USING (id);\n",
                 "p.sql");
    FAIL() << "expected a cycle error";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("cycle: a -> c -> a"), std::string::npos) << e.what();
  }
}

// Issue 28: a flow that reads what it writes would append its own rows again
// on every run; refused at plan time, the cycle named flow by flow.
std::string CycleError(const std::string& sql) {
  try {
    PlanPipeline(sql, "p.sql");
  } catch (const InvalidInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PipelineGraph, FlowReadingItsOwnTargetIsACycle) {
  std::string e = CycleError(
      "CREATE OR REFRESH STREAMING TABLE t;\n"
      "CREATE FLOW again AS INSERT INTO t BY NAME SELECT * FROM STREAM(t);\n");
  EXPECT_NE(e.find("the pipeline has a cycle: t -> t (flow again (line 2) writes t from t)"), std::string::npos) << e;
  // A streaming table whose own query reads it.
  e = CycleError("CREATE OR REFRESH STREAMING TABLE s AS SELECT * FROM STREAM(s);\n");
  EXPECT_NE(e.find("cycle: s -> s (streaming table s (line 1) writes s from s)"), std::string::npos) << e;
  // Through a stream declared on the target.
  e = CycleError(
      "CREATE OR REFRESH STREAMING TABLE t;\n"
      "CREATE STREAM st ON TABLE t;\n"
      "CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM st;\n");
  EXPECT_NE(e.find("cycle: t -> st -> t"), std::string::npos) << e;
}

TEST(PipelineGraph, CycleThroughTwoFlowsIsNamed) {
  // Neither flow reads the other, but t's rows go to u and u's back to t.
  std::string e = CycleError(
      "CREATE OR REFRESH STREAMING TABLE t;\n"
      "CREATE OR REFRESH STREAMING TABLE u;\n"
      "CREATE FLOW t_from_u AS INSERT INTO t BY NAME SELECT * FROM STREAM(u);\n"
      "CREATE FLOW u_from_t AS INSERT INTO u BY NAME SELECT * FROM STREAM(t);\n");
  EXPECT_NE(e.find("cycle: t -> u -> t (flow t_from_u (line 3) writes t from u; flow u_from_t (line 4) writes u from t)"),
            std::string::npos)
      << e;
  // Two flows into one table from another source are no cycle.
  auto flows = PlanPipeline(
      "CREATE OR REFRESH STREAMING TABLE t;\n"
      "CREATE FLOW a AS INSERT INTO t BY NAME SELECT * FROM STREAM(src);\n"
      "CREATE FLOW b AS INSERT INTO t BY NAME SELECT * FROM STREAM(src);\n"
      "CREATE MATERIALIZED VIEW m AS SELECT COUNT(*) AS n FROM t;\n",
      "p.sql");
  EXPECT_EQ(Names(flows), (std::vector<std::string>{"t", "a", "b", "m"}));
}

TEST(PipelineGraph, RefusesStatementsThatAreNotDeclarations) {
  try {
    PlanPipeline("CREATE TABLE t (a INT);\nINSERT INTO t VALUES (1);", "p.sql");
    FAIL() << "expected an error";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.sql line 2: a pipeline holds declarations only"), std::string::npos) << e.what();
  }
  EXPECT_THROW(PlanPipeline("CREATE TABLE t (a INT); CREATE TABLE T (b INT);", "p.sql"), InvalidInputError);
}

TEST(ReadFilesInference, TypesWidenAsDocumented) {
  EXPECT_EQ(MergeInferredTypes(TypeId::SQLNULL, TypeId::BIGINT), LogicalType(TypeId::BIGINT));
  EXPECT_EQ(MergeInferredTypes(TypeId::BIGINT, TypeId::DOUBLE), LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(MergeInferredTypes(TypeId::DATE, TypeId::TIMESTAMP), LogicalType(TypeId::TIMESTAMP));
  EXPECT_EQ(MergeInferredTypes(TypeId::BOOLEAN, TypeId::BIGINT), LogicalType(TypeId::VARCHAR));
  SchemaInference inference;
  inference.Observe("b", TypeId::SQLNULL);
  inference.Observe("a", TypeId::BIGINT);
  inference.Observe("B", TypeId::DOUBLE);
  FileSchema schema = inference.Finish(true);
  ASSERT_EQ(schema.size(), 2u);
  EXPECT_EQ(schema.names[0], "b");
  EXPECT_EQ(schema.types[0], LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(inference.Finish(false).types[1], LogicalType(TypeId::VARCHAR));
}

}  // namespace
}  // namespace lakestream
