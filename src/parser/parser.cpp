// Entry points (parser.hpp), token helpers shared by every rule, and the
// statement dispatcher.
#include "parser/parser.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

// Words that end or join clauses: they can never be an implicit alias
// (`FROM t WHERE ...`) nor start a column reference (`SELECT FROM t`).
// Everything else stays usable as a name without quotes.
const char* const kReservedWords[] = {
    "ALL",     "AND",    "ANTI",      "AS",     "ASC",    "BETWEEN", "BY",     "CASE",   "CROSS",
    "DESC",    "DISTINCT", "ELSE",    "END",    "ESCAPE", "EXCEPT",  "EXISTS", "FOR",    "FROM",
    "FULL",    "GROUP",  "HAVING",    "ILIKE",  "IN",     "INNER",   "INTERSECT", "INTO", "IS",
    "JOIN",    "LATERAL", "LEFT",     "LIKE",   "LIMIT",  "MINUS",   "NATURAL", "NOT",   "NULLS",
    "OFFSET",  "ON",     "OR",        "ORDER",  "OUTER",  "QUALIFY", "RIGHT",  "SELECT", "SEMI",
    "SET",     "THEN",   "UNION",     "USING",  "VALUES", "WHEN",    "WHERE",  "WINDOW", "WITH",
    "OVER",
};

// Also not an implicit table alias: `t VERSION AS OF 3`, `t TIMESTAMP AS OF ...`.
// They stay usable as column names.
const char* const kAliasOnlyReservedWords[] = {"VERSION", "TIMESTAMP", "RETAIN", "DRY", "FULL", "ANTI", "SEMI"};

}  // namespace

bool EqualsIgnoreCase(const std::string& a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; i++) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string ToUpperAscii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string ToLowerAscii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

ParserImpl::ParserImpl(const std::string& sql) : sql_(sql), tokens_(Lexer::Tokenize(sql)) {}

ParserImpl::DepthGuard::DepthGuard(ParserImpl& parser) : parser_(parser) {
  // The stack check matters on threads with small stacks, where the fixed
  // limit alone would come too late.
  if (++parser_.depth_ > static_cast<int>(kMaxNestingDepth) || StackNearlyExhausted()) {
    parser_.depth_--;
    parser_.NestingError(parser_.Peek().offset);
  }
}

void ParserImpl::NestingError(uint32_t offset) const {
  ErrorAt(offset, "statement is nested too deeply (more than " + std::to_string(kMaxNestingDepth) +
                      " levels); simplify it: compute parts of a long chain such as a + b + c + ... in a subquery "
                      "or view, and write long lists of alternatives as x IN (...)");
}

void ParserImpl::CheckExpandedSize(uint64_t size, uint32_t offset) const {
  if (size <= kMaxExpandedSize) return;
  ErrorAt(offset, "statement is too large: this expression would expand to more than " +
                      std::to_string(kMaxExpandedSize) +
                      " terms (BETWEEN and CASE x WHEN ... repeat their first operand); simplify it: compute the "
                      "repeated operand once in a subquery and refer to it by name");
}

namespace {

uint32_t HeightOf(const ParsedExpression* e) { return e ? e->height : 0; }
uint32_t HeightOf(const QueryNode* q) { return q ? q->height : 0; }
uint32_t HeightOf(const TableRef* t) { return t ? t->height : 0; }

uint32_t MaxHeight(const std::vector<ExprPtr>& list) {
  uint32_t h = 0;
  for (auto& e : list) h = std::max(h, HeightOf(e.get()));
  return h;
}

}  // namespace

ExprPtr ParserImpl::Finish(ExprPtr expr) {
  uint32_t h = std::max({MaxHeight(expr->children), HeightOf(expr->subquery.get()),
                         expr->window ? expr->window->height : 0U}) + 1;
  if (h > kMaxNestingDepth) NestingError(expr->location);
  expr->height = h;
  uint64_t size = 1;
  for (auto& c : expr->children) size += c->expanded_size;
  bool between = expr->type == ExpressionType::BETWEEN || expr->type == ExpressionType::NOT_BETWEEN;
  if (between && !expr->children.empty()) size += expr->children[0]->expanded_size;
  CheckExpandedSize(size, expr->location);
  expr->expanded_size = size;
  return expr;
}

void ParserImpl::Finish(QueryNode& node) {
  uint32_t h = std::max({MaxHeight(node.select_list), HeightOf(node.from.get()), HeightOf(node.where.get()),
                         MaxHeight(node.group_by), HeightOf(node.having.get()), HeightOf(node.left.get()),
                         HeightOf(node.right.get()), HeightOf(node.limit.get()), HeightOf(node.offset.get())});
  for (auto& cte : node.ctes) h = std::max(h, HeightOf(cte.query.get()));
  for (auto& row : node.values) h = std::max(h, MaxHeight(row));
  for (auto& item : node.order_by) h = std::max(h, HeightOf(item.expression.get()));
  h = std::max(h, HeightOf(node.qualify.get()));
  for (auto& window : node.windows) h = std::max(h, window.second->height);
  if (++h > kMaxNestingDepth) NestingError(node.location);
  node.height = h;
}

void ParserImpl::Finish(TableRef& ref) {
  uint32_t h = std::max({HeightOf(ref.subquery.get()), HeightOf(ref.left.get()), HeightOf(ref.right.get()),
                         HeightOf(ref.condition.get()), HeightOf(ref.function.get())}) + 1;
  if (h > kMaxNestingDepth) NestingError(ref.location);
  ref.height = h;
}

const Token& ParserImpl::Peek(size_t k) const {
  size_t i = pos_ + k;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& ParserImpl::Next() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) pos_++;
  return t;
}

bool ParserImpl::IsKeyword(const char* keyword, size_t k) const {
  const Token& t = Peek(k);
  return t.type == TokenType::IDENTIFIER && EqualsIgnoreCase(t.text, keyword);
}

bool ParserImpl::AcceptKeyword(const char* keyword) {
  if (!IsKeyword(keyword)) return false;
  Next();
  return true;
}

bool ParserImpl::AcceptKeywords(std::initializer_list<const char*> keywords) {
  size_t k = 0;
  for (const char* kw : keywords) {
    if (!IsKeyword(kw, k++)) return false;
  }
  for (size_t i = 0; i < keywords.size(); i++) Next();
  return true;
}

void ParserImpl::ExpectKeyword(const char* keyword) {
  if (!AcceptKeyword(keyword)) SyntaxError(Peek(), std::string("expected ") + keyword);
}

bool ParserImpl::IsOp(const char* op, size_t k) const {
  const Token& t = Peek(k);
  return t.type == TokenType::OPERATOR && t.text == op;
}

bool ParserImpl::AcceptOp(const char* op) {
  if (!IsOp(op)) return false;
  Next();
  return true;
}

void ParserImpl::ExpectOp(const char* op) {
  if (!AcceptOp(op)) SyntaxError(Peek(), std::string("expected '") + op + "'");
}

bool ParserImpl::AtStatementEnd() const {
  return Peek().type == TokenType::END_OF_INPUT || IsOp(";");
}

bool ParserImpl::IsReservedWord(const Token& token, bool for_alias) const {
  if (token.type != TokenType::IDENTIFIER) return false;
  for (const char* word : kReservedWords) {
    if (EqualsIgnoreCase(token.text, word)) return true;
  }
  if (for_alias) {
    for (const char* word : kAliasOnlyReservedWords) {
      if (EqualsIgnoreCase(token.text, word)) return true;
    }
  }
  return false;
}

bool ParserImpl::IsIdentifierLike(size_t k) const {
  const Token& t = Peek(k);
  return t.type == TokenType::IDENTIFIER || t.type == TokenType::QUOTED_IDENTIFIER;
}

void ParserImpl::SyntaxError(const Token& token, const std::string& hint) const {
  std::string message;
  if (token.type == TokenType::END_OF_INPUT) {
    message = "syntax error at end of input";
  } else {
    message = "syntax error at or near \"" + sql_.substr(token.offset, token.end - token.offset) + "\"";
  }
  std::string formatted = FormatErrorAt(sql_, token.offset, message);
  if (!hint.empty()) {
    // The hint goes on the first line, after the position, so the first line
    // alone says what is wrong and what was expected.
    size_t eol = formatted.find('\n');
    formatted.insert(eol, ": " + hint);
  }
  throw ParserError(formatted);
}

void ParserImpl::ErrorAt(uint32_t offset, const std::string& message) const {
  ThrowParserErrorAt(sql_, offset, message);
}

std::string ParserImpl::ParseIdentifier(const char* what) {
  const Token& t = Peek();
  if (t.type == TokenType::QUOTED_IDENTIFIER || (t.type == TokenType::IDENTIFIER && !IsReservedWord(t))) {
    return Next().text;
  }
  SyntaxError(t, std::string("expected ") + what);
}

std::vector<std::string> ParserImpl::ParseDottedName(const char* what) {
  std::vector<std::string> parts;
  parts.push_back(ParseIdentifier(what));
  while (IsOp(".") && IsIdentifierLike(1)) {
    Next();
    // After a dot any word is a name part (db.order is fine).
    parts.push_back(Next().text);
  }
  return parts;
}

QualifiedName ParserImpl::ParseQualifiedName(const char* what) {
  QualifiedName name;
  name.location = Peek().offset;
  name.parts = ParseDottedName(what);
  return name;
}

std::vector<std::string> ParserImpl::ParseIdentifierList(const char* what) {
  std::vector<std::string> names;
  ExpectOp("(");
  do {
    names.push_back(ParseIdentifier(what));
  } while (AcceptOp(","));
  ExpectOp(")");
  return names;
}

std::string ParserImpl::ParseStringLiteral(const char* what) {
  // Only a string can stand here, so "text" is one too (Spark, Databricks).
  if (Peek().type == TokenType::QUOTED_IDENTIFIER && Peek().double_quoted) return Next().text;
  if (Peek().type != TokenType::STRING) SyntaxError(Peek(), std::string("expected ") + what + " as a quoted string");
  return Next().text;
}

int64_t ParserImpl::ParseIntegerLiteral(const char* what) {
  bool negative = false;
  if (IsOp("-") && Peek(1).type == TokenType::NUMBER) {
    negative = true;
    Next();
  }
  const Token& t = Peek();
  if (t.type != TokenType::NUMBER || t.text.find_first_not_of("0123456789") != std::string::npos) {
    SyntaxError(t, std::string("expected ") + what + " as an integer");
  }
  if (t.text.size() > 18) ErrorAt(t.offset, std::string(what) + " " + t.text + " is out of range");
  int64_t v = std::stoll(t.text);
  Next();
  return negative ? -v : v;
}

uint32_t ParserImpl::PreviousEnd() const { return pos_ == 0 ? 0 : tokens_[pos_ - 1].end; }

std::string ParserImpl::SourceText(uint32_t begin, uint32_t end) const {
  if (end <= begin) return "";
  return sql_.substr(begin, end - begin);
}

// ------------------------------------------------------------------ statements

std::vector<std::unique_ptr<SQLStatement>> ParserImpl::ParseStatements() {
  std::vector<std::unique_ptr<SQLStatement>> statements;
  while (Peek().type != TokenType::END_OF_INPUT) {
    if (AcceptOp(";")) continue;  // empty statement
    uint32_t begin = Peek().offset;
    parameter_style_ = ParameterStyle::NONE;
    parameter_count_ = 0;
    auto statement = ParseStatement();
    if (!AtStatementEnd()) SyntaxError(Peek());
    statement->parameter_count = parameter_count_;
    statement->location = begin;
    statement->text = SourceText(begin, PreviousEnd());
    statements.push_back(std::move(statement));
  }
  if (!parameter_names_.empty()) {
    // Named parameters are the text's: every statement takes one value per
    // name (its own unused), so one set of values serves them all.
    for (auto& statement : statements) {
      statement->parameter_count = static_cast<uint32_t>(parameter_names_.size());
      statement->parameter_names = parameter_names_;
    }
  }
  return statements;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseStatement() {
  const Token& t = Peek();
  if (IsQueryStart() || IsOp("(")) {
    auto statement = std::make_unique<SelectStatement>();
    statement->node = ParseQuery();
    return statement;
  }
  if (t.type != TokenType::IDENTIFIER) SyntaxError(t);
  if (IsKeyword("APPLY")) return ParseApplyChanges();
  if (IsSecretStatement()) return ParseSecretStatement();
  if (IsUserStatement()) return ParseUserStatement();
  if (IsSchemaStatement()) return ParseSchemaStatement();
  if (IsKeyword("CREATE")) return ParseCreate();
  if (IsKeyword("DROP")) return ParseDrop();
  if (IsKeyword("INSERT")) return ParseInsert();
  if (IsKeyword("UPDATE")) return ParseUpdate();
  if (IsKeyword("DELETE") || IsKeyword("TRUNCATE")) return ParseDelete();
  if (IsKeyword("MERGE")) return ParseMerge();
  if (IsKeyword("ALTER")) return ParseAlter();
  if (IsKeyword("SHOW")) return ParseShow();
  if (IsKeyword("DESCRIBE") || IsKeyword("DESC")) return ParseDescribe();
  if (IsKeyword("SUMMARIZE")) return ParseSummarize();
  if (IsKeyword("COPY")) return ParseCopy();
  if (IsKeyword("REFRESH")) return ParseRefresh();
  if (IsKeyword("RUN")) return ParseRun();
  if (IsKeyword("OPTIMIZE")) return ParseOptimize();
  if (IsKeyword("VACUUM")) return ParseVacuum();
  if (IsKeyword("SET") || IsKeyword("RESET") || IsKeyword("PRAGMA")) return ParseSet();
  if (IsKeyword("BEGIN") || IsKeyword("START") || IsKeyword("COMMIT") || IsKeyword("ROLLBACK") ||
      IsKeyword("ABORT")) {
    return ParseTransaction();
  }
  if (IsKeyword("EXPLAIN")) return ParseExplain();
  SyntaxError(t);
}

ExprPtr ParserImpl::ParseSingleExpression() {
  auto expr = ParseExpression();
  AcceptOp(";");
  if (Peek().type != TokenType::END_OF_INPUT) SyntaxError(Peek());
  return expr;
}

ExprPtr ParserImpl::ParseExpressionText(bool select_item) {
  auto expr = select_item ? ParseSelectItem() : ParseExpression();
  // Not even a ';' may follow: the text is spliced into a statement, where a
  // ';' would end it.
  if (Peek().type != TokenType::END_OF_INPUT) {
    SyntaxError(Peek(), "expected the end of the expression; the text must be one expression"
                        + std::string(select_item ? " (with an optional alias)" : "") +
                        ", not several, a statement or clauses");
  }
  // The statement it goes into numbers its own parameters.
  if (parameter_count_ > 0 || parameter_style_ != ParameterStyle::NONE) {
    ErrorAt(expr->location, "an expression text takes no parameters (? or $n); write the value as a literal");
  }
  return expr;
}

std::unique_ptr<QueryNode> ParserImpl::ParseSingleQuery() {
  if (!IsQueryStart() && !IsOp("(")) SyntaxError(Peek(), "expected a query (SELECT, WITH or VALUES)");
  auto node = ParseQuery();
  AcceptOp(";");
  if (Peek().type != TokenType::END_OF_INPUT) SyntaxError(Peek());
  return node;
}

// ------------------------------------------------------------------ public API

std::vector<std::unique_ptr<SQLStatement>> Parser::Parse(const std::string& sql) {
  ParserImpl parser(sql);
  return parser.ParseStatements();
}

ExprPtr Parser::ParseExpression(const std::string& sql) {
  ParserImpl parser(sql);
  return parser.ParseSingleExpression();
}

ExprPtr Parser::ParseExpressionText(const std::string& sql, bool select_item) {
  ParserImpl parser(sql);
  return parser.ParseExpressionText(select_item);
}

std::unique_ptr<QueryNode> Parser::ParseQuery(const std::string& sql) {
  ParserImpl parser(sql);
  return parser.ParseSingleQuery();
}

bool Parser::IsComplete(const std::string& sql) { return Lexer::IsComplete(sql); }

}  // namespace lakestream
