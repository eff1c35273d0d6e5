// Pipeline expectations as declared: CONSTRAINT name EXPECT (condition)
// [ON VIOLATION {DROP ROW | FAIL UPDATE}] in the parenthesised list after the
// name of CREATE [OR REFRESH] STREAMING TABLE / MATERIALIZED VIEW / LIVE
// TABLE (docs/pipelines.md, "Expectations").
//
// The parser checks the clause (ParseCreateView: a valid expression, known
// actions, no name twice) and keeps each condition's SQL text in
// CreateViewStatement::expectations; executors bind the text against the
// query's result columns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lakestream {

enum class ExpectationAction : uint8_t { WARN, DROP_ROW, FAIL_UPDATE };

struct ExpectationDefinition {
  std::string name;
  std::string condition;  // the SQL text between the parentheses after EXPECT
  ExpectationAction action = ExpectationAction::WARN;
};

}  // namespace lakestream
