// SQL-standard calls whose arguments are separated by keywords, not commas.
//
//   EXTRACT '(' field FROM expr ')'                         -> date_part('field', expr)
//   SUBSTRING '(' expr FROM expr [FOR expr] ')'             -> substring(s, start[, length])
//   SUBSTRING '(' expr FOR expr ')'                         -> substring(s, 1, length)
//   POSITION '(' concat_expr IN expr ')'                    -> position(needle, s)
//   TRIM '(' [LEADING|TRAILING|BOTH] [expr] FROM expr ')'   -> trim|ltrim|rtrim(s[, characters])
//   OVERLAY '(' expr PLACING expr FROM expr [FOR expr] ')'  -> overlay(s, replacement, start[, length])
//
// Each becomes the plain call of the same function, so the binder and the
// functions see one form; the comma forms (substring(s, 1, 2), trim(s),
// position(a, b)) keep parsing as ordinary calls (IsStandardCall is false).
#include "parser/parser.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

ExprPtr MakeCall(const char* name, uint32_t location) {
  auto expr = std::make_unique<ParsedExpression>(ExpressionType::FUNCTION, location);
  expr->function_name = name;
  return expr;
}

ExprPtr MakeConstantAt(Value value, uint32_t location) {
  auto expr = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, location);
  expr->value = std::move(value);
  return expr;
}

void AddArgument(ParsedExpression& call, ExprPtr argument) {
  call.children.push_back(std::move(argument));
  call.arg_names.emplace_back();
}

}  // namespace

bool ParserImpl::IsStandardCall() const {
  // At the function name, with '(' next.
  const char* separators[4] = {nullptr, nullptr, nullptr, nullptr};
  if (IsKeyword("SUBSTRING") || IsKeyword("SUBSTR")) {
    separators[0] = "FROM";
    separators[1] = "FOR";
  } else if (IsKeyword("POSITION")) {
    separators[0] = "IN";
  } else if (IsKeyword("TRIM")) {
    if (IsKeyword("LEADING", 2) || IsKeyword("TRAILING", 2) || IsKeyword("BOTH", 2)) return true;
    separators[0] = "FROM";
  } else if (IsKeyword("OVERLAY")) {
    separators[0] = "PLACING";
  } else {
    return false;
  }
  // A separator keyword at the call's own parenthesis depth, before the first comma.
  int depth = 0;
  for (size_t k = 1;; k++) {
    const Token& t = Peek(k);
    if (t.type == TokenType::END_OF_INPUT) return false;
    if (IsOp("(", k) || IsOp("[", k)) {
      depth++;
    } else if (IsOp(")", k) || IsOp("]", k)) {
      if (--depth == 0) return false;
    } else if (depth == 1) {
      if (IsOp(",", k)) return false;
      for (const char* keyword : separators) {
        if (keyword != nullptr && IsKeyword(keyword, k)) return true;
      }
    }
  }
}

ExprPtr ParserImpl::ParseStandardCall(uint32_t location) {
  std::string name = ToLowerAscii(Next().text);
  ExpectOp("(");
  ExprPtr call;
  if (name == "substring" || name == "substr") {
    call = MakeCall("substring", location);
    AddArgument(*call, ParseExpression());
    if (AcceptKeyword("FROM")) {
      AddArgument(*call, ParseExpression());
    } else {
      AddArgument(*call, Finish(MakeConstantAt(Value::BIGINT(1), Peek().offset)));
    }
    if (AcceptKeyword("FOR")) AddArgument(*call, ParseExpression());
    if (call->children.size() == 2 && !IsOp(")")) SyntaxError(Peek(), "expected FOR or ')' in SUBSTRING(s FROM start FOR length)");
  } else if (name == "position") {
    call = MakeCall("position", location);
    // The needle is parsed below the predicate level: its IN is the separator.
    AddArgument(*call, ParseConcat());
    ExpectKeyword("IN");
    AddArgument(*call, ParseExpression());
  } else if (name == "trim") {
    const char* function = "trim";
    if (AcceptKeyword("LEADING")) {
      function = "ltrim";
    } else if (AcceptKeyword("TRAILING")) {
      function = "rtrim";
    } else {
      AcceptKeyword("BOTH");
    }
    call = MakeCall(function, location);
    ExprPtr characters;
    if (!IsKeyword("FROM")) characters = ParseExpression();
    ExpectKeyword("FROM");
    AddArgument(*call, ParseExpression());
    if (characters) AddArgument(*call, std::move(characters));
  } else {  // overlay
    call = MakeCall("overlay", location);
    AddArgument(*call, ParseExpression());
    ExpectKeyword("PLACING");
    AddArgument(*call, ParseExpression());
    ExpectKeyword("FROM");
    AddArgument(*call, ParseExpression());
    if (AcceptKeyword("FOR")) AddArgument(*call, ParseExpression());
  }
  if (!AcceptOp(")")) SyntaxError(Peek(), "expected ')' after the arguments of " + ToUpperAscii(name));
  return ParseCallModifiers(std::move(call));
}

ExprPtr ParserImpl::ParseExtract(uint32_t location) {
  // EXTRACT(field FROM x) -> date_part('field', x); the field is lower-cased.
  ExpectOp("(");
  const Token& field = Peek();
  if (field.type != TokenType::IDENTIFIER && field.type != TokenType::STRING &&
      field.type != TokenType::QUOTED_IDENTIFIER) {
    SyntaxError(field, "expected a date part such as YEAR, MONTH or DAY");
  }
  Next();
  auto expr = MakeCall("date_part", location);
  expr->children.push_back(Finish(MakeConstantAt(Value::VARCHAR(ToLowerAscii(field.text)), field.offset)));
  ExpectKeyword("FROM");
  expr->children.push_back(ParseExpression());
  expr->arg_names.assign(2, "");
  ExpectOp(")");
  return Finish(std::move(expr));
}

}  // namespace lakestream
