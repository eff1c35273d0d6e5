// UTF-8 validation (common/utf8.hpp) and where it guards the engine: the
// parser refuses a statement with bytes that are not UTF-8, and the CSV
// reader refuses such a file naming its line, so those bytes never reach a
// VARCHAR (and from there Parquet files, JSON output or a client).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "common/exception.hpp"
#include "lakestream/utf8.hpp"
#include "lakestream.hpp"
#include "parser/parser.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  for (std::string ok : {std::string(""), std::string("plain ascii, long enough for the eight-byte path"),
                         std::string("h\xC3\xA9llo"), std::string("\xE2\x82\xAC 20"), std::string("\xF0\x9F\x98\x80"),
                         std::string("\xEF\xBF\xBF"), std::string("\xF4\x8F\xBF\xBF"), std::string("a\0b", 3)}) {
    EXPECT_TRUE(IsValidUtf8(ok)) << ok;
  }
}

TEST(Utf8, FindsTheFirstBadByte) {
  struct Case {
    std::string text;
    size_t offset;
  };
  std::vector<Case> cases = {
      {"ok\xFF", 2},                           // never in UTF-8
      {"\x80", 0},                             // a lone continuation byte
      {"abcdefgh\xC3", 8},                     // truncated after the ASCII fast path
      {"\xC0\xAF", 0},                         // overlong '/'
      {"\xE0\x80\xAF", 0},                     // overlong three-byte form
      {"\xED\xA0\x80", 0},                     // a UTF-16 surrogate
      {"\xF4\x90\x80\x80", 0},                 // past U+10FFFF
      {"\xF0\x9F\x98", 0},                     // four-byte form cut short
      {"\xE2\x82" "A", 0},                     // continuation replaced by ASCII
      {"12345678\xC3\xA9" "12345\xFE", 15},  // the bad byte after valid multi-byte text
  };
  for (auto& c : cases) {
    EXPECT_EQ(FindInvalidUtf8(c.text), c.offset) << DescribeInvalidUtf8(c.text, c.offset);
  }
  EXPECT_EQ(DescribeInvalidUtf8("ok\xFF", 2), "byte 0xFF at offset 2");
  EXPECT_EQ(ReplaceInvalidUtf8("a\xFF" "b\xC3\xA9"), "a\xEF\xBF\xBD" "b\xC3\xA9");
  EXPECT_TRUE(IsValidUtf8(ReplaceInvalidUtf8("\xC0\xAF\xED\xA0\x80")));
}

TEST(Utf8, TheParserRefusesAStatementThatIsNotUtf8) {
  try {
    Parser::Parse("INSERT INTO t VALUES ('caf\xE9')");  // Latin-1 e-acute
    FAIL() << "a Latin-1 literal was accepted";
  } catch (const ParserError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid UTF-8 (byte 0xE9 at offset 26)"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(Parser::Parse("SELECT 'caf\xC3\xA9'"));
}

TEST(Utf8, TheCsvReaderRefusesAFileThatIsNotUtf8) {
  testing::ScopedTempDir dir("utf8_csv");
  std::string path = dir.path + "/latin1.csv";
  std::ofstream(path, std::ios::binary) << "id,name\n1,ok\n2,caf\xE9\n";
  Database db;
  Connection con(db);
  auto result = con.Query("SELECT * FROM read_csv('" + path + "')");
  ASSERT_TRUE(result->HasError());
  EXPECT_NE(result->GetError().find("latin1.csv line 3: the text is not valid UTF-8"), std::string::npos) << result->GetError();
  auto ok = con.Query("SELECT count(*) FROM read_files('" + path + "', format => 'json')");
  EXPECT_TRUE(ok->HasError());  // not JSON either; the point is that no row with those bytes was read
}

}  // namespace
}  // namespace lakestream
