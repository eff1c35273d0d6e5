// Regular expressions of the regexp_* functions (regexp_like, rlike,
// regexp_matches, regexp_full_match, regexp_replace, regexp_extract), on RE2.
//
// RE2 matches in time linear in the input and in memory bounded by
// kRegexMaxMemory, and its parser keeps no recursion on the pattern's depth:
// a hostile pattern or value can neither hang a statement nor crash the
// process (std::regex, used before, recursed once per input character and
// backtracked exponentially on patterns such as (a+)+c).
//
// Patterns are written as in Spark (Java) and DuckDB (RE2). What RE2 has no
// linear-time algorithm for is refused by name with NotImplementedError
// "not supported yet: <feature> in regular expression '<pattern>'":
// backreferences (\1, \k<name>), lookahead and lookbehind ((?=, (?!, (?<=,
// (?<!), atomic groups ((?>), conditionals ((?() and possessive quantifiers
// (a*+). Java/ECMAScript spellings RE2 spells differently are translated:
// named groups (?<name>...) become (?P<name>...), \uXXXX becomes \x{XXXX}.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace lakestream {

// The compiled program of one pattern may use at most this much memory (RE2's
// default, as DuckDB); a larger one is an InvalidInputError ("too large"),
// not a crash. Compiling takes time in proportion, so it stays small.
constexpr int64_t kRegexMaxMemory = int64_t{8} << 20;
// Groups nested deeper than this are refused (RE2 would build them, slowly).
constexpr int kRegexMaxNesting = 1000;
// regexp_extract's group index is 0..9 (as DuckDB).
constexpr int kMaxExtractGroups = 9;

// DuckDB's options string of the regexp functions (their last argument):
// 'c' case-sensitive (the default), 'i' case-insensitive, 's' '.' matches a
// newline, 'm'/'n'/'p' it does not (the default), 'g' every match
// (regexp_replace only; the others refuse it). Any other letter is an
// InvalidInputError naming it.
struct RegexOptions {
  bool case_insensitive = false;
  bool dot_matches_newline = false;
  bool global = false;
  bool capture = false;  // groups are read (replace, extract): not an option letter
};
RegexOptions ParseRegexOptions(std::string_view options, bool allow_global, const std::string& function);

class RegexMatcher {
 public:
  // Compiles `pattern` for the function `function` (named in errors). Throws
  // NotImplementedError for a feature listed above, InvalidInputError for a
  // malformed pattern, one nested deeper than kRegexMaxNesting or one whose
  // program exceeds kRegexMaxMemory.
  RegexMatcher(std::string_view pattern, const std::string& function, const RegexOptions& options = {});
  ~RegexMatcher();
  RegexMatcher(const RegexMatcher&) = delete;
  RegexMatcher& operator=(const RegexMatcher&) = delete;

  // True when the pattern matches somewhere in `input` (Spark's rlike).
  // Thread-safe: one matcher may serve several threads.
  bool Find(std::string_view input) const;
  // True when the pattern matches all of `input`.
  bool FullMatch(std::string_view input) const;
  // `input` with the first match (every match when options.global) replaced
  // by `rewrite`, in which \0..\9 are the match and its groups and \\ is a
  // backslash; `input` unchanged when nothing matches or `rewrite` names a
  // group the pattern lacks (as DuckDB). Needs options.capture.
  void Replace(std::string_view input, std::string_view rewrite, std::string& out) const;
  // Group `group` (0: the whole match, at most kMaxExtractGroups) of the first
  // match; "" when nothing matches or the pattern has fewer groups. Needs
  // options.capture.
  std::string_view Extract(std::string_view input, int group) const;

 private:
  std::unique_ptr<re2::RE2> re_;
  bool global_ = false;
  std::string function_;
};

// `pattern` in RE2's syntax (the translations above); throws as
// RegexMatcher's constructor does for the refused features and the nesting.
std::string TranslateRegex(std::string_view pattern, const std::string& function);

}  // namespace lakestream
