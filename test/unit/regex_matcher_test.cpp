// The regexp_* functions' matcher (function/regex_matcher.hpp): translation
// of Java spellings to RE2, the named refusals, the limits, and the kernel's
// interrupt check between rows.
#include <gtest/gtest.h>

#include <string>

#include "common/exception.hpp"
#include "function/regex_matcher.hpp"
#include "function_test_util.hpp"
#include "lakestream.hpp"
#include "main/connection_access.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

TEST(RegexMatcherTest, JavaSpellingsAreTranslated) {
  EXPECT_EQ(TranslateRegex("(?<year>\\d{4})-\\u00e9[\\u0041-\\u005A]", "f"), "(?P<year>\\d{4})-\\x{00e9}[\\x{0041}-\\x{005A}]");
  // Escapes and classes are copied as they are: a '(' or '+' in them is a character.
  EXPECT_EQ(TranslateRegex("\\(?=[(?=]a\\*+", "f"), "\\(?=[(?=]a\\*+");
  EXPECT_EQ(TranslateRegex("a{2,3}b{x}+", "f"), "a{2,3}b{x}+");
  RegexMatcher named("(?<w>ab)+$", "f");
  EXPECT_TRUE(named.Find("xabab"));
  EXPECT_FALSE(named.Find("aba"));
}

TEST(RegexMatcherTest, WhatRe2LacksIsRefusedByName) {
  struct Case {
    const char* pattern;
    const char* feature;
  };
  for (const Case& c : {Case{"(a)\\1", "backreference \\1"}, Case{"(?<n>a)\\k<n>", "named backreference \\k<...>"},
                        Case{"a(?=b)", "lookahead (?="}, Case{"a(?!b)", "negative lookahead (?!"},
                        Case{"(?<=a)b", "lookbehind (?<="}, Case{"(?<!a)b", "negative lookbehind (?<!"},
                        Case{"(?>a+)b", "atomic group (?>"}, Case{"a++", "possessive quantifier ++"},
                        Case{"a?+", "possessive quantifier ?+"}, Case{"a{2}+", "possessive quantifier {n}+"},
                        Case{"(?(1)a|b)", "conditional (?("}}) {
    std::string message = test::ErrorOf<NotImplementedError>([&] { RegexMatcher m(c.pattern, "rlike"); });
    EXPECT_NE(message.find(std::string("not supported yet: ") + c.feature + " in regular expression '" + c.pattern + "' (rlike"),
              std::string::npos)
        << c.pattern << ": " << message;
  }
}

TEST(RegexMatcherTest, LimitsAreErrorsNotCrashes) {
  std::string deep = std::string(30000, '(') + "a" + std::string(30000, ')');
  std::string message = test::ErrorOf<InvalidInputError>([&] { RegexMatcher m(deep, "regexp_like"); });
  EXPECT_NE(message.find("nests groups more than 1000 deep"), std::string::npos) << message;
  EXPECT_LT(message.size(), 300u) << "the pattern is shown cut short";
  std::string big;
  for (int i = 0; i < 200; i++) big += "\\pL{1000}";
  message = test::ErrorOf<InvalidInputError>([&] { RegexMatcher m(big, "regexp_like"); });
  EXPECT_NE(message.find("is too large"), std::string::npos) << message;
  message = test::ErrorOf<InvalidInputError>([&] { RegexMatcher m(std::string(500, '(') + "a", "regexp_like"); });
  EXPECT_NE(message.find("Invalid regular expression"), std::string::npos) << message;
  EXPECT_LT(message.size(), 400u) << message;
}

TEST(RegexMatcherTest, BacktrackingPatternsAreLinear) {
  RegexMatcher m("(a+)+c", "rlike");
  EXPECT_FALSE(m.Find(std::string(1000000, 'a')));
  EXPECT_TRUE(m.Find(std::string(1000000, 'a') + "c"));
}

// The kernel checks the statement's interrupt flag before each row, so a
// chunk of long values stops within one match, not after the whole chunk.
TEST(RegexMatcherTest, KernelStopsOnInterrupt) {
  Database db;
  Connection con(db);
  ClientContext& context = ConnectionAccess::Context(con);
  for (bool constant_pattern : {true, false}) {
    Value pattern("(a|b)*c");
    std::vector<const Value*> constants = {nullptr, constant_pattern ? &pattern : nullptr};
    BoundScalarFunction bound =
        ScalarFunctionRegistry::Get().Bind("regexp_like", {TypeId::VARCHAR, TypeId::VARCHAR}, constants, {});
    DataChunk args;
    args.Initialize(bound.argument_types, STANDARD_VECTOR_SIZE);
    for (idx_t r = 0; r < 4; r++) {
      args.SetValue(0, r, Value(std::string(1000, 'a')));
      args.SetValue(1, r, pattern);
    }
    args.SetCardinality(4);
    Vector result(bound.return_type, STANDARD_VECTOR_SIZE);
    FunctionContext ctx;
    ctx.client = &context;
    bound.kernel(args, result, 4, ctx);  // not interrupted: runs
    EXPECT_EQ(result.GetValue(0), Value::BOOLEAN(false));
    context.Interrupt();
    EXPECT_THROW(bound.kernel(args, result, 4, ctx), InterruptError) << "constant pattern: " << constant_pattern;
    context.ClearInterrupt();
  }
}

}  // namespace
}  // namespace lakestream
