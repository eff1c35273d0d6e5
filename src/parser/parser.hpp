// Hand-written recursive-descent parser for lakestream SQL: Databricks/Spark
// SQL plus the Snowflake/ClickZetta stream dialect (DESIGN.md section 4).
//
// Contract:
// - Parse() returns every statement of the input in order (';' separates;
//   empty statements are skipped).
// - A syntax error throws ParserError whose message names the problem, the
//   line and column, and shows the offending line with a caret under the
//   token, e.g.
//     syntax error at or near "FORM" (line 1, column 10)
//     SELECT * FORM t
//              ^
// - Statements whose feature is not built yet still parse; the binder or the
//   executor reports "not supported yet: <feature>".
// - Nesting is bounded: more than kMaxNestingDepth levels, whether written as
//   parentheses, nested calls or subqueries, or as a long chain of a binary
//   operator (`1+1+...`, which nests as deeply as it is long), throws
//   ParserError "statement is nested too deeply". Every tree the parser
//   returns therefore has height <= kMaxNestingDepth, which is what keeps
//   the binder, the executor and the trees' destructors off the end of the
//   stack. AND/OR chains and IN lists are flat (one node with n children),
//   so they may be as long as memory allows.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parser/ast.hpp"

namespace lakestream {

// Chosen against stack use per level: the binder, whose frames are the
// largest, needs about 0.7 KB a level in a release build and 8-14 KB in
// the sanitizer build, where a 500-level chain binds on an 8 MB stack and
// a 1000-level one does not. Realistic SQL, generated SQL included, stays
// far below it; smaller stacks are covered by the stack check.
constexpr uint32_t kMaxNestingDepth = 500;
// Nodes one expression may grow to once BETWEEN and `CASE x WHEN` have
// repeated their operand (ParsedExpression::expanded_size).
constexpr uint64_t kMaxExpandedSize = 1000000;
// Parameters (? or $n) one statement may take.
constexpr uint32_t kMaxParameters = 65535;

class Parser {
 public:
  static std::vector<std::unique_ptr<SQLStatement>> Parse(const std::string& sql);
  // Parses a single expression (for stored defaults, tests).
  static ExprPtr ParseExpression(const std::string& sql);
  // Parses `sql` as exactly one expression, or with `select_item` one item
  // of a select list (an expression with an optional [AS] alias, or *), with
  // nothing after it (not even ';') and no parameters: text a program
  // splices into a statement it builds (CheckExpression, connection.hpp).
  static ExprPtr ParseExpressionText(const std::string& sql, bool select_item);
  // Parses a standalone query (stored view definitions).
  static std::unique_ptr<QueryNode> ParseQuery(const std::string& sql);
  // For the shell: true when `sql` ends with a ';' outside quotes and comments
  // (or holds only whitespace and comments), i.e. it is ready to run.
  static bool IsComplete(const std::string& sql);
};

}  // namespace lakestream
