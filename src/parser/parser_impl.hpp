// Internal to src/parser: the recursive-descent parser's state and rules.
// The public entry points are in parser.hpp; the rules are split over
// parse_expression.cpp, parse_query.cpp, parse_ddl.cpp, parse_dml.cpp and
// parse_misc.cpp by statement family, and share the token helpers below.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parser/ast.hpp"
#include "parser/lexer.hpp"

namespace lakestream {

class ParserImpl {
 public:
  explicit ParserImpl(const std::string& sql);

  std::vector<std::unique_ptr<SQLStatement>> ParseStatements();
  ExprPtr ParseSingleExpression();
  // One expression (or select item) and nothing after it: no ';', no parameters.
  ExprPtr ParseExpressionText(bool select_item);
  std::unique_ptr<QueryNode> ParseSingleQuery();

  // ------------------------------------------------------------ tokens (parser.cpp)
  const Token& Peek(size_t k = 0) const;
  const Token& Next();
  // Keywords: unquoted identifiers, compared case-insensitively.
  bool IsKeyword(const char* keyword, size_t k = 0) const;
  bool AcceptKeyword(const char* keyword);
  // Accepts the whole sequence or nothing (e.g. "IF", "NOT", "EXISTS").
  bool AcceptKeywords(std::initializer_list<const char*> keywords);
  void ExpectKeyword(const char* keyword);
  bool IsOp(const char* op, size_t k = 0) const;
  bool AcceptOp(const char* op);
  void ExpectOp(const char* op);
  bool AtStatementEnd() const;  // ';' or end of input
  // True for a word that may not be used as an implicit alias / column name.
  // for_alias adds words that may name a column but not follow a table as its alias.
  bool IsReservedWord(const Token& token, bool for_alias = false) const;
  bool IsIdentifierLike(size_t k = 0) const;  // identifier or quoted identifier
  // `syntax error at or near "X" (line, column)` with an optional hint appended
  // after the position; "at end of input" for the END_OF_INPUT token.
  [[noreturn]] void SyntaxError(const Token& token, const std::string& hint = "") const;
  [[noreturn]] void ErrorAt(uint32_t offset, const std::string& message) const;

  // Names and literals shared by every statement family.
  std::string ParseIdentifier(const char* what);
  QualifiedName ParseQualifiedName(const char* what);
  std::vector<std::string> ParseDottedName(const char* what);   // a.b.c as parts
  std::vector<std::string> ParseIdentifierList(const char* what);  // "(a, b)"
  std::string ParseStringLiteral(const char* what);
  int64_t ParseIntegerLiteral(const char* what);
  uint32_t PreviousEnd() const;  // end offset of the last consumed token
  std::string SourceText(uint32_t begin, uint32_t end) const;

  // Recursion guard: deeply nested input must fail with an error, not a stack overflow.
  class DepthGuard {
   public:
    explicit DepthGuard(ParserImpl& parser);
    ~DepthGuard() { parser_.depth_--; }

   private:
    ParserImpl& parser_;
  };

  // Height bookkeeping (ParsedExpression::height): each sets the node's height
  // from its parts, which must be complete, and fails with "nested too
  // deeply" past kMaxNestingDepth. Every rule calls it on each node it builds.
  ExprPtr Finish(ExprPtr expr);
  void Finish(QueryNode& node);
  void Finish(TableRef& ref);
  [[noreturn]] void NestingError(uint32_t offset) const;
  // Fails when an expression would grow past kMaxExpandedSize nodes.
  void CheckExpandedSize(uint64_t size, uint32_t offset) const;

  // ------------------------------------------------------------ expressions
  ExprPtr ParseExpression();
  ExprPtr ParseOr();
  ExprPtr ParseAnd();
  ExprPtr ParseNot();
  ExprPtr ParsePredicate();
  ExprPtr ParseConcat();
  ExprPtr ParseAdditive();
  ExprPtr ParseMultiplicative();
  ExprPtr ParseUnary();
  ExprPtr Negate(ExprPtr child, uint32_t location);  // folds -<literal>
  ExprPtr ParsePostfix();
  ExprPtr ParseJsonPath(ExprPtr json);  // after `json`, at the ':'
  ExprPtr TryParseLambda();             // a function argument `x -> ...`, or null
  ExprPtr ParseListLiteral();           // at '[': DuckDB's [a, b] -> list_value(a, b)
  ExprPtr ParseMapLiteral(uint32_t location);  // after MAP, at '{': DuckDB's MAP {k: v} -> map(k, v)
  ExprPtr ParseStructLiteral();         // at '{': DuckDB's {'k': v} -> named_struct('k', v)
  // struct_pack(a := 1, b := x) -> named_struct('a', 1, 'b', x) (DuckDB)
  void RewriteStructPack(ParsedExpression& call);
  // After `*`: EXCLUDE (a, b) / EXCEPT (a, b) and REPLACE (expr AS a, ...)
  void ParseStarModifiers(ParsedExpression& star);
  // Spark's `LATERAL VIEW [OUTER] explode(x) alias [AS] c1, c2` after `left`:
  // a CROSS (LEFT for OUTER) join of `left` with the generator.
  std::unique_ptr<TableRef> ParseLateralView(std::unique_ptr<TableRef> left);
  ExprPtr ParsePrimary();
  ExprPtr ParseFunctionCall(std::string name, uint32_t location);
  ExprPtr ParseTableFunctionCall(std::string name, uint32_t location);  // sets table_function_args_
  // parse_aggregate.cpp: agg(x ORDER BY k), then WITHIN GROUP (ORDER BY k)
  // and FILTER (WHERE c) after the call, then ParseCallSuffix (which Finishes it).
  void ParseOrderInCall(ParsedExpression& call);
  ExprPtr ParseCallModifiers(ExprPtr call);
  void ParseGroupBy(QueryNode& node);  // after GROUP BY (not ALL)
  ExprPtr ParseCase(uint32_t location);
  ExprPtr ParseCast(bool try_cast, uint32_t location);
  // parse_standard_call.cpp: EXTRACT, and SUBSTRING/POSITION/TRIM/OVERLAY with
  // keyword-separated arguments. IsStandardCall: at the name, '(' next.
  ExprPtr ParseExtract(uint32_t location);
  bool IsStandardCall() const;
  ExprPtr ParseStandardCall(uint32_t location);
  ExprPtr ParseExists(bool negated, uint32_t location);
  ExprPtr ParseQuantified();  // ANY|SOME|ALL (query) after a comparison operator
  ExprPtr ParseNumber(const Token& token);
  ExprPtr ParseIntervalLiteral(uint32_t location);  // parse_interval.cpp
  ExprPtr ParseParameter(const Token& token);  // ? or $n
  LogicalType ParseType();
  bool IsQueryStart(size_t k = 0) const;  // SELECT, WITH, VALUES

  // ------------------------------------------------------------ queries
  std::unique_ptr<QueryNode> ParseQuery();
  std::unique_ptr<QueryNode> ParseSetOperation();
  std::unique_ptr<QueryNode> ParseIntersection();
  std::unique_ptr<QueryNode> MakeSetOperation(std::unique_ptr<QueryNode> left, bool intersect);
  std::unique_ptr<QueryNode> ParseQueryTerm();
  std::unique_ptr<QueryNode> ParseSelectNode();
  // One item of a select list: an expression with an optional [AS] alias, or *.
  ExprPtr ParseSelectItem();
  std::unique_ptr<QueryNode> ParseValuesNode();
  void ParseOrderLimit(QueryNode& node);
  OrderByItem ParseOrderByItem();  // expr [ASC|DESC] [NULLS FIRST|LAST]
  // Windows (parse_window.cpp): OVER after a call, (spec), WINDOW w AS (...), ...
  // After a call's ')': [IGNORE|RESPECT NULLS] [OVER ...], then Finish.
  ExprPtr ParseCallSuffix(ExprPtr call);
  void ParseOver(ParsedExpression& call);
  std::unique_ptr<WindowSpec> ParseWindowSpec();
  WindowFrameBound ParseFrameBound();
  void ParseWindowClause(QueryNode& node);
  std::unique_ptr<TableRef> ParseTableRef();
  std::unique_ptr<TableRef> ParseTableRefPrimary();
  void ParseTableAlias(TableRef& ref);
  bool ParseTimeTravel(std::optional<int64_t>& version, std::optional<std::string>& timestamp);

  // ------------------------------------------------------------ statements
  std::unique_ptr<SQLStatement> ParseStatement();
  // DDL (parse_ddl.cpp)
  std::unique_ptr<SQLStatement> ParseCreate();
  std::unique_ptr<SQLStatement> ParseCreateTable(bool or_replace);
  std::unique_ptr<SQLStatement> ParseCreateView(ViewKind kind, bool or_replace, bool or_refresh);
  // STREAMING / LIVE / INCREMENTAL LIVE TABLE, MATERIALIZED VIEW, [LIVE] VIEW
  // and FLOW after CREATE [OR ...] [TEMPORARY]; null when none of them follows.
  std::unique_ptr<SQLStatement> ParsePipelineCreate(bool or_replace, bool or_refresh, bool temporary);
  std::unique_ptr<SQLStatement> ParseCreateFlow();
  std::unique_ptr<SQLStatement> ParseCreateTableStream(bool or_replace);
  std::unique_ptr<SQLStatement> ParseCreateSnowflakeStream(bool or_replace);
  std::unique_ptr<SQLStatement> ParseCreateSink(bool or_replace);
  std::unique_ptr<SQLStatement> ParseDrop();
  bool IsSchemaStatement();  // at CREATE/DROP SCHEMA|DATABASE or USE
  std::unique_ptr<SQLStatement> ParseSchemaStatement();
  std::unique_ptr<SQLStatement> ParseAlter();
  ColumnDefinition ParseColumnDefinition(std::vector<std::string>* primary_key, bool type_optional);
  // "(key = value, ...)"; keys_only for UNSET TBLPROPERTIES.
  PropertyList ParsePropertyList(bool equals_optional);
  // TBLPROPERTIES (...): a property list whose delta.* keys and values are
  // checked (common/delta_table_properties.hpp), the caret on the bad key.
  PropertyList ParseTableProperties();
  std::string ParsePropertyValue();
  std::unique_ptr<QueryNode> ParseAsQuery(std::string& query_text);
  // DML (parse_dml.cpp)
  std::unique_ptr<SQLStatement> ParseInsert();
  std::unique_ptr<SQLStatement> ParseUpdate();
  std::unique_ptr<SQLStatement> ParseDelete();
  std::unique_ptr<SQLStatement> ParseMerge();
  // parse_apply_changes.cpp: APPLY CHANGES INTO ..., and what follows AUTO CDC
  // in CREATE FLOW f AS AUTO CDC INTO ... (ParseCreateFlow).
  std::unique_ptr<SQLStatement> ParseApplyChanges();
  std::vector<SetClause> ParseSetClauses();
  // The rest (parse_misc.cpp)
  std::unique_ptr<SQLStatement> ParseShow();
  std::unique_ptr<SQLStatement> ParseDescribe();
  std::unique_ptr<SQLStatement> ParseSummarize();
  std::unique_ptr<SQLStatement> ParseCopy();
  std::unique_ptr<SQLStatement> ParseRefresh();
  std::unique_ptr<SQLStatement> ParseRun();
  std::unique_ptr<SQLStatement> ParseOptimize();
  std::unique_ptr<SQLStatement> ParseVacuum();
  std::unique_ptr<SQLStatement> ParseSet();
  std::unique_ptr<SQLStatement> ParseSetTimeZone();
  std::unique_ptr<SQLStatement> ParseTransaction();
  std::unique_ptr<SQLStatement> ParseExplain();
  // CREATE/DROP SECRET, SHOW SECRETS (parse_secret.cpp)
  bool IsSecretStatement() const;
  std::unique_ptr<SQLStatement> ParseSecretStatement();
  // CREATE/ALTER/DROP USER, SHOW USERS: server users as secrets (parse_user.cpp)
  bool IsUserStatement() const;
  std::unique_ptr<SQLStatement> ParseUserStatement();

 private:
  const std::string& sql_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  // Parameters of the statement being parsed (reset per statement).
  enum class ParameterStyle : uint8_t { NONE, POSITIONAL, NUMBERED, NAMED };
  // $name parameters of the whole text, in order of first use: $name is
  // parameter (its position + 1) in every statement of the text.
  std::vector<std::string> parameter_names_;
  bool text_has_unnamed_parameters_ = false;
  ParameterStyle parameter_style_ = ParameterStyle::NONE;
  uint32_t parameter_count_ = 0;
  std::vector<uint32_t> property_offsets_;  // of each key of the last ParsePropertyList
  // Parsing a source table function's arguments (FROM read_files(...)): "text" there is a string.
  bool table_function_args_ = false;
  // Parsing a key of MAP {k: v}: the ':' after it is not Databricks' JSON path.
  bool map_key_ = false;
};

// Case-insensitive ASCII comparison used for keywords and option names.
bool EqualsIgnoreCase(const std::string& a, const char* b);
std::string ToUpperAscii(std::string s);
std::string ToLowerAscii(std::string s);

}  // namespace lakestream
