// Nested-data syntax: Databricks' JSON path `raw:a.b[0]` and lambda
// arguments `x -> x + 1` (the postfix loop itself is in parse_expression.cpp).
#include <algorithm>
#include <cctype>

#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

ExprPtr MakeExpr(ExpressionType type, uint32_t location) { return std::make_unique<ParsedExpression>(type, location); }

}  // namespace

// raw:a.b[0]['c'] -> get_json_object(raw, '$.a.b[0][\'c\']') (Databricks' `:`
// operator; the result is VARCHAR, strings unquoted, NULL for a missing path).
ExprPtr ParserImpl::ParseJsonPath(ExprPtr json) {
  uint32_t location = Next().offset;
  std::string path = "$";
  bool first = true;
  while (true) {
    if (IsOp("[")) {
      Next();
      const Token& t = Peek();
      if (t.type == TokenType::NUMBER) {
        path += "[" + Next().text + "]";
      } else if (t.type == TokenType::STRING) {
        path += "['" + Next().text + "']";
      } else if (IsOp("*")) {
        Next();
        path += "[*]";
      } else {
        SyntaxError(t, "expected an index or a quoted key in a JSON path, e.g. raw:a[0] or raw:['a']");
      }
      ExpectOp("]");
    } else if ((first && IsIdentifierLike()) || (IsOp(".") && IsIdentifierLike(1))) {
      if (!first) Next();
      const std::string& key = Next().text;
      bool plain = std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
      path += plain ? "." + key : "['" + key + "']";
    } else {
      break;
    }
    first = false;
  }
  auto call = MakeExpr(ExpressionType::FUNCTION, location);
  call->function_name = "get_json_object";
  call->children.push_back(std::move(json));
  call->children.push_back([&] {
    auto c = MakeExpr(ExpressionType::CONSTANT, location);
    c->value = Value::VARCHAR(path);
    return c;
  }());
  call->arg_names.assign(2, "");
  return Finish(std::move(call));
}

// `x -> body` or `(x, y) -> body` at the start of a function argument; null
// (nothing consumed) when the argument is not a lambda.
ExprPtr ParserImpl::TryParseLambda() {
  std::vector<std::string> params;
  uint32_t location = Peek().offset;
  if (IsIdentifierLike() && IsOp("->", 1)) {
    params.push_back(Next().text);
  } else if (IsOp("(")) {
    size_t k = 1;
    while (true) {
      if (!IsIdentifierLike(k)) return nullptr;
      if (IsOp(")", k + 1)) break;
      if (!IsOp(",", k + 1)) return nullptr;
      k += 2;
    }
    if (!IsOp("->", k + 2)) return nullptr;
    Next();
    do {
      params.push_back(Next().text);
    } while (AcceptOp(","));
    ExpectOp(")");
  } else {
    return nullptr;
  }
  ExpectOp("->");
  auto lambda = MakeExpr(ExpressionType::LAMBDA, location);
  lambda->names = std::move(params);
  lambda->children.push_back(ParseExpression());
  return Finish(std::move(lambda));
}

std::unique_ptr<TableRef> ParserImpl::ParseLateralView(std::unique_ptr<TableRef> left) {
  uint32_t location = Next().offset;
  Next();  // VIEW
  bool outer = AcceptKeyword("OUTER");
  if (!IsIdentifierLike() || !IsOp("(", 1)) SyntaxError(Peek(), "expected a generator call after LATERAL VIEW, e.g. explode(arr)");
  auto generator = std::make_unique<TableRef>(TableRefType::TABLE_FUNCTION);
  generator->location = Peek().offset;
  std::string name = Next().text;
  generator->function = ParseFunctionCall(std::move(name), generator->location);
  if (IsIdentifierLike() && !IsKeyword("AS") && !IsReservedWord(Peek(), true)) generator->alias = Next().text;
  bool as = AcceptKeyword("AS");
  if (as || (IsIdentifierLike() && !IsReservedWord(Peek(), true))) {
    do {
      generator->column_aliases.push_back(ParseIdentifier("a column name for the generator's output"));
    } while (AcceptOp(","));
  }
  Finish(*generator);
  auto join = std::make_unique<TableRef>(TableRefType::JOIN);
  join->location = location;
  join->join_type = outer ? JoinType::LEFT : JoinType::CROSS;
  join->left = std::move(left);
  join->right = std::move(generator);
  Finish(*join);
  return join;
}

}  // namespace lakestream
