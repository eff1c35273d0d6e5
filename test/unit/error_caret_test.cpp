// The parser error's excerpt and caret (FormatErrorAt): a window around the
// error on long lines, the caret under the right character on a terminal
// with tabs and wide characters, and columns counted in characters.
#include <gtest/gtest.h>

#include <string>

#include "common/display_width.hpp"
#include "parser/lexer.hpp"

namespace lakestream {
namespace {

// The excerpt and caret lines of a formatted error.
std::pair<std::string, std::string> ExcerptAndCaret(const std::string& formatted) {
  size_t first = formatted.find('\n');
  size_t second = formatted.find('\n', first + 1);
  return {formatted.substr(first + 1, second - first - 1), formatted.substr(second + 1)};
}

// The display cells before the caret, with tabs as the terminal would
// expand them in both lines alike (so only their count matters).
uint64_t CaretCell(const std::string& caret) { return DisplayWidth(caret.substr(0, caret.size() - 1)); }

TEST(ErrorCaret, WideCharactersBeforeTheError) {
  std::string sql = "SELECT '日本語', 'é' FROM t WHERE;";
  size_t offset = sql.find(';');
  std::string formatted = FormatErrorAt(sql, static_cast<uint32_t>(offset), "syntax error");
  auto [excerpt, caret] = ExcerptAndCaret(formatted);
  EXPECT_EQ(caret.back(), '^');
  // The caret sits under ';': the cells before it equal the display width of
  // the text before ';' (日本語 takes 6 cells, é one).
  EXPECT_EQ(CaretCell(caret), DisplayWidth(sql.substr(0, offset)));
  EXPECT_EQ(CaretCell(caret), 33u);
  // Columns count characters: 30 characters (37 bytes) come before the ;.
  EXPECT_NE(formatted.find("(line 1, column 31)"), std::string::npos) << formatted;
}

TEST(ErrorCaret, TabsAreCopiedSoTheyExpandAlike) {
  std::string sql = "SELECT\t1,\tx FRM t";
  size_t offset = sql.find("t", sql.find("FRM"));
  auto [excerpt, caret] = ExcerptAndCaret(FormatErrorAt(sql, static_cast<uint32_t>(offset), "syntax error"));
  EXPECT_EQ(caret, std::string("      \t  \t      ^"));
  EXPECT_EQ(excerpt, sql);
}

TEST(ErrorCaret, LongLinesShowAWindowAndNeverCutACharacter) {
  // 100 KB on one line with wide characters all around the error.
  std::string sql = "SELECT ";
  for (int i = 0; i < 20000; i++) sql += "'日本'+";
  size_t offset = sql.size();
  sql += " FROM";
  std::string formatted = FormatErrorAt(sql, static_cast<uint32_t>(offset), "syntax error");
  EXPECT_LT(formatted.size(), 600u) << "the whole statement was repeated";
  auto [excerpt, caret] = ExcerptAndCaret(formatted);
  EXPECT_EQ(excerpt.substr(0, 3), "...");
  // Every byte of the excerpt decodes as whole characters: no stray
  // continuation byte at either edge.
  for (size_t i = 0; i < excerpt.size();) {
    size_t before = i;
    uint32_t cp = DecodeUtf8(excerpt, i);
    EXPECT_FALSE(i - before == 1 && cp >= 0x80) << "a cut character at byte " << before;
  }
  // The caret is under the character at the error (the space before FROM).
  std::string before_error = excerpt.substr(0, excerpt.find(" FROM"));
  EXPECT_EQ(CaretCell(caret), DisplayWidth(before_error));
}

}  // namespace
}  // namespace lakestream
