#include "function/like_matcher.hpp"

#include "common/exception.hpp"
#include "function/scalar/utf8.hpp"

namespace lakestream {

LikeMatcher::LikeMatcher(std::string_view raw_pattern, std::string_view escape, bool case_insensitive)
    : case_insensitive_(case_insensitive) {
  if (escape.size() > 1) {
    throw InvalidInputError("LIKE escape must be a single character, got '" + std::string(escape) + "'");
  }
  std::string folded;
  std::string_view pattern = raw_pattern;
  if (case_insensitive) {
    utf8::MapCase<false>(raw_pattern, folded);
    pattern = folded;
  }
  for (size_t i = 0; i < pattern.size();) {
    char c = pattern[i];
    if (!escape.empty() && c == escape[0]) {
      if (i + 1 >= pattern.size()) {
        throw InvalidInputError("LIKE pattern '" + std::string(raw_pattern) +
                                "' ends with the escape character; escape it as well or drop it");
      }
      size_t next = utf8::Next(pattern, i + 1);
      std::string_view lit = pattern.substr(i + 1, next - i - 1);
      if (tokens_.empty() || tokens_.back().kind != TokenKind::LITERAL) tokens_.push_back({TokenKind::LITERAL, ""});
      tokens_.back().text += lit;
      i = next;
    } else if (c == '%') {
      if (tokens_.empty() || tokens_.back().kind != TokenKind::ANY_MANY) tokens_.push_back({TokenKind::ANY_MANY, ""});
      i++;
    } else if (c == '_') {
      tokens_.push_back({TokenKind::ANY_ONE, ""});
      i++;
    } else {
      if (tokens_.empty() || tokens_.back().kind != TokenKind::LITERAL) tokens_.push_back({TokenKind::LITERAL, ""});
      tokens_.back().text.push_back(c);
      i++;
    }
  }
  // Recognise the simple shapes.
  auto is = [&](size_t k, TokenKind kind) { return k < tokens_.size() && tokens_[k].kind == kind; };
  size_t n = tokens_.size();
  if (n == 0) {
    shape_ = Shape::EQUALS;  // '' matches only ''
  } else if (n == 1 && is(0, TokenKind::LITERAL)) {
    shape_ = Shape::EQUALS;
    literal_ = tokens_[0].text;
  } else if (n == 2 && is(0, TokenKind::LITERAL) && is(1, TokenKind::ANY_MANY)) {
    shape_ = Shape::PREFIX;
    literal_ = tokens_[0].text;
  } else if (n == 2 && is(0, TokenKind::ANY_MANY) && is(1, TokenKind::LITERAL)) {
    shape_ = Shape::SUFFIX;
    literal_ = tokens_[1].text;
  } else if (n == 3 && is(0, TokenKind::ANY_MANY) && is(1, TokenKind::LITERAL) && is(2, TokenKind::ANY_MANY)) {
    shape_ = Shape::CONTAINS;
    literal_ = tokens_[1].text;
  } else if (n == 1 && is(0, TokenKind::ANY_MANY)) {
    shape_ = Shape::CONTAINS;  // '%': everything (contains "")
  } else {
    bool percent_only = true;
    for (const Token& t : tokens_) {
      if (t.kind == TokenKind::ANY_ONE) percent_only = false;
      if (t.kind == TokenKind::LITERAL) segments_.push_back(t.text);
    }
    if (percent_only) {
      shape_ = Shape::SEGMENTS;
      anchored_start_ = is(0, TokenKind::LITERAL);
      anchored_end_ = is(n - 1, TokenKind::LITERAL);
    }
  }
}

bool LikeMatcher::Match(std::string_view input) const {
  if (!case_insensitive_) return MatchFolded(input);
  thread_local std::string folded;  // reused: no allocation per row
  utf8::MapCase<false>(input, folded);
  return MatchFolded(folded);
}

bool LikeMatcher::MatchFolded(std::string_view s) const {
  switch (shape_) {
    case Shape::EQUALS: return s == literal_;
    case Shape::PREFIX: return s.substr(0, literal_.size()) == literal_;
    case Shape::SUFFIX: return s.size() >= literal_.size() && s.substr(s.size() - literal_.size()) == literal_;
    case Shape::CONTAINS: return s.find(literal_) != std::string_view::npos;
    case Shape::SEGMENTS: return MatchSegments(s);
    case Shape::GENERAL: return MatchGeneral(s);
  }
  return false;
}

bool LikeMatcher::MatchSegments(std::string_view s) const {
  size_t first = 0, last = segments_.size();
  size_t pos = 0, end = s.size();
  if (anchored_start_) {
    const std::string& head = segments_[first++];
    if (s.substr(0, head.size()) != head) return false;
    pos = head.size();
  }
  if (anchored_end_ && first < last) {
    const std::string& tail = segments_[--last];
    if (end < pos + tail.size() || s.substr(end - tail.size()) != tail) return false;
    end -= tail.size();
  }
  // UTF-8 is self-synchronising: a byte match never starts inside a character.
  std::string_view middle = s.substr(0, end);
  for (size_t k = first; k < last; k++) {
    size_t at = middle.find(segments_[k], pos);
    if (at == std::string_view::npos) return false;
    pos = at + segments_[k].size();
  }
  return true;
}

// Glob matching with backtracking to the last '%' only: a later '%' can absorb
// anything an earlier one could, so this is exact and linear in practice.
bool LikeMatcher::MatchGeneral(std::string_view s) const {
  const size_t npos = static_cast<size_t>(-1);
  size_t ti = 0, si = 0, star_ti = npos, star_si = 0;
  const size_t n = tokens_.size();
  while (si < s.size()) {
    if (ti < n) {
      const Token& t = tokens_[ti];
      if (t.kind == TokenKind::ANY_MANY) {
        star_ti = ti++;
        star_si = si;
        continue;
      }
      if (t.kind == TokenKind::ANY_ONE) {
        si = utf8::Next(s, si);
        ti++;
        continue;
      }
      if (s.compare(si, t.text.size(), t.text) == 0) {
        si += t.text.size();
        ti++;
        continue;
      }
    }
    if (star_ti == npos) return false;
    ti = star_ti + 1;
    star_si = utf8::Next(s, star_si);
    si = star_si;
  }
  while (ti < n && tokens_[ti].kind == TokenKind::ANY_MANY) ti++;
  return ti == n;
}

}  // namespace lakestream
