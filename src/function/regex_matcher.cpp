#include "function/regex_matcher.hpp"

#include <re2/re2.h>

#include "common/exception.hpp"

namespace lakestream {

namespace {

// A pattern (or RE2's message quoting it) as errors show it: a
// 30,000-character pattern would bury the message.
std::string Shown(std::string_view text) {
  constexpr size_t kMax = 80;
  if (text.size() <= kMax) return std::string(text);
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) cut--;  // not inside a character
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

[[noreturn]] void Unsupported(const std::string& feature, std::string_view pattern, const std::string& function) {
  throw NotImplementedError(feature + " in regular expression '" + Shown(pattern) + "' (" + function +
                            " matches with RE2, which runs in time linear in the input and has no such feature); "
                            "rewrite the pattern without it");
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The end of a valid {n}, {n,} or {n,m} quantifier starting at p[i] == '{'
// (past the '}'), or 0 when the brace is a literal (as RE2 and Java read it).
size_t QuantifierEnd(std::string_view p, size_t i) {
  size_t j = i + 1;
  size_t digits = j;
  while (j < p.size() && IsDigit(p[j])) j++;
  if (j == digits) return 0;
  if (j < p.size() && p[j] == ',') {
    j++;
    while (j < p.size() && IsDigit(p[j])) j++;
  }
  return j < p.size() && p[j] == '}' ? j + 1 : 0;
}

// Appends the escape at p[i] == '\\' (translated) and returns the index past it.
size_t TranslateEscape(std::string_view p, size_t i, bool in_class, std::string& out, const std::string& function) {
  if (i + 1 >= p.size()) {  // a trailing backslash: RE2 reports it
    out += '\\';
    return i + 1;
  }
  char c = p[i + 1];
  if (!in_class && c >= '1' && c <= '9') Unsupported(std::string("backreference \\") + c, p, function);
  if (!in_class && c == 'k' && i + 2 < p.size() && p[i + 2] == '<') Unsupported("named backreference \\k<...>", p, function);
  if (c == 'u' && i + 5 < p.size() && IsHex(p[i + 2]) && IsHex(p[i + 3]) && IsHex(p[i + 4]) && IsHex(p[i + 5])) {
    out += "\\x{";
    out.append(p.substr(i + 2, 4));
    out += '}';
    return i + 6;
  }
  out.append(p.substr(i, 2));
  return i + 2;
}

// Appends the character class at p[i] == '[' and returns the index past its ']'.
size_t TranslateClass(std::string_view p, size_t i, std::string& out, const std::string& function) {
  out += '[';
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') out += p[j++];
  if (j < p.size() && p[j] == ']') out += p[j++];  // a ']' first is literal
  while (j < p.size() && p[j] != ']') {
    if (p[j] == '\\') {
      j = TranslateEscape(p, j, true, out, function);
    } else if (p[j] == '[' && j + 1 < p.size() && p[j + 1] == ':') {  // [:alpha:]
      size_t close = p.find(":]", j + 2);
      size_t end = close == std::string_view::npos ? p.size() : close + 2;
      out.append(p.substr(j, end - j));
      j = end;
    } else {
      out += p[j++];
    }
  }
  if (j < p.size()) out += p[j++];  // ']'; without it RE2 reports the missing bracket
  return j;
}

}  // namespace

std::string TranslateRegex(std::string_view p, const std::string& function) {
  std::string out;
  out.reserve(p.size() + 8);
  int depth = 0;
  size_t i = 0;
  while (i < p.size()) {
    char c = p[i];
    switch (c) {
      case '\\':
        i = TranslateEscape(p, i, false, out, function);
        continue;
      case '[':
        i = TranslateClass(p, i, out, function);
        continue;
      case '(': {
        if (++depth > kRegexMaxNesting) {
          throw InvalidInputError(function + ": regular expression '" + Shown(p) + "' nests groups more than " +
                                  std::to_string(kRegexMaxNesting) + " deep; flatten it");
        }
        if (i + 2 < p.size() && p[i + 1] == '?') {
          char kind = p[i + 2];
          bool behind = kind == '<' && i + 3 < p.size() && (p[i + 3] == '=' || p[i + 3] == '!');
          if (kind == '=' || kind == '!') Unsupported(kind == '=' ? "lookahead (?=" : "negative lookahead (?!", p, function);
          if (behind) Unsupported(p[i + 3] == '=' ? "lookbehind (?<=" : "negative lookbehind (?<!", p, function);
          if (kind == '>') Unsupported("atomic group (?>", p, function);
          if (kind == '(') Unsupported("conditional (?(", p, function);
          if (kind == '<') {  // Java's named group
            out += "(?P<";
            i += 3;
            continue;
          }
        }
        out += c;
        i++;
        continue;
      }
      case ')':
        if (depth > 0) depth--;
        out += c;
        i++;
        continue;
      case '*':
      case '+':
      case '?':
        out += c;
        i++;
        if (i < p.size() && p[i] == '+') Unsupported(std::string("possessive quantifier ") + c + "+", p, function);
        continue;
      case '{': {
        size_t end = QuantifierEnd(p, i);
        if (end == 0) break;
        out.append(p.substr(i, end - i));
        i = end;
        if (i < p.size() && p[i] == '+') Unsupported("possessive quantifier {n}+", p, function);
        continue;
      }
      default: break;
    }
    out += c;
    i++;
  }
  return out;
}

RegexOptions ParseRegexOptions(std::string_view options, bool allow_global, const std::string& function) {
  RegexOptions parsed;
  for (char c : options) {
    switch (c) {
      case 'c': parsed.case_insensitive = false; break;
      case 'i': parsed.case_insensitive = true; break;
      case 's': parsed.dot_matches_newline = true; break;
      case 'm':
      case 'n':
      case 'p': parsed.dot_matches_newline = false; break;
      case 'g':
        if (allow_global) {
          parsed.global = true;
          break;
        }
        [[fallthrough]];
      default:
        throw InvalidInputError(function + ": unknown regular expression option '" + std::string(1, c) + "' in '" +
                                Shown(options) + "'; the options are c, i, s, m, n, p" + (allow_global ? ", g" : ""));
    }
  }
  return parsed;
}

RegexMatcher::RegexMatcher(std::string_view pattern, const std::string& function, const RegexOptions& regex_options)
    : global_(regex_options.global), function_(function) {
  std::string translated = TranslateRegex(pattern, function);
  RE2::Options options;
  options.set_log_errors(false);  // errors become exceptions, not stderr lines
  options.set_never_capture(!regex_options.capture);
  options.set_case_sensitive(!regex_options.case_insensitive);
  options.set_dot_nl(regex_options.dot_matches_newline);
  options.set_max_mem(kRegexMaxMemory);
  re_ = std::make_unique<RE2>(translated, options);
  if (re_->ok()) return;
  if (re_->error_code() == RE2::ErrorPatternTooLarge) {
    throw InvalidInputError(function + ": regular expression '" + Shown(pattern) + "' is too large: its program needs more than " +
                            std::to_string(kRegexMaxMemory >> 20) + " MB; use a shorter pattern or smaller repetition counts");
  }
  throw InvalidInputError("Invalid regular expression '" + Shown(pattern) + "' in " + function + ": " + Shown(re_->error()) +
                          " (RE2 syntax, as DuckDB; see https://github.com/google/re2/wiki/Syntax)");
}

RegexMatcher::~RegexMatcher() = default;

bool RegexMatcher::Find(std::string_view input) const {
  return RE2::PartialMatch(re2::StringPiece(input.data(), input.size()), *re_);
}

bool RegexMatcher::FullMatch(std::string_view input) const {
  return RE2::FullMatch(re2::StringPiece(input.data(), input.size()), *re_);
}

void RegexMatcher::Replace(std::string_view input, std::string_view rewrite, std::string& out) const {
  out.assign(input);
  const re2::StringPiece with(rewrite.data(), rewrite.size());
  if (global_) {
    RE2::GlobalReplace(&out, *re_, with);
  } else {
    RE2::Replace(&out, *re_, with);
  }
}

std::string_view RegexMatcher::Extract(std::string_view input, int group) const {
  re2::StringPiece groups[kMaxExtractGroups + 1];
  if (!re_->Match(re2::StringPiece(input.data(), input.size()), 0, input.size(), RE2::UNANCHORED, groups, group + 1)) {
    return {};
  }
  return {groups[group].data(), groups[group].size()};
}

}  // namespace lakestream
