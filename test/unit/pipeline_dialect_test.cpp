// Databricks pipeline dialect (docs/pipelines.md, "Databricks dialect" and
// "Flows"): parser forms, flow ordering, parameter substitution and the
// delta.* table property check.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/delta_table_properties.hpp"
#include "common/exception.hpp"
#include "parser/ast.hpp"
#include "parser/expectations.hpp"
#include "parser/parser.hpp"
#include "pipeline/pipeline_graph.hpp"
#include "pipeline/pipeline_params.hpp"

namespace lakestream {
namespace {

std::unique_ptr<SQLStatement> ParseOne(const std::string& sql) {
  auto statements = Parser::Parse(sql);
  EXPECT_EQ(statements.size(), 1u);
  return std::move(statements[0]);
}

std::vector<std::string> Names(const std::vector<Flow>& flows) {
  std::vector<std::string> out;
  for (auto& f : flows) out.push_back(f.name);
  return out;
}

TEST(PipelineDialect, DoubleQuotedStringsWhereOnlyAStringStands) {
  auto statement = ParseOne(
      "CREATE OR REFRESH LIVE TABLE deal_gold1 TBLPROPERTIES (\"quality\" = \"gold\", \"delta.appendOnly\" = \"true\") "
      "COMMENT \"Gold Deals (Append-Only)\" AS SELECT \"id\" FROM t");
  auto& view = static_cast<CreateViewStatement&>(*statement);
  EXPECT_EQ(view.kind, ViewKind::LIVE_TABLE);
  EXPECT_EQ(view.comment, "Gold Deals (Append-Only)");
  ASSERT_EQ(view.properties.size(), 2u);
  EXPECT_EQ(view.properties[1], (std::pair<std::string, std::string>{"delta.appendOnly", "true"}));
  // In the query "id" stays a column.
  EXPECT_EQ(view.query->select_list[0]->type, ExpressionType::COLUMN_REF);

  auto files = ParseOne("SELECT * FROM STREAM read_files(\"landing/\", format => \"json\")");
  auto& from = *static_cast<SelectStatement&>(*files).node->from;
  EXPECT_EQ(from.type, TableRefType::TABLE_FUNCTION);
  EXPECT_TRUE(from.stream_function);
  for (auto& arg : from.function->children) EXPECT_EQ(arg->type, ExpressionType::CONSTANT);
}

TEST(PipelineDialect, CreateForms) {
  auto incremental = ParseOne("CREATE OR REFRESH INCREMENTAL LIVE TABLE t AS SELECT * FROM STREAM t0");
  EXPECT_EQ(static_cast<CreateViewStatement&>(*incremental).kind, ViewKind::STREAMING_TABLE);
  auto live_view = ParseOne("CREATE TEMPORARY LIVE VIEW v AS SELECT 1 AS a");
  EXPECT_EQ(static_cast<CreateViewStatement&>(*live_view).kind, ViewKind::VIEW);
  EXPECT_TRUE(static_cast<CreateViewStatement&>(*live_view).live_view);
  auto declared = ParseOne("CREATE STREAMING TABLE t (id BIGINT, CONSTRAINT pk PRIMARY KEY (id))");
  EXPECT_EQ(static_cast<CreateViewStatement&>(*declared).query, nullptr);
  EXPECT_EQ(static_cast<CreateViewStatement&>(*declared).primary_key, (std::vector<std::string>{"id"}));
  // Expectations parse into the statement, each condition as its text:
  // nested parentheses and ')' inside strings stay in the condition.
  auto expecting = ParseOne(
      "CREATE OR REFRESH STREAMING TABLE t (id BIGINT, CONSTRAINT valid_id EXPECT (id > 0 AND (id < 9)), "
      "CONSTRAINT \"odd name\" EXPECT (name <> ')') ON VIOLATION DROP ROW, "
      "CONSTRAINT c EXPECT (coalesce(id, 1) > 0) ON VIOLATION FAIL UPDATE) AS SELECT 1 AS id, 'x' AS name");
  const auto& expectations = static_cast<CreateViewStatement&>(*expecting).expectations;
  ASSERT_EQ(expectations.size(), 3u);
  EXPECT_EQ(expectations[0].name, "valid_id");
  EXPECT_EQ(expectations[0].condition, "id > 0 AND (id < 9)");
  EXPECT_EQ(expectations[0].action, ExpectationAction::WARN);
  EXPECT_EQ(expectations[1].name, "odd name");
  EXPECT_EQ(expectations[1].condition, "name <> ')'");
  EXPECT_EQ(expectations[1].action, ExpectationAction::DROP_ROW);
  EXPECT_EQ(expectations[2].condition, "coalesce(id, 1) > 0");
  EXPECT_EQ(expectations[2].action, ExpectationAction::FAIL_UPDATE);
  auto plain = ParseOne("CREATE MATERIALIZED VIEW v TBLPROPERTIES ('a' = 'b') AS SELECT 1 AS a");
  EXPECT_TRUE(static_cast<CreateViewStatement&>(*plain).expectations.empty());
  EXPECT_TRUE(static_cast<CreateViewStatement&>(*declared).expectations.empty());
  auto flow = ParseOne("CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(LIVE.s)");
  ASSERT_EQ(flow->type, StatementType::CREATE_FLOW);
  EXPECT_EQ(static_cast<CreateFlowStatement&>(*flow).target.ToString(), "t");
  // AUTO CDC is APPLY CHANGES under its newer name, with the flow's name kept.
  auto cdc = ParseOne("CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts");
  ASSERT_EQ(cdc->type, StatementType::APPLY_CHANGES);
  EXPECT_EQ(static_cast<ApplyChangesStatement&>(*cdc).flow_name, "f");
  EXPECT_THROW(Parser::Parse("CREATE FLOW f AS AUTO INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts"), ParserError);
}

TEST(PipelineDialect, ReadersOfAFlowTargetRunAfterEveryFlow) {
  auto flows = PlanPipeline(
      "CREATE OR REFRESH MATERIALIZED VIEW counts AS SELECT count(*) AS n FROM LIVE.all_events;\n"
      "CREATE FLOW b_flow AS INSERT INTO all_events BY NAME SELECT * FROM STREAM(LIVE.b);\n"
      "CREATE OR REFRESH STREAMING TABLE all_events;\n"
      "CREATE FLOW a_flow AS INSERT INTO all_events BY NAME SELECT * FROM STREAM a;\n"
      "CREATE OR REFRESH STREAMING TABLE b AS SELECT * FROM read_files('b/');\n",
      "p.sql");
  EXPECT_EQ(Names(flows), (std::vector<std::string>{"all_events", "b", "b_flow", "a_flow", "counts"}));
  EXPECT_EQ(flows[2].kind, FlowKind::FLOW);
  EXPECT_EQ(flows[2].target, "all_events");
}

TEST(PipelineDialect, ADeclarationWithoutQueryNeedsAFlow) {
  try {
    PlanPipeline("CREATE OR REFRESH STREAMING TABLE lonely;\n", "p.sql");
    FAIL() << "expected an error";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.sql line 1: streaming table lonely has no query and no flow writes into it"),
              std::string::npos)
        << e.what();
  }
}

TEST(PipelineDialect, LiveViewsAreReplacedEachPass) {
  auto flows = PlanPipeline("CREATE TEMPORARY LIVE VIEW v AS SELECT 1 AS a;\n", "p.sql");
  ASSERT_EQ(flows.size(), 1u);
  EXPECT_EQ(flows[0].kind, FlowKind::VIEW);
  EXPECT_EQ(flows[0].statements[0].rfind("CREATE OR REPLACE VIEW v AS", 0), 0u) << flows[0].statements[0];
}

TEST(PipelineDialect, ParametersAreSubstitutedBeforeParsing) {
  std::string sql =
      "SET min = 5;\n"
      "-- ${not_a_parameter} in a comment\n"
      "SELECT * FROM read_files('${dir}/x') WHERE a > ${min};\n";
  std::string out = SubstitutePipelineParameters(sql, {{"dir", "/data"}}, "p.sql");
  EXPECT_NE(out.find("read_files('/data/x') WHERE a > 5;"), std::string::npos) << out;
  EXPECT_EQ(out.find("SET"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), std::count(sql.begin(), sql.end(), '\n'));
  // The command line wins over SET.
  out = SubstitutePipelineParameters(sql, {{"dir", "d"}, {"min", "9"}}, "p.sql");
  EXPECT_NE(out.find("a > 9"), std::string::npos) << out;
  try {
    SubstitutePipelineParameters(sql, {}, "p.sql");
    FAIL() << "expected an error";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.sql line 3: the pipeline parameter ${dir} is not set; set it with --conf dir=VALUE"),
              std::string::npos)
        << e.what();
  }
}

TEST(PipelineDialect, DeltaPropertiesAreChecked) {
  EXPECT_EQ(CheckDeltaTableProperty("delta.enableChangeDataFeed", "true"), "");
  EXPECT_EQ(CheckDeltaTableProperty("DELTA.APPENDONLY", "FALSE"), "");
  EXPECT_EQ(CheckDeltaTableProperty("delta.feature.deletionVectors", "supported"), "");
  EXPECT_EQ(CheckDeltaTableProperty("quality", "gold"), "");
  EXPECT_NE(CheckDeltaTableProperty("delta.enableChangeDataCapture", "true").find("did you mean delta.enableChangeDataFeed?"),
            std::string::npos);
  EXPECT_NE(CheckDeltaTableProperty("delta.appendOnly", "yes").find("takes true or false, not 'yes'"), std::string::npos);
}

}  // namespace
}  // namespace lakestream
