// SQL LIKE pattern matching: '%' matches any run of characters, '_' exactly
// one UTF-8 character, and the escape character (default '\', as in Spark)
// makes the next character literal. Case-insensitive matching (ILIKE) folds
// both sides with the simple case mapping of function/scalar/utf8.hpp.
//
// A pattern is compiled once (for constant patterns at bind time) into one of
// a few shapes so the common cases are a single memcmp/find:
// 'abc' (equals), 'abc%' (prefix), '%abc' (suffix), '%abc%' (contains),
// literals separated by '%' only ('%a%b%', 'a%b'), searched left to right with
// find (a '%' may absorb anything, so the leftmost match of each literal is
// the one to keep), and the general token matcher for patterns with '_'.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lakestream {

class LikeMatcher {
 public:
  // Throws InvalidInputError when the pattern ends with the escape character
  // or the escape is not a single character. escape == "" disables escaping.
  LikeMatcher(std::string_view pattern, std::string_view escape = "\\", bool case_insensitive = false);

  bool Match(std::string_view input) const;

 private:
  enum class Shape { EQUALS, PREFIX, SUFFIX, CONTAINS, SEGMENTS, GENERAL };
  enum class TokenKind { LITERAL, ANY_ONE, ANY_MANY };
  struct Token {
    TokenKind kind;
    std::string text;
  };
  bool MatchFolded(std::string_view s) const;
  bool MatchGeneral(std::string_view s) const;
  bool MatchSegments(std::string_view s) const;

  Shape shape_ = Shape::GENERAL;
  bool case_insensitive_;
  std::string literal_;  // for the simple shapes
  std::vector<Token> tokens_;
  // SEGMENTS: the literals in order; whether the first is a prefix and the
  // last a suffix (the pattern does not start / end with '%').
  std::vector<std::string> segments_;
  bool anchored_start_ = false;
  bool anchored_end_ = false;
};

}  // namespace lakestream
