// Expressions, literals and type names.
//
// Precedence, lowest first (one function per level):
//   OR < AND < NOT < comparison / IS / IN / BETWEEN / LIKE < || -> ->> < + -
//   < * / % < unary - < :: cast < primary
// (|| and the JSON arrows share a level and associate to the left, as in
// DuckDB and Postgres: j->'a'->>'b' is (j->'a')->>'b'.)
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "common/exception.hpp"
#include "parser/parser.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

ExprPtr MakeExpr(ExpressionType type, uint32_t location) { return std::make_unique<ParsedExpression>(type, location); }

ExprPtr MakeBinary(ExpressionType type, ExprPtr left, ExprPtr right, uint32_t location) {
  auto expr = MakeExpr(type, location);
  expr->children.push_back(std::move(left));
  expr->children.push_back(std::move(right));
  return expr;
}

ExprPtr MakeConstant(Value value, uint32_t location) {
  auto expr = MakeExpr(ExpressionType::CONSTANT, location);
  expr->value = std::move(value);
  return expr;
}

// Parses a run of decimal digits into a hugeint; the caller limits the length to 38.
hugeint_t DigitsToHugeint(const std::string& digits) {
  hugeint_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

std::string StripLeadingZeros(const std::string& digits) {
  size_t i = 0;
  while (i < digits.size() && digits[i] == '0') i++;
  return digits.substr(i);
}

}  // namespace

bool ParserImpl::IsQueryStart(size_t k) const {
  return IsKeyword("SELECT", k) || IsKeyword("WITH", k) || IsKeyword("VALUES", k);
}

ExprPtr ParserImpl::ParseExpression() {
  DepthGuard guard(*this);
  return ParseOr();
}

// AND / OR chains become one node with n children, which keeps deep
// `a OR b OR c ...` lists flat for the binder and for ToString.
ExprPtr ParserImpl::ParseOr() {
  auto left = ParseAnd();
  if (!IsKeyword("OR")) return left;
  auto expr = MakeExpr(ExpressionType::OR, left->location);
  expr->children.push_back(std::move(left));
  while (AcceptKeyword("OR")) expr->children.push_back(ParseAnd());
  return Finish(std::move(expr));
}

ExprPtr ParserImpl::ParseAnd() {
  auto left = ParseNot();
  if (!IsKeyword("AND")) return left;
  auto expr = MakeExpr(ExpressionType::AND, left->location);
  expr->children.push_back(std::move(left));
  while (AcceptKeyword("AND")) expr->children.push_back(ParseNot());
  return Finish(std::move(expr));
}

ExprPtr ParserImpl::ParseNot() {
  if (IsKeyword("NOT")) {
    DepthGuard guard(*this);
    uint32_t location = Next().offset;
    if (IsKeyword("EXISTS") && IsOp("(", 1) && IsQueryStart(2)) return ParseExists(true, Next().offset);
    auto expr = MakeExpr(ExpressionType::NOT, location);
    expr->children.push_back(ParseNot());
    return Finish(std::move(expr));
  }
  return ParsePredicate();
}

ExprPtr ParserImpl::ParsePredicate() {
  auto left = ParseConcat();
  while (true) {
    const Token& t = Peek();
    uint32_t location = t.offset;
    if (t.type == TokenType::OPERATOR) {
      ExpressionType type;
      if (t.text == "=" || t.text == "==") {
        type = ExpressionType::COMPARE_EQ;
      } else if (t.text == "!=" || t.text == "<>") {
        type = ExpressionType::COMPARE_NE;
      } else if (t.text == "<") {
        type = ExpressionType::COMPARE_LT;
      } else if (t.text == "<=") {
        type = ExpressionType::COMPARE_LE;
      } else if (t.text == ">") {
        type = ExpressionType::COMPARE_GT;
      } else if (t.text == ">=") {
        type = ExpressionType::COMPARE_GE;
      } else {
        return left;
      }
      Next();
      if ((IsKeyword("ANY") || IsKeyword("SOME") || IsKeyword("ALL")) && IsOp("(", 1)) {
        if (IsQueryStart(2)) {
          left = Finish(MakeBinary(type, std::move(left), ParseQuantified(), location));
          continue;
        }
        // any(b) / some(b) are also the bool_or aggregate; ALL has no other reading.
        if (IsKeyword("ALL")) {
          ErrorAt(Peek().offset, "not supported yet: a comparison with ALL over a list or an array; ALL takes a subquery "
                                 "(x > ALL (SELECT ...)), or compare with greatest()/least() of the values");
        }
      }
      left = Finish(MakeBinary(type, std::move(left), ParseConcat(), location));
      continue;
    }
    if (IsKeyword("IS")) {
      Next();
      bool negated = AcceptKeyword("NOT");
      ExpressionType type;
      if (AcceptKeyword("NULL")) {
        type = negated ? ExpressionType::IS_NOT_NULL : ExpressionType::IS_NULL;
      } else if (AcceptKeyword("TRUE")) {
        type = negated ? ExpressionType::IS_NOT_TRUE : ExpressionType::IS_TRUE;
      } else if (AcceptKeyword("FALSE")) {
        type = negated ? ExpressionType::IS_NOT_FALSE : ExpressionType::IS_FALSE;
      } else if (AcceptKeyword("DISTINCT")) {
        ExpectKeyword("FROM");
        type = negated ? ExpressionType::COMPARE_NOT_DISTINCT_FROM : ExpressionType::COMPARE_DISTINCT_FROM;
        left = Finish(MakeBinary(type, std::move(left), ParseConcat(), location));
        continue;
      } else {
        SyntaxError(Peek(), "expected NULL, TRUE, FALSE or DISTINCT FROM after IS");
      }
      auto expr = MakeExpr(type, location);
      expr->children.push_back(std::move(left));
      left = Finish(std::move(expr));
      continue;
    }
    // [NOT] IN / BETWEEN / LIKE / ILIKE
    bool negated = false;
    size_t k = 0;
    if (IsKeyword("NOT") &&
        (IsKeyword("IN", 1) || IsKeyword("BETWEEN", 1) || IsKeyword("LIKE", 1) || IsKeyword("ILIKE", 1))) {
      negated = true;
      k = 1;
    }
    if (IsKeyword("IN", k)) {
      for (size_t i = 0; i <= k; i++) Next();
      ExpectOp("(");
      if (IsQueryStart()) {
        auto expr = MakeExpr(negated ? ExpressionType::SUBQUERY_NOT_IN : ExpressionType::SUBQUERY_IN, location);
        expr->children.push_back(std::move(left));
        expr->subquery = ParseQuery();
        ExpectOp(")");
        left = Finish(std::move(expr));
        continue;
      }
      auto expr = MakeExpr(negated ? ExpressionType::NOT_IN_LIST : ExpressionType::IN_LIST, location);
      expr->children.push_back(std::move(left));
      do {
        expr->children.push_back(ParseExpression());
      } while (AcceptOp(","));
      if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' in the IN list");
      left = Finish(std::move(expr));
      continue;
    }
    if (IsKeyword("BETWEEN", k)) {
      for (size_t i = 0; i <= k; i++) Next();
      auto expr = MakeExpr(negated ? ExpressionType::NOT_BETWEEN : ExpressionType::BETWEEN, location);
      expr->children.push_back(std::move(left));
      expr->children.push_back(ParseConcat());
      ExpectKeyword("AND");
      expr->children.push_back(ParseConcat());
      left = Finish(std::move(expr));
      continue;
    }
    if (IsKeyword("LIKE", k) || IsKeyword("ILIKE", k)) {
      bool ilike = IsKeyword("ILIKE", k);
      for (size_t i = 0; i <= k; i++) Next();
      ExpressionType type = ilike ? (negated ? ExpressionType::NOT_ILIKE : ExpressionType::ILIKE)
                                  : (negated ? ExpressionType::NOT_LIKE : ExpressionType::LIKE);
      auto expr = MakeBinary(type, std::move(left), ParseConcat(), location);
      if (AcceptKeyword("ESCAPE")) expr->children.push_back(ParseConcat());
      left = Finish(std::move(expr));
      continue;
    }
    return left;
  }
}

ExprPtr ParserImpl::ParseConcat() {
  auto left = ParseAdditive();
  while (IsOp("||") || IsOp("->") || IsOp("->>")) {
    const Token& op = Next();
    uint32_t location = op.offset;
    if (op.text == "||") {
      left = Finish(MakeBinary(ExpressionType::CONCAT, std::move(left), ParseAdditive(), location));
      continue;
    }
    // j->'key', j->0, j->'$.a.b': json_extract (JSON text); ->> the same as
    // text (json_extract_string: a string unquoted, JSON null as NULL).
    auto call = MakeExpr(ExpressionType::FUNCTION, location);
    call->function_name = op.text == "->" ? "json_extract" : "json_extract_string";
    call->children.push_back(std::move(left));
    call->children.push_back(ParseAdditive());
    call->arg_names.assign(2, "");
    left = Finish(std::move(call));
  }
  return left;
}

ExprPtr ParserImpl::ParseAdditive() {
  auto left = ParseMultiplicative();
  while (IsOp("+") || IsOp("-")) {
    const Token& op = Next();
    auto type = op.text == "+" ? ExpressionType::ADD : ExpressionType::SUBTRACT;
    left = Finish(MakeBinary(type, std::move(left), ParseMultiplicative(), op.offset));
  }
  return left;
}

ExprPtr ParserImpl::ParseMultiplicative() {
  auto left = ParseUnary();
  while (IsOp("*") || IsOp("/") || IsOp("%")) {
    const Token& op = Next();
    auto type = op.text == "*" ? ExpressionType::MULTIPLY
                               : (op.text == "/" ? ExpressionType::DIVIDE : ExpressionType::MODULO);
    left = Finish(MakeBinary(type, std::move(left), ParseUnary(), op.offset));
  }
  return left;
}

ExprPtr ParserImpl::ParseUnary() {
  // A run of signs is read in a loop and applied innermost first, so
  // `- - - ... 1` needs no recursion; unary plus is a no-op.
  std::vector<uint32_t> minus_locations;
  while (IsOp("+") || IsOp("-")) {
    const Token& sign = Next();
    if (sign.text == "-") minus_locations.push_back(sign.offset);
  }
  auto expr = ParsePostfix();
  for (auto it = minus_locations.rbegin(); it != minus_locations.rend(); ++it) expr = Negate(std::move(expr), *it);
  return expr;
}

ExprPtr ParserImpl::Negate(ExprPtr child, uint32_t location) {
  // Fold -<numeric literal> into a constant so `-1` is the INTEGER -1 and
  // `-2147483648` still fits INTEGER, as users expect from a literal.
  if (child->type == ExpressionType::CONSTANT && !child->value.IsNull()) {
    const Value& v = child->value;
    switch (v.type().id()) {
      case TypeId::INTEGER:
      case TypeId::BIGINT: {
        // Negating in a wider type: `- -2147483648` is the BIGINT 2147483648.
        int64_t x = v.type().id() == TypeId::INTEGER ? v.GetInteger() : v.GetBigint();
        if (x == std::numeric_limits<int64_t>::min()) {
          return MakeConstant(Value::DECIMAL(-static_cast<hugeint_t>(x), 38, 0), location);
        }
        int64_t n = -x;
        if (n >= std::numeric_limits<int32_t>::min() && n <= std::numeric_limits<int32_t>::max()) {
          return MakeConstant(Value::INTEGER(static_cast<int32_t>(n)), location);
        }
        return MakeConstant(Value::BIGINT(n), location);
      }
      case TypeId::DECIMAL: {
        hugeint_t n = -v.GetHugeint();
        // 9223372036854775808 was too big for BIGINT, its negation is not.
        if (v.type().scale() == 0 && v.type().width() == 38 && n == static_cast<hugeint_t>(std::numeric_limits<int64_t>::min())) {
          return MakeConstant(Value::BIGINT(std::numeric_limits<int64_t>::min()), location);
        }
        return MakeConstant(Value::DECIMAL(n, v.type().width(), v.type().scale()), location);
      }
      case TypeId::DOUBLE:
        return MakeConstant(Value::DOUBLE(-v.GetDouble()), location);
      default:
        break;
    }
  }
  auto expr = MakeExpr(ExpressionType::NEGATE, location);
  expr->children.push_back(std::move(child));
  return Finish(std::move(expr));
}

// Postfix operators, left to right: `x::T`, `x[i]`, `x.field` (after an
// expression that is not a plain name) and Databricks' JSON path `raw:a.b[0]`.
ExprPtr ParserImpl::ParsePostfix() {
  auto expr = ParsePrimary();
  while (true) {
    if (IsOp("::")) {
      uint32_t location = Next().offset;
      auto cast = MakeExpr(ExpressionType::CAST, location);
      cast->children.push_back(std::move(expr));
      cast->cast_type = ParseType();
      expr = Finish(std::move(cast));
    } else if (IsOp("[")) {
      DepthGuard guard(*this);
      uint32_t location = Next().offset;
      auto index = ParseExpression();
      if (IsOp(":")) ErrorAt(Peek().offset, "not supported yet: array slices x[a:b] (use slice(x, start, length))");
      if (!AcceptOp("]")) SyntaxError(Peek(), "expected ']' after the subscript");
      expr = Finish(MakeBinary(ExpressionType::SUBSCRIPT, std::move(expr), std::move(index), location));
    } else if (IsOp(".") && IsIdentifierLike(1)) {
      uint32_t location = Next().offset;
      auto access = MakeExpr(ExpressionType::FIELD_ACCESS, location);
      access->children.push_back(std::move(expr));
      access->names.push_back(Next().text);
      expr = Finish(std::move(access));
    } else if (IsOp(":") && (IsIdentifierLike(1) || IsOp("[", 1)) && !map_key_) {
      expr = ParseJsonPath(std::move(expr));
    } else {
      return expr;
    }
  }
}

ExprPtr ParserImpl::ParseNumber(const Token& token) {
  const std::string& text = token.text;
  uint32_t location = token.offset;
  if (text.find_first_of("eE") != std::string::npos) {
    double d = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(d)) ErrorAt(location, "numeric literal " + text + " is out of range for DOUBLE");
    return MakeConstant(Value::DOUBLE(d), location);
  }
  size_t dot = text.find('.');
  if (dot == std::string::npos) {
    std::string digits = StripLeadingZeros(text);
    if (digits.size() <= 38) {
      hugeint_t v = DigitsToHugeint(digits);
      if (v <= std::numeric_limits<int32_t>::max()) return MakeConstant(Value::INTEGER(static_cast<int32_t>(v)), location);
      if (v <= std::numeric_limits<int64_t>::max()) return MakeConstant(Value::BIGINT(static_cast<int64_t>(v)), location);
      return MakeConstant(Value::DECIMAL(v, 38, 0), location);
    }
    // Beyond DECIMAL(38): keep the magnitude as a DOUBLE (as DuckDB does).
    return MakeConstant(Value::DOUBLE(std::strtod(text.c_str(), nullptr)), location);
  }
  // 1.50 -> DECIMAL(3,2): width counts the significant integer digits plus the
  // fraction digits; the scale is the number of fraction digits as written.
  std::string integer_part = StripLeadingZeros(text.substr(0, dot));
  std::string fraction = text.substr(dot + 1);
  size_t scale = fraction.size();
  size_t width = integer_part.size() + scale;
  if (width == 0) width = 1;
  if (width > 38) return MakeConstant(Value::DOUBLE(std::strtod(text.c_str(), nullptr)), location);
  hugeint_t unscaled = DigitsToHugeint(integer_part + fraction);
  return MakeConstant(Value::DECIMAL(unscaled, static_cast<uint8_t>(width), static_cast<uint8_t>(scale)), location);
}

ExprPtr ParserImpl::ParsePrimary() {
  DepthGuard guard(*this);
  const Token& t = Peek();
  uint32_t location = t.offset;
  switch (t.type) {
    case TokenType::NUMBER:
      return ParseNumber(Next());
    case TokenType::STRING:
      return MakeConstant(Value::VARCHAR(Next().text), location);
    case TokenType::END_OF_INPUT:
      SyntaxError(t, "expected an expression");
    case TokenType::OPERATOR: {
      if (t.text == "*") {
        Next();
        return MakeExpr(ExpressionType::STAR, location);
      }
      if (t.text == "?" || t.text[0] == '$') return ParseParameter(Next());
      if (t.text == "[") return ParseListLiteral();
      if (t.text == "{") return ParseStructLiteral();
      if (t.text != "(") SyntaxError(t, "expected an expression");
      Next();
      if (IsQueryStart()) {
        auto expr = MakeExpr(ExpressionType::SUBQUERY_SCALAR, location);
        expr->subquery = ParseQuery();
        ExpectOp(")");
        return Finish(std::move(expr));
      }
      auto expr = ParseExpression();
      if (IsOp(",")) {
        // (a, b, ...) is a row: row(a, b, ...), a struct with fields col1, col2, ...
        // (DuckDB's unnamed struct), so [('a', 1)] feeds map_from_entries.
        auto row = MakeExpr(ExpressionType::FUNCTION, location);
        row->function_name = "row";
        row->children.push_back(std::move(expr));
        while (AcceptOp(",")) row->children.push_back(ParseExpression());
        row->arg_names.assign(row->children.size(), "");
        expr = Finish(std::move(row));
      }
      if (!AcceptOp(")")) SyntaxError(Peek(), "expected ')'");
      return expr;
    }
    case TokenType::IDENTIFIER:
    case TokenType::QUOTED_IDENTIFIER:
      break;
  }
  if (t.type == TokenType::IDENTIFIER) {
    if (AcceptKeyword("NULL")) return MakeConstant(Value(), location);
    if (AcceptKeyword("TRUE")) return MakeConstant(Value::BOOLEAN(true), location);
    if (AcceptKeyword("FALSE")) return MakeConstant(Value::BOOLEAN(false), location);
    if (AcceptKeyword("CASE")) return ParseCase(location);
    if (IsKeyword("MAP") && IsOp("{", 1)) {
      Next();
      return ParseMapLiteral(location);
    }
    if (IsKeyword("CAST") && IsOp("(", 1)) {
      Next();
      return ParseCast(false, location);
    }
    if (IsKeyword("TRY_CAST") && IsOp("(", 1)) {
      Next();
      return ParseCast(true, location);
    }
    if (IsKeyword("EXTRACT") && IsOp("(", 1)) {
      Next();
      return ParseExtract(location);
    }
    if (IsOp("(", 1) && IsStandardCall()) return ParseStandardCall(location);
    // EXISTS (SELECT ...); exists(arr, x -> ...) is the array function.
    if (IsKeyword("EXISTS") && IsOp("(", 1) && IsQueryStart(2)) {
      Next();
      return ParseExists(false, location);
    }
    if (IsKeyword("INTERVAL") && !IsOp("(", 1) && !IsOp(".", 1)) return ParseIntervalLiteral(location);
    // Typed literals: DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00',
    // TIMESTAMP_NTZ '...', TIMESTAMP_LTZ '...' (Spark).
    if ((IsKeyword("DATE") || IsKeyword("TIMESTAMP") || IsKeyword("TIMESTAMP_NTZ") || IsKeyword("TIMESTAMP_LTZ")) &&
        Peek(1).type == TokenType::STRING) {
      auto cast = MakeExpr(ExpressionType::CAST, location);
      cast->cast_type = IsKeyword("DATE")            ? LogicalType(TypeId::DATE)
                        : IsKeyword("TIMESTAMP_NTZ") ? LogicalType(TypeId::TIMESTAMP_NTZ)
                                                     : LogicalType(TypeId::TIMESTAMP);
      Next();
      const Token& s = Next();
      cast->children.push_back(MakeConstant(Value::VARCHAR(s.text), s.offset));
      return Finish(std::move(cast));
    }
    // Niladic functions of the SQL standard, usable without parentheses.
    if ((IsKeyword("CURRENT_TIMESTAMP") || IsKeyword("CURRENT_DATE")) && !IsOp("(", 1)) {
      auto expr = MakeExpr(ExpressionType::FUNCTION, location);
      expr->function_name = ToLowerAscii(Next().text);
      return expr;
    }
    // LEFT(s, n) / RIGHT(s, n) are functions even though LEFT/RIGHT are join words.
    bool reserved_function = (IsKeyword("LEFT") || IsKeyword("RIGHT") || IsKeyword("EXISTS")) && IsOp("(", 1);
    if (IsReservedWord(t) && !reserved_function) SyntaxError(t, "expected an expression");
  }
  // A name: column, tbl.column, tbl.*, or a function call.
  std::vector<std::string> names;
  names.push_back(Next().text);
  while (IsOp(".")) {
    if (IsOp("*", 1)) {
      Next();
      Next();
      auto star = MakeExpr(ExpressionType::STAR, location);
      star->names = std::move(names);
      return star;
    }
    if (!IsIdentifierLike(1)) SyntaxError(Peek(1), "expected a name after '.'");
    Next();
    names.push_back(Next().text);
  }
  if (IsOp("(")) {
    std::string name = names[0];
    for (size_t i = 1; i < names.size(); i++) name += "." + names[i];
    return ParseFunctionCall(std::move(name), location);
  }
  auto column = MakeExpr(ExpressionType::COLUMN_REF, location);
  column->names = std::move(names);
  return column;
}

ExprPtr ParserImpl::ParseFunctionCall(std::string name, uint32_t location) {
  ExpectOp("(");
  auto expr = MakeExpr(ExpressionType::FUNCTION, location);
  expr->function_name = std::move(name);
  if (AcceptOp(")")) return ParseCallModifiers(std::move(expr));
  if (AcceptKeyword("DISTINCT")) {
    expr->distinct = true;
  } else {
    AcceptKeyword("ALL");
  }
  // f(*): count(*) and struct(*) both set star_argument (see ast.hpp).
  if (IsOp("*") && IsOp(")", 1)) {
    Next();
    Next();
    expr->star_argument = true;
    return ParseCallModifiers(std::move(expr));
  }
  do {
    std::string arg_name;
    if (IsIdentifierLike() && IsOp("=>", 1)) {
      arg_name = Next().text;
      Next();
    } else if (IsIdentifierLike() && IsOp(":", 1) && IsOp("=", 2)) {  // DuckDB's name := value
      arg_name = Next().text;
      Next();
      Next();
    } else if (table_function_args_ && IsIdentifierLike() && IsOp("=", 1)) {
      // DuckDB's read_csv('f.csv', header = true): in a FROM clause's table
      // function a comparison with a column could not bind anyway.
      arg_name = Next().text;
      Next();
    }
    // An option value (format => "json") or a table function's argument
    // (read_files("landing/")): Databricks writes strings in double quotes,
    // and a lone "x" there is the string, not a column.
    if ((!arg_name.empty() || table_function_args_) && Peek().type == TokenType::QUOTED_IDENTIFIER &&
        Peek().double_quoted && (IsOp(",", 1) || IsOp(")", 1))) {
      uint32_t at = Peek().offset;
      expr->children.push_back(Finish(MakeConstant(Value::VARCHAR(Next().text), at)));
      expr->arg_names.push_back(std::move(arg_name));
      continue;
    }
    auto lambda = TryParseLambda();
    expr->children.push_back(lambda ? std::move(lambda) : ParseExpression());
    // first_value(x IGNORE NULLS): DuckDB's and Spark's other spelling.
    if (IsKeyword("IGNORE") && IsKeyword("NULLS", 1)) {
      Next();
      Next();
      expr->ignore_nulls = true;
    }
    // struct(x AS name): Spark names a struct field with an alias.
    if (AcceptKeyword("AS")) expr->children.back()->alias = ParseIdentifier("a field name after AS");
    expr->arg_names.push_back(std::move(arg_name));
  } while (AcceptOp(","));
  if (IsKeyword("ORDER")) ParseOrderInCall(*expr);
  if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' in the arguments of " + expr->function_name);
  if (ToLowerAscii(expr->function_name) == "struct_pack") RewriteStructPack(*expr);
  return ParseCallModifiers(std::move(expr));
}

ExprPtr ParserImpl::ParseTableFunctionCall(std::string name, uint32_t location) {
  // Only the source functions (read_files, read_kafka, table_changes): a
  // lateral function such as unnest("arr") takes a column.
  std::string lower = ToLowerAscii(name);
  bool source = lower.rfind("read_", 0) == 0 || lower == "table_changes";
  bool saved = table_function_args_;
  table_function_args_ = source;
  try {
    auto call = ParseFunctionCall(std::move(name), location);
    table_function_args_ = saved;
    return call;
  } catch (...) {
    table_function_args_ = saved;
    throw;
  }
}

ExprPtr ParserImpl::ParseCase(uint32_t location) {
  auto expr = MakeExpr(ExpressionType::CASE, location);
  ExprPtr operand;
  if (!IsKeyword("WHEN")) operand = ParseExpression();
  if (!IsKeyword("WHEN")) SyntaxError(Peek(), "expected WHEN in CASE");
  uint64_t size = 1;
  while (IsKeyword("WHEN")) {
    uint32_t when_location = Next().offset;
    auto condition = ParseExpression();
    if (operand) {
      // Check before copying, so a runaway CASE stops before it allocates.
      CheckExpandedSize(size + operand->expanded_size, when_location);
      // Simple CASE: rewrite `CASE x WHEN v` into `x = v` (see ast.hpp).
      condition = Finish(MakeBinary(ExpressionType::COMPARE_EQ, operand->Copy(), std::move(condition), when_location));
    }
    // Each WHEN copies the operand: check the growth as it happens, not
    // only once the whole CASE has been read.
    size += condition->expanded_size;
    CheckExpandedSize(size, when_location);
    expr->children.push_back(std::move(condition));
    ExpectKeyword("THEN");
    expr->children.push_back(ParseExpression());
  }
  if (AcceptKeyword("ELSE")) {
    expr->children.push_back(ParseExpression());
    expr->has_else = true;
  }
  if (!AcceptKeyword("END")) SyntaxError(Peek(), "expected WHEN, ELSE or END in CASE");
  return Finish(std::move(expr));
}

ExprPtr ParserImpl::ParseCast(bool try_cast, uint32_t location) {
  ExpectOp("(");
  auto expr = MakeExpr(ExpressionType::CAST, location);
  expr->try_cast = try_cast;
  expr->children.push_back(ParseExpression());
  ExpectKeyword("AS");
  expr->cast_type = ParseType();
  ExpectOp(")");
  return Finish(std::move(expr));
}

// ANY|SOME|ALL (query), the right side of a comparison.
ExprPtr ParserImpl::ParseQuantified() {
  bool all = IsKeyword("ALL");
  uint32_t location = Next().offset;
  ExpectOp("(");
  auto expr = MakeExpr(all ? ExpressionType::SUBQUERY_ALL : ExpressionType::SUBQUERY_ANY, location);
  expr->subquery = ParseQuery();
  ExpectOp(")");
  return Finish(std::move(expr));
}

ExprPtr ParserImpl::ParseExists(bool negated, uint32_t location) {
  ExpectOp("(");
  if (!IsQueryStart()) SyntaxError(Peek(), "expected a subquery after EXISTS");
  auto expr = MakeExpr(negated ? ExpressionType::SUBQUERY_NOT_EXISTS : ExpressionType::SUBQUERY_EXISTS, location);
  expr->subquery = ParseQuery();
  ExpectOp(")");
  return Finish(std::move(expr));
}

// ------------------------------------------------------------------ types

LogicalType ParserImpl::ParseType() {
  DepthGuard guard(*this);
  const Token& t = Peek();
  if (t.type != TokenType::IDENTIFIER && t.type != TokenType::QUOTED_IDENTIFIER) {
    SyntaxError(t, "expected a type name");
  }
  std::string name = ToUpperAscii(Next().text);
  LogicalType type;
  if (name == "ARRAY" && AcceptOp("<")) {
    type = LogicalType::List(ParseType());
    ExpectOp(">");
  } else if (name == "MAP" && AcceptOp("<")) {
    LogicalType key = ParseType();
    ExpectOp(",");
    LogicalType value = ParseType();
    ExpectOp(">");
    type = LogicalType::Map(key, value);
  } else if (name == "STRUCT" && (IsOp("<") || IsOp("("))) {
    // STRUCT<a: INT, b STRING> (Spark) and STRUCT(a INT, b STRING) (DuckDB).
    const char* close = IsOp("<") ? ">" : ")";
    Next();
    child_list_t fields;
    if (!IsOp(close)) {
      do {
        if (!IsIdentifierLike()) SyntaxError(Peek(), "expected a field name");
        std::string field = Next().text;  // any word: STRUCT<key: STRING, value: INT>
        AcceptOp(":");
        fields.emplace_back(std::move(field), ParseType());
      } while (AcceptOp(","));
    }
    ExpectOp(close);
    type = LogicalType::Struct(std::move(fields));
  } else if (name == "DECIMAL" || name == "NUMERIC" || name == "DEC" || name == "NUMBER") {
    // Spark's default precision when none is given.
    int64_t width = 10;
    int64_t scale = 0;
    if (AcceptOp("(")) {
      uint32_t at = Peek().offset;
      width = ParseIntegerLiteral("the DECIMAL precision");
      if (AcceptOp(",")) scale = ParseIntegerLiteral("the DECIMAL scale");
      ExpectOp(")");
      if (width < 1 || width > 38) ErrorAt(at, "DECIMAL precision must be between 1 and 38, got " + std::to_string(width));
      if (scale < 0 || scale > width) {
        ErrorAt(at, "DECIMAL scale must be between 0 and the precision " + std::to_string(width) + ", got " +
                        std::to_string(scale));
      }
    }
    type = LogicalType::Decimal(static_cast<uint8_t>(width), static_cast<uint8_t>(scale));
  } else {
    if (name == "DOUBLE") AcceptKeyword("PRECISION");
    if ((name == "CHARACTER" || name == "CHAR") && AcceptKeyword("VARYING")) name = "VARCHAR";
    if (name == "CHARACTER") name = "CHAR";
    type = TypeFromName(name);
    if (type.id() == TypeId::INVALID) {
      ErrorAt(t.offset, "type \"" + t.text +
                            "\" does not exist (use INT, BIGINT, DOUBLE, DECIMAL(p,s), STRING, BOOLEAN, DATE, "
                            "TIMESTAMP, TIMESTAMP_NTZ, ARRAY<...>, MAP<...> or STRUCT<...>)");
    }
    // VARCHAR(n), CHAR(n): the length is accepted and ignored (strings are unbounded).
    if (type.id() == TypeId::VARCHAR && AcceptOp("(")) {
      ParseIntegerLiteral("the string length");
      ExpectOp(")");
    }
    // TIMESTAMP WITH [LOCAL] TIME ZONE is an instant (TIMESTAMP); WITHOUT is
    // a wall clock (TIMESTAMP_NTZ), as the SQL standard and Spark read them.
    if (type.id() == TypeId::TIMESTAMP && name == "TIMESTAMP") {
      if (IsKeyword("WITH") && IsKeyword("TIME", 1) && IsKeyword("ZONE", 2)) {
        Next();
        Next();
        Next();
      } else if (IsKeyword("WITH") && IsKeyword("LOCAL", 1) && IsKeyword("TIME", 2) && IsKeyword("ZONE", 3)) {
        for (int i = 0; i < 4; i++) Next();
      } else if (IsKeyword("WITHOUT") && IsKeyword("TIME", 1) && IsKeyword("ZONE", 2)) {
        Next();
        Next();
        Next();
        type = TypeId::TIMESTAMP_NTZ;
      }
    }
  }
  // INT[] / INT[][]
  while (IsOp("[") && IsOp("]", 1)) {
    Next();
    Next();
    type = LogicalType::List(type);
  }
  return type;
}

}  // namespace lakestream
