#include "parser/lexer.hpp"

#include <algorithm>
#include <cstring>

#include "common/display_width.hpp"
#include "common/exception.hpp"
#include "lakestream/utf8.hpp"
#include "common/secret/secret_redact.hpp"

namespace lakestream {

std::string FormatErrorAt(const std::string& raw_sql, uint32_t offset, const std::string& raw_message) {
  // Neither the quoted statement nor the message (which may quote the token
  // at fault) shows a literal of a statement that names a credential.
  RedactedSql redacted = RedactStatement(raw_sql, &offset);
  const std::string& sql = redacted.text;
  const std::string message = RedactMessage(raw_message, redacted.hidden);
  if (offset > sql.size()) offset = static_cast<uint32_t>(sql.size());
  size_t line_start = 0;
  size_t line = 1;
  for (size_t i = 0; i < offset; i++) {
    if (sql[i] == '\n') {
      line++;
      line_start = i + 1;
    }
  }
  size_t line_end = sql.find('\n', line_start);
  if (line_end == std::string::npos) line_end = sql.size();
  if (line_end > line_start && sql[line_end - 1] == '\r') line_end--;
  auto is_continuation = [&](size_t i) { return i < sql.size() && (static_cast<unsigned char>(sql[i]) & 0xC0) == 0x80; };
  // A generated statement may be one line of megabytes: show a window of it
  // around the offset, marked with "...", so the message stays readable. The
  // window's edges move to character boundaries so no UTF-8 character is cut.
  constexpr size_t kContext = 60;
  size_t show_begin = offset > line_start + kContext ? offset - kContext : line_start;
  while (show_begin > line_start && is_continuation(show_begin)) show_begin--;
  size_t show_end = std::min(line_end, std::max<size_t>(offset, show_begin) + kContext);
  while (show_end < line_end && is_continuation(show_end)) show_end++;
  std::string prefix = show_begin > line_start ? "..." : "";
  std::string source_line = prefix + sql.substr(show_begin, show_end - show_begin) + (show_end < line_end ? "..." : "");
  // The caret goes under the character at `offset` on a terminal: tabs are
  // copied (so they expand alike), wide characters take two cells.
  std::string caret(prefix.size(), ' ');
  for (size_t i = show_begin; i < offset;) {
    if (sql[i] == '\t') {
      caret += '\t';
      i++;
      continue;
    }
    caret.append(static_cast<size_t>(CodePointWidth(DecodeUtf8(sql, i))), ' ');
  }
  caret += '^';
  // Columns count characters, not bytes.
  size_t column = 1;
  for (size_t i = line_start; i < offset; i++) column += !is_continuation(i);
  return message + " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")\n" + source_line + "\n" +
         caret;
}

void ThrowParserErrorAt(const std::string& sql, uint32_t offset, const std::string& message) {
  throw ParserError(FormatErrorAt(sql, offset, message));
}

namespace {

bool IsIdentStart(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '$'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Two-character operators first so "<=" is not lexed as "<" "=".
const char* const kTwoCharOps[] = {"==", "!=", "<>", "<=", ">=", "||", "::", "=>", "->"};
const char kOneCharOps[] = "=<>+-*/%(),.;[]{}:?";

}  // namespace

std::vector<Token> Lexer::Tokenize(const std::string& sql) {
  // Text is UTF-8 everywhere inside; a literal with other bytes would reach
  // Parquet files and clients that cannot decode it.
  size_t bad = FindInvalidUtf8(sql);
  if (bad != std::string::npos) {
    throw ParserError("the statement is not valid UTF-8 (" + DescribeInvalidUtf8(sql, bad) +
                      "); send the statement as UTF-8 text (convert other encodings first, e.g. with iconv)");
  }
  std::vector<Token> tokens;
  const size_t n = sql.size();
  size_t i = 0;
  auto push = [&](TokenType type, std::string text, size_t begin, size_t end) {
    Token t;
    t.type = type;
    t.text = std::move(text);
    t.offset = static_cast<uint32_t>(begin);
    t.end = static_cast<uint32_t>(end);
    tokens.push_back(std::move(t));
  };
  while (i < n) {
    char c = sql[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      i++;
      continue;
    }
    if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      while (i < n && sql[i] != '\n') i++;
      continue;
    }
    if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      size_t close = sql.find("*/", i + 2);
      if (close == std::string::npos) {
        ThrowParserErrorAt(sql, static_cast<uint32_t>(i), "unterminated /* comment");
      }
      i = close + 2;
      continue;
    }
    size_t begin = i;
    if (c == '\'' || c == '"' || c == '`') {
      // Strings and quoted identifiers: the quote character doubled is an
      // escaped quote ('it''s', "a""b", `a``b`).
      std::string value;
      i++;
      bool closed = false;
      while (i < n) {
        if (sql[i] == c) {
          if (i + 1 < n && sql[i + 1] == c) {
            value += c;
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        value += sql[i++];
      }
      if (!closed) {
        ThrowParserErrorAt(sql, static_cast<uint32_t>(begin),
                           c == '\'' ? "unterminated quoted string" : "unterminated quoted identifier");
      }
      if (c != '\'' && value.empty()) {
        ThrowParserErrorAt(sql, static_cast<uint32_t>(begin), "zero-length quoted identifier");
      }
      push(c == '\'' ? TokenType::STRING : TokenType::QUOTED_IDENTIFIER, std::move(value), begin, i);
      tokens.back().double_quoted = c == '"';
      continue;
    }
    if (IsDigit(c) || (c == '.' && i + 1 < n && IsDigit(sql[i + 1]))) {
      while (i < n && IsDigit(sql[i])) i++;
      if (i < n && sql[i] == '.') {
        i++;
        while (i < n && IsDigit(sql[i])) i++;
      }
      // An exponent only when digits follow, so "1e" stays NUMBER + IDENTIFIER.
      if (i < n && (sql[i] == 'e' || sql[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (sql[j] == '+' || sql[j] == '-')) j++;
        if (j < n && IsDigit(sql[j])) {
          i = j;
          while (i < n && IsDigit(sql[i])) i++;
        }
      }
      push(TokenType::NUMBER, sql.substr(begin, i - begin), begin, i);
      continue;
    }
    if (c == '$' && i + 1 < n && IsDigit(sql[i + 1])) {
      // $1, $2: a numbered parameter (the text keeps the '$').
      i++;
      while (i < n && IsDigit(sql[i])) i++;
      push(TokenType::OPERATOR, sql.substr(begin, i - begin), begin, i);
      continue;
    }
    if (c == '$' && i + 1 < n && IsIdentStart(static_cast<unsigned char>(sql[i + 1]))) {
      // $name: a named parameter (DuckDB's; the text keeps the '$').
      i++;
      while (i < n && IsIdentChar(static_cast<unsigned char>(sql[i])) && sql[i] != '$') i++;
      push(TokenType::OPERATOR, sql.substr(begin, i - begin), begin, i);
      continue;
    }
    if (IsIdentStart(static_cast<unsigned char>(c))) {
      while (i < n && IsIdentChar(static_cast<unsigned char>(sql[i]))) i++;
      push(TokenType::IDENTIFIER, sql.substr(begin, i - begin), begin, i);
      continue;
    }
    if (sql.compare(i, 3, "->>") == 0) {  // JSON text extraction (DuckDB, Postgres)
      push(TokenType::OPERATOR, "->>", begin, i + 3);
      i += 3;
      continue;
    }
    bool matched = false;
    if (i + 1 < n) {
      for (const char* op : kTwoCharOps) {
        if (sql[i] == op[0] && sql[i + 1] == op[1]) {
          push(TokenType::OPERATOR, op, begin, i + 2);
          i += 2;
          matched = true;
          break;
        }
      }
    }
    if (matched) continue;
    if (std::strchr(kOneCharOps, c) != nullptr) {
      push(TokenType::OPERATOR, std::string(1, c), begin, i + 1);
      i++;
      continue;
    }
    // Show the whole UTF-8 sequence, not half a character.
    size_t len = 1;
    while (begin + len < n && (static_cast<unsigned char>(sql[begin + len]) & 0xC0) == 0x80) len++;
    ThrowParserErrorAt(sql, static_cast<uint32_t>(begin),
                       "syntax error at or near \"" + sql.substr(begin, len) + "\"");
  }
  push(TokenType::END_OF_INPUT, "", n, n);
  return tokens;
}

bool Lexer::IsComplete(const std::string& sql) {
  // A small scanner of its own: it must not throw on half-typed input, and it
  // only needs to know whether the last significant character is a ';'.
  const size_t n = sql.size();
  size_t i = 0;
  char last = 0;  // last significant character outside comments
  while (i < n) {
    char c = sql[i];
    if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      while (i < n && sql[i] != '\n') i++;
      continue;
    }
    if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      size_t close = sql.find("*/", i + 2);
      if (close == std::string::npos) return false;
      i = close + 2;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      i++;
      bool closed = false;
      while (i < n) {
        if (sql[i] == c) {
          if (i + 1 < n && sql[i + 1] == c) {
            i += 2;
            continue;
          }
          closed = true;
          i++;
          break;
        }
        i++;
      }
      if (!closed) return false;
      last = c;
      continue;
    }
    if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) last = c;
    i++;
  }
  return last == 0 || last == ';';
}

}  // namespace lakestream
