// Pipeline expectations as declared: CONSTRAINT name EXPECT (condition)
// [ON VIOLATION {DROP ROW | FAIL UPDATE}] in the parenthesised list after the
// name of CREATE [OR REFRESH] STREAMING TABLE / MATERIALIZED VIEW / LIVE
// TABLE (docs/pipelines.md, "Expectations").
//
// The parser checks the clause (ParseCreateView: a valid expression, known
// actions, no name twice); executors read the expectations back from the
// statement's own text with ScanExpectations, so the statement tree needs no
// field for them.
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

// The expectations of `create_text`, a CREATE statement the parser accepted
// (SQLStatement::text), in declaration order; none when it declares none.
std::vector<ExpectationDefinition> ScanExpectations(const std::string& create_text);

}  // namespace lakestream
