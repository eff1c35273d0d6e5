// Lexer for lakestream SQL: turns the input into a flat vector of tokens.
//
// Keywords are not a token type of their own: a bare word is an IDENTIFIER
// and the parser decides, case-insensitively, whether it is a keyword where a
// keyword may appear. That keeps the dialect open (Spark, Snowflake and
// ClickZetta reserve different words) and lets users name a column `comment`
// or `timestamp` without quoting. Quoted identifiers are never keywords.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lakestream {

enum class TokenType : uint8_t {
  IDENTIFIER,         // bare word (keyword or name); may contain '$' after the first char
  QUOTED_IDENTIFIER,  // `name` or "name"; text has the quotes removed and doubled quotes collapsed
  STRING,             // 'text'; text is the unescaped value
  NUMBER,             // 42, 1.50, .5, 1e3; text as written
  OPERATOR,           // = == != <> < <= > >= + - * / % || :: => ( ) , . ; [ ] : etc.; parameters ? and $n
  END_OF_INPUT,
};

struct Token {
  TokenType type = TokenType::END_OF_INPUT;
  std::string text;
  uint32_t offset = 0;  // byte offset of the first character
  uint32_t end = 0;     // byte offset one past the last character
  // A QUOTED_IDENTIFIER written with double quotes. Spark and Databricks read
  // "text" as a string where only a string can stand (COMMENT "...",
  // TBLPROPERTIES ("k" = "v"), option values); the parser decides by position.
  bool double_quoted = false;
};

class Lexer {
 public:
  // Tokenizes all of `sql`; the last token is always END_OF_INPUT (offset =
  // sql.size()). Throws ParserError for an unterminated string, quoted
  // identifier or comment, and for characters that start no token.
  static std::vector<Token> Tokenize(const std::string& sql);
  // True when `sql` ends with ';' outside strings, quoted identifiers and
  // comments, or holds nothing but whitespace and comments. Never throws.
  static bool IsComplete(const std::string& sql);
};

// "<message> (line L, column C)\n<source line>\n<spaces>^" for a byte offset.
// Line and column are 1-based; the column counts characters. A long line is
// shown as a window of about 60 characters each side of the error (never
// cutting a UTF-8 character); the caret line copies tabs and gives wide
// characters two cells, so the caret stays under the token in a terminal.
// When `sql` names a credential key, its literals are redacted in both the
// source line and `message` (common/secret/secret_redact.hpp).
std::string FormatErrorAt(const std::string& sql, uint32_t offset, const std::string& message);
[[noreturn]] void ThrowParserErrorAt(const std::string& sql, uint32_t offset, const std::string& message);

}  // namespace lakestream
