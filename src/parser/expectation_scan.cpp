#include "common/string_util.hpp"
#include "parser/expectations.hpp"
#include "parser/lexer.hpp"

namespace lakestream {

namespace {

bool IsWord(const Token& token, const char* word) {
  return token.type == TokenType::IDENTIFIER && StringUtil::CIEquals(token.text, word);
}

bool IsOp(const Token& token, const char* op) { return token.type == TokenType::OPERATOR && token.text == op; }

}  // namespace

std::vector<ExpectationDefinition> ScanExpectations(const std::string& create_text) {
  std::vector<ExpectationDefinition> out;
  auto tokens = Lexer::Tokenize(create_text);
  // The declaration's list is the first parenthesis, before AS.
  size_t i = 0;
  while (i < tokens.size() && !IsOp(tokens[i], "(") && !IsWord(tokens[i], "AS")) i++;
  if (i >= tokens.size() || !IsOp(tokens[i], "(")) return out;
  int depth = 0;
  for (; i < tokens.size(); i++) {
    const Token& t = tokens[i];
    if (IsOp(t, "(")) depth++;
    if (IsOp(t, ")") && --depth == 0) break;
    // CONSTRAINT name EXPECT ( ... ) at the list's own level.
    if (depth != 1 || !IsWord(t, "CONSTRAINT") || i + 3 >= tokens.size() || !IsWord(tokens[i + 2], "EXPECT") ||
        !IsOp(tokens[i + 3], "(")) {
      continue;
    }
    ExpectationDefinition e;
    e.name = tokens[i + 1].text;
    size_t open = i + 3, j = open;
    int inner = 0;
    for (; j < tokens.size(); j++) {
      if (IsOp(tokens[j], "(")) inner++;
      if (IsOp(tokens[j], ")") && --inner == 0) break;
    }
    if (j >= tokens.size()) break;
    if (j > open + 1) e.condition = create_text.substr(tokens[open + 1].offset, tokens[j - 1].end - tokens[open + 1].offset);
    i = j;
    if (i + 2 < tokens.size() && IsWord(tokens[i + 1], "ON") && IsWord(tokens[i + 2], "VIOLATION") && i + 3 < tokens.size()) {
      e.action = IsWord(tokens[i + 3], "DROP") ? ExpectationAction::DROP_ROW : ExpectationAction::FAIL_UPDATE;
      i += 4;  // ON VIOLATION DROP ROW / FAIL UPDATE
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace lakestream
