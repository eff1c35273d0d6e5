#include "common/secret/secret_redact.hpp"

#include <cctype>

#include "common/secret/secret.hpp"

namespace lakestream {

static bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The end of the quoted run starting at `i` (sql[i] is the quote), past the
// closing quote; a doubled quote is part of the text.
static size_t QuotedEnd(const std::string& sql, size_t i, char quote) {
  size_t j = i + 1;
  while (j < sql.size()) {
    if (sql[j] == quote) {
      if (j + 1 < sql.size() && sql[j + 1] == quote) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    j++;
  }
  return sql.size();
}

std::string RedactSecrets(const std::string& sql, uint32_t* offset) {
  const uint32_t original = offset ? *offset : 0;
  std::string out;
  out.reserve(sql.size());
  std::string key;           // the last word or quoted text, lower case
  bool key_sensitive = false;  // ... and a string literal after it (past '=' / '=>') is a credential
  size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      out += c;
      i++;
      continue;
    }
    if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {  // a comment runs to the end of the line
      size_t e = sql.find('\n', i);
      e = e == std::string::npos ? sql.size() : e;
      out.append(sql, i, e - i);
      i = e;
      continue;
    }
    if (c == '\'' || c == '"') {
      size_t e = QuotedEnd(sql, i, c);
      if (c == '\'' && key_sensitive) {
        if (offset && original >= e) {
          *offset = static_cast<uint32_t>(*offset + 10 - (e - i));
        } else if (offset && original > i) {
          *offset = static_cast<uint32_t>(out.size());
        }
        out += "'redacted'";
        key_sensitive = false;
      } else {
        std::string text = sql.substr(i + 1, e - i - 2 < sql.size() ? e - i - 2 : 0);
        out.append(sql, i, e - i);
        key_sensitive = IsSensitiveKey("kafka", text) || IsSensitiveKey("s3", text);
      }
      i = e;
      continue;
    }
    if (IsWordChar(c)) {
      size_t e = i;
      while (e < sql.size() && IsWordChar(sql[e])) e++;
      key = sql.substr(i, e - i);
      key_sensitive = IsSensitiveKey("kafka", key) || IsSensitiveKey("s3", key);
      out.append(sql, i, e - i);
      i = e;
      continue;
    }
    // '=' and '=>' keep a key's claim on the value that follows; anything else ends it.
    if (c == '=' || (c == '>' && i > 0 && sql[i - 1] == '=')) {
      out += c;
      i++;
      continue;
    }
    key_sensitive = false;
    out += c;
    i++;
  }
  return out;
}

}  // namespace lakestream
