#include "common/secret/secret_redact.hpp"

#include <algorithm>
#include <cctype>

#include "common/secret/secret.hpp"
#include "common/string_util.hpp"

namespace lakestream {

namespace {

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
// As the SQL lexer's identifiers (letters, digits, '_', '$', any non-ASCII
// byte), plus '.' so a dotted property name (kafka.sasl.password) is one word.
bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool IsWordChar(char c) { return IsWordStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$' || c == '.'; }

enum class Kind { WORD, NUMBER, LITERAL, PUNCT };

struct Token {
  Kind kind;
  size_t begin, end;
  std::string text;  // WORD: the word; LITERAL: the unquoted text; PUNCT: the operator
  char quote = 0;    // LITERAL: its quote character ('$' for dollar quoting)
};

// How a reader might take quoted text: as the SQL lexer does (a doubled quote
// is a quote; E'..' has backslash escapes), or as Spark does (backslash
// escapes in every '..' and ".." string). Redaction takes the union of both.
enum class Escapes { STANDARD, BACKSLASH };

// The end of the quoted run opening at s[i] (past its closing quote, or the
// end of the text when it is not closed); `text` gets the unquoted content.
size_t QuotedEnd(const std::string& s, size_t i, char quote, bool backslash, std::string& text) {
  size_t j = i + 1;
  while (j < s.size()) {
    if (backslash && s[j] == '\\' && j + 1 < s.size()) {
      text += s[j + 1];
      j += 2;
      continue;
    }
    if (s[j] == quote) {
      if (j + 1 < s.size() && s[j + 1] == quote) {
        text += quote;
        j += 2;
        continue;
      }
      return j + 1;
    }
    text += s[j++];
  }
  return s.size();
}

// $tag$ at s[i] (tag empty or an identifier): its length, or 0.
size_t DollarTag(const std::string& s, size_t i) {
  size_t j = i + 1;
  if (j < s.size() && IsWordStart(s[j])) {
    while (j < s.size() && (IsWordStart(s[j]) || std::isdigit(static_cast<unsigned char>(s[j])))) j++;
  }
  return j < s.size() && s[j] == '$' ? j + 1 - i : 0;
}

// The tokens of `s` (comments and blanks dropped). Never fails: an
// unterminated literal or comment runs to the end.
std::vector<Token> Scan(const std::string& s, Escapes escapes) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (IsSpace(c)) {
      i++;
      continue;
    }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      size_t e = s.find('\n', i);
      i = e == std::string::npos ? s.size() : e;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 2;
      continue;
    }
    Token t{Kind::PUNCT, i, i + 1, std::string(1, c)};
    bool e_string = (c == 'e' || c == 'E') && i + 1 < s.size() && s[i + 1] == '\'';
    if (c == '\'' || c == '"' || c == '`' || e_string) {
      size_t open = e_string ? i + 1 : i;
      char quote = s[open];
      bool backslash = e_string || (escapes == Escapes::BACKSLASH && quote != '`');
      t.kind = Kind::LITERAL;
      t.quote = quote;
      t.text.clear();
      t.end = QuotedEnd(s, open, quote, backslash, t.text);
    } else if (size_t tag = c == '$' ? DollarTag(s, i) : 0) {
      size_t close = s.find(s.substr(i, tag), i + tag);
      t.kind = Kind::LITERAL;
      t.quote = '$';
      t.end = close == std::string::npos ? s.size() : close + tag;
      t.text = s.substr(i + tag, (close == std::string::npos ? s.size() : close) - i - tag);
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t e = i + 1;
      while (e < s.size() && (IsWordChar(s[e]) || IsAlnum(s[e]))) e++;  // 1.5e3, 0xFF, 12abc: all of it
      t.kind = Kind::NUMBER;
      t.end = e;
      t.text = s.substr(i, e - i);
    } else if (IsWordStart(c)) {
      size_t e = i + 1;
      while (e < s.size() && IsWordChar(s[e])) e++;
      t.kind = Kind::WORD;
      t.end = e;
      t.text = s.substr(i, e - i);
    } else if ((c == '=' || c == ':') && i + 1 < s.size() && (s[i + 1] == '>' || s[i + 1] == '=')) {
      t.end = i + 2;
      t.text = s.substr(i, 2);
    }
    i = t.end;
    tokens.push_back(std::move(t));
  }
  return tokens;
}

bool IsSeparator(const Token& t) {
  return t.kind == Kind::PUNCT && (t.text == "=" || t.text == "=>" || t.text == ":" || t.text == ":=");
}

bool IsIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsAlnum(c) || c == '_'; });
}

struct Span {
  size_t begin, end;
  char quote;  // of the literal, or 0
};

bool IsKey(const Token& t) { return (t.kind == Kind::WORD || t.kind == Kind::LITERAL) && NamesCredentialKey(t.text); }
bool IsOpen(const Token& t) { return t.kind == Kind::PUNCT && t.text == "("; }

bool EndsValue(const Token& t) { return t.kind == Kind::PUNCT && (t.text == "," || t.text == ")" || t.text == ";"); }
bool IsEnvCall(const std::vector<Token>& tokens, size_t k) {
  return tokens[k].kind == Kind::WORD && StringUtil::Lower(tokens[k].text) == "env" && k + 1 < tokens.size() &&
         IsOpen(tokens[k + 1]);
}

// The spans of `s` one reading (`tokens`) redacts; what they hold goes to `hidden`.
std::vector<Span> SpansToRedact(const std::string& s, const std::vector<Token>& tokens, std::vector<std::string>& hidden) {
  std::vector<Span> spans;
  auto add = [&](size_t begin, size_t end, char quote) {
    spans.push_back({begin, end, quote});
    hidden.push_back(s.substr(begin, end - begin));
  };
  int depth = 0;
  for (size_t k = 0; k < tokens.size(); k++) {
    const Token& t = tokens[k];
    if (t.kind == Kind::PUNCT) depth += t.text == "(" ? 1 : t.text == ")" ? -1 : 0;
    // What follows a key (and its separator, if any) is the key's value.
    size_t key = k;
    bool separated = false;
    if (key > 0 && IsSeparator(tokens[key - 1])) {
      key--;
      separated = true;
    }
    bool is_value = key > 0 && IsKey(tokens[key - 1]);
    bool env_argument = t.kind == Kind::LITERAL && k >= 2 && IsOpen(tokens[k - 1]) && IsEnvCall(tokens, k - 2) &&
                        IsIdentifier(t.text);
    // `= -5` and `'k' -5` start a value; `which_secret(` does not.
    bool starts_value = t.kind == Kind::PUNCT ? !EndsValue(t) && !IsSeparator(t) && (separated || (depth > 0 && !IsOpen(t)))
                                              : separated || depth > 0 || t.kind != Kind::WORD;
    if (is_value && starts_value && !IsEnvCall(tokens, k)) {
      // The value: everything up to the next ',', ')' or ';', as one span,
      // whatever it holds ('x', "x", $$x$$, `= hunter2`, `-12.5`,
      // `'a' 'b' c` of a statement that does not parse).
      size_t end = k;
      for (; end < tokens.size() && !EndsValue(tokens[end]); end++) {
        if (tokens[end].kind != Kind::PUNCT) hidden.push_back(tokens[end].text);
        if (end > k && tokens[end].kind == Kind::PUNCT) depth += tokens[end].text == "(" ? 1 : tokens[end].text == ")" ? -1 : 0;
      }
      add(t.begin, tokens[end - 1].end, end == k + 1 && t.kind == Kind::LITERAL ? t.quote : '\0');
      k = end - 1;
    } else if (t.kind == Kind::NUMBER || (t.kind == Kind::LITERAL && !env_argument && !NamesCredentialKey(t.text))) {
      add(t.begin, t.end, t.kind == Kind::LITERAL ? t.quote : '\0');
      if (t.kind == Kind::LITERAL) hidden.push_back(t.text);
    }
  }
  return spans;
}

bool StandsAlone(const std::string& text, size_t at, size_t len) {
  bool left = at == 0 || !IsAlnum(text[at]) || !(IsAlnum(text[at - 1]) || text[at - 1] == '_');
  size_t end = at + len;
  bool right = end >= text.size() || !IsAlnum(text[end - 1]) || !(IsAlnum(text[end]) || text[end] == '_');
  return left && right;
}

}  // namespace

bool NamesCredentialKey(std::string_view key) {
  std::string k = StringUtil::Lower(std::string(key));
  if (StringUtil::StartsWith(k, "kafka.")) k = k.substr(6);
  if (IsSensitiveKey("kafka", k) || IsSensitiveKey("s3", k)) return true;
  if (StringUtil::StartsWith(k, "sasl.") || StringUtil::StartsWith(k, "sasl_")) return true;
  if (StringUtil::StartsWith(k, "ssl") && k.find("key") != std::string::npos) return true;
  for (const char* word : {"password", "passwd", "secret", "token", "credential", "private_key", "privatekey",
                           "access_key", "api_key", "apikey"}) {
    if (k.find(word) != std::string::npos) return true;
  }
  return k.size() >= 6 && k.compare(k.size() - 6, 6, "key_id") == 0;
}

RedactedSql RedactStatement(const std::string& sql, uint32_t* offset) {
  RedactedSql out;
  std::vector<Token> standard = Scan(sql, Escapes::STANDARD);
  std::vector<Token> backslash = Scan(sql, Escapes::BACKSLASH);
  if (std::none_of(standard.begin(), standard.end(), IsKey) && std::none_of(backslash.begin(), backslash.end(), IsKey)) {
    out.text = sql;
    return out;
  }
  std::vector<Span> spans = SpansToRedact(sql, standard, out.hidden);
  std::vector<Span> more = SpansToRedact(sql, backslash, out.hidden);
  spans.insert(spans.end(), more.begin(), more.end());
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  std::sort(out.hidden.begin(), out.hidden.end());
  out.hidden.erase(std::unique(out.hidden.begin(), out.hidden.end()), out.hidden.end());
  const uint32_t original = offset ? *offset : 0;
  bool offset_moved = false;
  out.text.reserve(sql.size());
  size_t at = 0;
  for (size_t k = 0; k < spans.size();) {
    // Overlapping spans (the two readings disagree) become one replacement.
    Span merged = spans[k++];
    bool single = true;
    while (k < spans.size() && spans[k].begin < merged.end) {
      single = single && spans[k].begin == merged.begin && spans[k].end == merged.end;
      merged.end = std::max(merged.end, spans[k++].end);
    }
    char quote = single && (merged.quote == '"' || merged.quote == '`') ? merged.quote : '\'';
    std::string replacement = std::string(1, quote) + "redacted" + quote;
    out.text.append(sql, at, merged.begin - at);
    if (offset && !offset_moved && original < merged.end) {
      *offset = static_cast<uint32_t>(original <= merged.begin ? out.text.size() - (merged.begin - original)
                                                               : out.text.size());
      offset_moved = true;
    }
    out.text += replacement;
    at = merged.end;
  }
  if (offset && !offset_moved) *offset = static_cast<uint32_t>(out.text.size() + (original - std::min<size_t>(original, at)));
  out.text.append(sql, at, std::string::npos);
  return out;
}

std::string RedactSecrets(const std::string& sql, uint32_t* offset) { return RedactStatement(sql, offset).text; }

std::string RedactMessage(const std::string& message, const std::vector<std::string>& hidden) {
  std::vector<const std::string*> pieces;
  for (auto& h : hidden) {
    if (h.size() >= 3 || std::any_of(h.begin(), h.end(), IsAlnum)) pieces.push_back(&h);
  }
  // Longest first, so a literal is replaced whole before a shorter piece inside it.
  std::sort(pieces.begin(), pieces.end(), [](const std::string* a, const std::string* b) { return a->size() > b->size(); });
  std::string out = message;
  for (const std::string* piece : pieces) {
    size_t at = 0;
    while ((at = out.find(*piece, at)) != std::string::npos) {
      if (!StandsAlone(out, at, piece->size())) {
        at++;
        continue;
      }
      out.replace(at, piece->size(), "redacted");
      at += 8;
    }
  }
  return out;
}

}  // namespace lakestream
