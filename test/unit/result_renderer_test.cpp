// Unit tests for the shell's result renderer (tools/cli/result_renderer.cpp).
// Results are built by hand, so these run without the SQL engine.
//
// Needs tools/cli on the include path and tools/cli/result_renderer.cpp linked
// into the test binary. Until the build provides both, the file compiles to
// nothing rather than breaking the whole unit-test target.
#if __has_include("result_renderer.hpp")
#include "result_renderer.hpp"

#include "common/vector.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace lakestream {
namespace {

// One chunk holding `rows` (each a row of values matching `types`).
std::unique_ptr<QueryResult> MakeResult(std::vector<std::string> names, std::vector<LogicalType> types,
                                        const std::vector<std::vector<Value>>& rows) {
  auto result = std::make_unique<QueryResult>(names, types);
  for (size_t start = 0; start < rows.size(); start += STANDARD_VECTOR_SIZE) {
    auto chunk = std::make_unique<DataChunk>();
    chunk->Initialize(types);
    size_t n = std::min<size_t>(STANDARD_VECTOR_SIZE, rows.size() - start);
    for (size_t r = 0; r < n; r++) {
      for (size_t c = 0; c < types.size(); c++) chunk->SetValue(c, r, rows[start + r][c]);
    }
    chunk->SetCardinality(n);
    result->Append(std::move(chunk));
  }
  return result;
}

std::unique_ptr<QueryResult> OneX() {
  return MakeResult({"a", "b"}, {TypeId::INTEGER, TypeId::VARCHAR}, {{Value::INTEGER(1), Value("x")}});
}

std::string Render(const QueryResult& r, RenderMode mode, uint64_t width = 120, uint64_t max_rows = 40) {
  std::ostringstream out;
  RenderResult(r, RenderOptions{mode, width, max_rows}, out);
  return out.str();
}

TEST(ResultRenderer, CsvSimple) { EXPECT_EQ(Render(*OneX(), RenderMode::CSV), "a,b\n1,x\n"); }

TEST(ResultRenderer, CsvQuotingAndNull) {
  auto r = MakeResult({"s", "n"}, {TypeId::VARCHAR, TypeId::INTEGER},
                      {{Value("a,b"), Value(LogicalType(TypeId::INTEGER))},
                       {Value("say \"hi\""), Value::INTEGER(2)},
                       {Value("line1\nline2"), Value::INTEGER(3)},
                       {Value(""), Value::INTEGER(4)}});
  EXPECT_EQ(Render(*r, RenderMode::CSV), "s,n\n\"a,b\",\n\"say \"\"hi\"\"\",2\n\"line1\nline2\",3\n\"\",4\n");
}

TEST(ResultRenderer, JsonSimple) {
  EXPECT_EQ(Render(*OneX(), RenderMode::JSON), "[{\"a\":1,\"b\":\"x\"}]\n");
  auto r = MakeResult({"a", "b"}, {TypeId::INTEGER, TypeId::VARCHAR},
                      {{Value::INTEGER(1), Value("x")}, {Value(LogicalType(TypeId::INTEGER)), Value("q\"")}});
  EXPECT_EQ(Render(*r, RenderMode::JSON), "[{\"a\":1,\"b\":\"x\"},\n{\"a\":null,\"b\":\"q\\\"\"}]\n");
  auto empty = MakeResult({"a"}, {TypeId::INTEGER}, {});
  EXPECT_EQ(Render(*empty, RenderMode::JSON), "[]\n");
}

TEST(ResultRenderer, Line) {
  EXPECT_EQ(Render(*OneX(), RenderMode::LINE), "a = 1\nb = x\n");
  auto r = MakeResult({"id", "name"}, {TypeId::INTEGER, TypeId::VARCHAR},
                      {{Value::INTEGER(1), Value("x")}, {Value::INTEGER(2), Value(LogicalType(TypeId::VARCHAR))}});
  EXPECT_EQ(Render(*r, RenderMode::LINE), "  id = 1\nname = x\n\n  id = 2\nname = NULL\n");
}

TEST(ResultRenderer, NoColumnsRendersNothing) {
  QueryResult r({}, {});
  for (auto mode : {RenderMode::BOX, RenderMode::CSV, RenderMode::JSON, RenderMode::LINE}) {
    EXPECT_EQ(Render(r, mode), "");
  }
}

TEST(ResultRenderer, BoxSimple) {
  EXPECT_EQ(Render(*OneX(), RenderMode::BOX),
            "┌─────────┬─────────┐\n"
            "│    a    │    b    │\n"
            "│ integer │ varchar │\n"
            "├─────────┼─────────┤\n"
            "│       1 │ x       │\n"
            "├─────────┴─────────┤\n"
            "│ 1 row             │\n"
            "└───────────────────┘\n");
}

// EXPLAIN's one cell is the plan's tree: printed as its lines, not as one
// escaped row of a table; any other one-cell text result stays a table.
TEST(ResultRenderer, BoxPrintsPlansAsTrees) {
  std::string tree = "HASH_GROUP_BY [count_star()]\n└─ TABLE_SCAN [t]\n";
  auto plan = MakeResult({"physical_plan"}, {TypeId::VARCHAR}, {{Value(tree)}});
  EXPECT_EQ(Render(*plan, RenderMode::BOX), tree);
  auto analyzed = MakeResult({"analyzed_plan"}, {TypeId::VARCHAR}, {{Value("total: 0.001s\nTABLE_SCAN [t]  rows=3")}});
  EXPECT_EQ(Render(*analyzed, RenderMode::BOX), "total: 0.001s\nTABLE_SCAN [t]  rows=3\n");
  auto other = MakeResult({"note"}, {TypeId::VARCHAR}, {{Value(tree)}});
  EXPECT_NE(Render(*other, RenderMode::BOX).find("\\n"), std::string::npos);
}

TEST(ResultRenderer, BoxNullDecimalAndEscapes) {
  auto r = MakeResult({"price", "note"}, {LogicalType::Decimal(10, 2), TypeId::VARCHAR},
                      {{Value::DECIMAL(150000, 10, 2), Value("a\nb")},
                       {Value(LogicalType::Decimal(10, 2)), Value(LogicalType(TypeId::VARCHAR))}});
  std::string s = Render(*r, RenderMode::BOX);
  EXPECT_NE(s.find("│       1500.00 │ a\\nb    │"), std::string::npos) << s;
  EXPECT_NE(s.find("│          NULL │ NULL    │"), std::string::npos) << s;
  EXPECT_NE(s.find("│ 2 rows"), std::string::npos) << s;
}

TEST(ResultRenderer, BoxTruncatesLongValuesToWidth) {
  std::string long_text(300, 'y');
  auto r = MakeResult({"id", "text"}, {TypeId::INTEGER, TypeId::VARCHAR}, {{Value::INTEGER(7), Value(long_text)}});
  std::string s = Render(*r, RenderMode::BOX, 60);
  std::istringstream lines(s);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(DisplayWidth(line), 60u) << line;
  EXPECT_NE(s.find("y…"), std::string::npos) << s;
}

TEST(ResultRenderer, BoxHidesMiddleColumnsWhenNarrow) {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<Value> row;
  for (int i = 0; i < 30; i++) {
    names.push_back("column_number_" + std::to_string(i));
    types.push_back(TypeId::BIGINT);
    row.push_back(Value::BIGINT(i));
  }
  auto r = MakeResult(names, types, {row});
  std::string s = Render(*r, RenderMode::BOX, 80);
  std::istringstream lines(s);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(DisplayWidth(line), 80u) << line;
  EXPECT_NE(s.find("column_number_0"), std::string::npos) << s;
  EXPECT_NE(s.find("column_number_29"), std::string::npos) << s;
  EXPECT_NE(s.find("30 columns ("), std::string::npos) << s;
  EXPECT_NE(s.find("│ … │"), std::string::npos) << s;
}

TEST(ResultRenderer, BoxShowsHeadAndTailOfLongResults) {
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 5000; i++) rows.push_back({Value::BIGINT(i)});
  auto r = MakeResult({"i"}, {TypeId::BIGINT}, rows);
  std::string s = Render(*r, RenderMode::BOX, 120, 10);
  // The footer is wider than the numbers, so the column is widened to hold it.
  EXPECT_NE(s.find(" 0 │\n"), std::string::npos) << s;
  EXPECT_NE(s.find(" 4 │\n"), std::string::npos) << s;
  EXPECT_EQ(s.find(" 5 │\n"), std::string::npos) << s;
  EXPECT_NE(s.find("⋮"), std::string::npos) << s;
  EXPECT_NE(s.find(" 4999 │\n"), std::string::npos) << s;
  EXPECT_NE(s.find("5000 rows (10 shown)"), std::string::npos) << s;
}

TEST(ResultRenderer, Helpers) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("héllo"), 5u);
  EXPECT_EQ(DisplayWidth("日本"), 4u);
  EXPECT_EQ(TruncateToWidth("abcdef", 4), "abc…");
  EXPECT_EQ(TruncateToWidth("abc", 4), "abc");
  EXPECT_EQ(TruncateToWidth("日本語", 4), "日…");
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(ParseRenderMode("json"), RenderMode::JSON);
  EXPECT_FALSE(ParseRenderMode("html").has_value());
}

}  // namespace
}  // namespace lakestream

#endif  // __has_include("result_renderer.hpp")
