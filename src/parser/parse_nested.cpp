// Nested-data syntax: Databricks' JSON path `raw:a.b[0]`, lambda arguments
// `x -> x + 1`, DuckDB's list and struct literals ([1, 2], {'a': 1},
// struct_pack(a := 1)) and its * EXCLUDE / REPLACE (the postfix loop itself
// is in parse_expression.cpp).
#include <algorithm>
#include <cctype>

#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

ExprPtr MakeExpr(ExpressionType type, uint32_t location) { return std::make_unique<ParsedExpression>(type, location); }

ExprPtr MakeConstant(Value value, uint32_t location) {
  auto expr = MakeExpr(ExpressionType::CONSTANT, location);
  expr->value = std::move(value);
  return expr;
}

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
    // f(j -> 'key') is JSON extraction: a lambda's body is never a bare
    // string literal (DuckDB reads it the same way).
    if (Peek(2).type == TokenType::STRING) return nullptr;
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

ExprPtr ParserImpl::ParseListLiteral() {
  uint32_t location = Peek().offset;
  ExpectOp("[");
  auto list = MakeExpr(ExpressionType::FUNCTION, location);
  list->function_name = "list_value";
  if (IsOp("]")) {
    ErrorAt(location, "an empty list literal [] has no element type; write CAST(list_value() AS INT[]) or give elements");
  }
  do {
    if (IsOp("]")) break;  // a trailing comma, as DuckDB allows
    list->children.push_back(ParseExpression());
    list->arg_names.emplace_back();
  } while (AcceptOp(","));
  if (!AcceptOp("]")) SyntaxError(Peek(), "expected ',' or ']' in a list literal");
  return Finish(std::move(list));
}

// MAP {k1: v1, ...} is map_from_entries(array(struct(k1, v1), ...)): map()
// itself cannot take it, as map(LIST, LIST) is ambiguous (see BindMap).
ExprPtr ParserImpl::ParseMapLiteral(uint32_t location) {
  ExpectOp("{");
  auto entries = MakeExpr(ExpressionType::FUNCTION, location);
  entries->function_name = "array";
  if (!IsOp("}")) {
    do {
      auto entry = MakeExpr(ExpressionType::FUNCTION, Peek().offset);
      entry->function_name = "struct";
      bool saved = map_key_;
      map_key_ = true;
      auto key = ParseExpression();
      map_key_ = saved;
      entry->children.push_back(std::move(key));
      ExpectOp(":");
      entry->children.push_back(ParseExpression());
      entry->arg_names.assign(2, "");
      entries->children.push_back(Finish(std::move(entry)));
    } while (AcceptOp(","));
  }
  if (!AcceptOp("}")) SyntaxError(Peek(), "expected ',' or '}' in a map literal MAP {key: value, ...}");
  auto map = MakeExpr(ExpressionType::FUNCTION, location);
  if (entries->children.empty()) {
    map->function_name = "map";  // MAP {}: map() is the empty map
    return Finish(std::move(map));
  }
  entries->arg_names.assign(entries->children.size(), "");
  map->function_name = "map_from_entries";
  map->children.push_back(Finish(std::move(entries)));
  map->arg_names.assign(1, "");
  return Finish(std::move(map));
}

ExprPtr ParserImpl::ParseStructLiteral() {
  uint32_t location = Peek().offset;
  ExpectOp("{");
  auto pack = MakeExpr(ExpressionType::FUNCTION, location);
  pack->function_name = "named_struct";
  do {
    if (IsOp("}")) break;
    const Token& key = Peek();
    if (key.type != TokenType::STRING && !IsIdentifierLike()) {
      SyntaxError(key, "expected a field name ('name' or name) in a struct literal {'name': value}");
    }
    uint32_t at = key.offset;
    pack->children.push_back(Finish(MakeConstant(Value::VARCHAR(Next().text), at)));
    ExpectOp(":");
    pack->children.push_back(ParseExpression());
    pack->arg_names.resize(pack->children.size());
  } while (AcceptOp(","));
  if (!AcceptOp("}")) SyntaxError(Peek(), "expected ',' or '}' in a struct literal");
  if (pack->children.empty()) ErrorAt(location, "an empty struct literal {} has no fields; give at least one 'name': value");
  return Finish(std::move(pack));
}

void ParserImpl::RewriteStructPack(ParsedExpression& call) {
  std::vector<ExprPtr> values = std::move(call.children);
  std::vector<std::string> names = std::move(call.arg_names);
  call.children.clear();
  call.arg_names.clear();
  for (size_t i = 0; i < values.size(); i++) {
    std::string name = i < names.size() ? names[i] : "";
    if (name.empty() && values[i]->type == ExpressionType::COLUMN_REF) name = values[i]->names.back();
    if (name.empty()) name = values[i]->alias;
    if (name.empty()) {
      ErrorAt(values[i]->location, "struct_pack() names each field: struct_pack(name := value, ...)");
    }
    call.children.push_back(Finish(MakeConstant(Value::VARCHAR(name), values[i]->location)));
    values[i]->alias.clear();
    call.children.push_back(std::move(values[i]));
  }
  call.arg_names.assign(call.children.size(), "");
  call.function_name = "named_struct";
}

void ParserImpl::ParseStarModifiers(ParsedExpression& star) {
  // EXCLUDE (DuckDB, Snowflake) / EXCEPT (Spark, Databricks): the columns left out.
  bool exclude = IsKeyword("EXCLUDE") || (IsKeyword("EXCEPT") && IsOp("(", 1) && !IsKeyword("SELECT", 2));
  if (exclude) {
    Next();
    bool parenthesised = AcceptOp("(");
    do {
      star.star_exclude.push_back(ParseIdentifier("a column name in EXCLUDE"));
    } while (parenthesised && AcceptOp(","));
    if (parenthesised) ExpectOp(")");
  }
  if (IsKeyword("REPLACE") && IsOp("(", 1)) {
    Next();
    ExpectOp("(");
    do {
      auto replacement = ParseExpression();
      ExpectKeyword("AS");
      replacement->alias = ParseIdentifier("the name of the column REPLACE replaces, after AS");
      star.children.push_back(std::move(replacement));
    } while (AcceptOp(","));
    ExpectOp(")");
  }
}

}  // namespace lakestream
