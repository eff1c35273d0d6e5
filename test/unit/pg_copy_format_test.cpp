// COPY's statement grammar and row formats for `lakestream serve`
// (tools/cli/pg_copy_format.cpp): what Postgres accepts is accepted, what
// it refuses or we do not support is an error naming it, and every value
// written by AppendCopyLine reads back unchanged.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "pg_copy_format.hpp"
#include "pg_format.hpp"

namespace lakestream::pg {
namespace {

using Fields = std::vector<std::optional<std::string>>;

CopyStatement Parse(const std::string& sql) {
  CopyStatement statement;
  EXPECT_TRUE(ParseCopyStatement(sql, &statement)) << sql;
  return statement;
}

std::string StateOf(const std::string& sql) {
  CopyStatement statement;
  try {
    ParseCopyStatement(sql, &statement);
  } catch (SqlError& e) {
    return e.SqlState();
  }
  return "ok";
}

TEST(PgCopyStatement, TargetsColumnsAndDirections) {
  auto in = Parse("copy \"My T\" (a, \"B c\") from stdin;");
  EXPECT_TRUE(in.from_stdin);
  EXPECT_EQ(in.table, "\"My T\"");
  EXPECT_EQ(in.columns, (std::vector<std::string>{"a", "\"B c\""}));
  auto out = Parse("COPY (SELECT ')' AS p, f(x) FROM s.t) TO STDOUT");
  EXPECT_FALSE(out.from_stdin);
  EXPECT_EQ(CopyOutQuery(out), "SELECT ')' AS p, f(x) FROM s.t");
  EXPECT_EQ(CopyOutQuery(Parse("COPY s.t (a, b) TO STDOUT")), "SELECT a, b FROM s.t");
  CopyStatement ignored;
  EXPECT_FALSE(ParseCopyStatement("COPY t FROM '/tmp/f.csv'", &ignored));  // the engine's COPY
  EXPECT_FALSE(ParseCopyStatement("COPY t TO 'out.parquet'", &ignored));
  EXPECT_FALSE(ParseCopyStatement("SELECT 1", &ignored));
}

TEST(PgCopyStatement, OptionFormsAndDefaults) {
  auto csv = Parse("COPY t FROM STDIN WITH (FORMAT csv, HEADER)");
  EXPECT_TRUE(csv.format.csv);
  EXPECT_TRUE(csv.format.header);
  EXPECT_EQ(csv.format.delimiter, ',');
  EXPECT_EQ(csv.format.null_string, "");
  auto text = Parse("COPY t FROM STDIN");
  EXPECT_FALSE(text.format.csv);
  EXPECT_EQ(text.format.delimiter, '\t');
  EXPECT_EQ(text.format.null_string, "\\N");
  auto legacy = Parse("COPY t TO STDOUT WITH DELIMITER AS '|' NULL AS 'nil' CSV HEADER QUOTE '''' ESCAPE '\\'");
  EXPECT_TRUE(legacy.format.csv && legacy.format.header);
  EXPECT_EQ(legacy.format.delimiter, '|');
  EXPECT_EQ(legacy.format.null_string, "nil");
  EXPECT_EQ(legacy.format.quote, '\'');
  EXPECT_EQ(legacy.format.escape, '\\');
  EXPECT_FALSE(Parse("COPY t FROM STDIN (FORMAT 'csv', HEADER false)").format.header);
}

TEST(PgCopyStatement, RefusalsNameTheirSqlstate) {
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT binary)"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN BINARY"), "0A000");
  EXPECT_EQ(StateOf("COPY t TO STDOUT (FORMAT csv, FORCE_QUOTE (a))"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT csv, HEADER MATCH)"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (ENCODING 'LATIN1')"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (DELIMITER ',,')"), "22023");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (QUOTE '\"')"), "22023");  // QUOTE needs CSV
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT csv, DELIMITER '\"')"), "22023");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT xml)"), "22023");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (NOPE 1)"), "42601");
  EXPECT_EQ(StateOf("COPY (SELECT 1) FROM STDIN"), "42601");
  EXPECT_EQ(StateOf("COPY t (a, b FROM STDIN"), "42601");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT csv"), "42601");
}

TEST(PgCopyData, TextEscapesNullsAndEndMarker) {
  CopyFormat text;
  auto rows = DecodeCopyData(text, "1\ta\\tb\\\\c\\n\n\\N\t\\101\\x41\\q\r\n\\.\nignored\n", 2);
  ASSERT_EQ(rows.RowCount(), 2u);
  EXPECT_EQ(rows.Row(0), (Fields{"1", "a\tb\\c\n"}));
  EXPECT_EQ(rows.Row(1), (Fields{std::nullopt, "AAq"}));
  EXPECT_EQ(rows.line_of_row, (std::vector<int64_t>{1, 2}));
  // An escaped delimiter is data; a one-column empty line is an empty string.
  auto one = DecodeCopyData(text, "a\\\tb\n\n", 1);
  ASSERT_EQ(one.RowCount(), 2u);
  EXPECT_EQ(one.Row(0), (Fields{"a\tb"}));
  EXPECT_EQ(one.Row(1), (Fields{""}));
}

TEST(PgCopyData, CsvQuotesLineBreaksAndLineNumbers) {
  CopyFormat csv;
  csv.csv = true;
  csv.delimiter = ',';
  csv.null_string = "";
  csv.header = true;
  auto rows = DecodeCopyData(csv, "a,b\n1,\"x,\"\"y\"\"\nz\"\r\n2,\n3,\"\"\n", 2);
  ASSERT_EQ(rows.RowCount(), 3u);
  EXPECT_EQ(rows.Row(0), (Fields{"1", "x,\"y\"\nz"}));
  EXPECT_EQ(rows.Row(1), (Fields{"2", std::nullopt}));
  EXPECT_EQ(rows.Row(2), (Fields{"3", ""}));
  EXPECT_EQ(rows.line_of_row, (std::vector<int64_t>{2, 4, 5}));
  try {
    DecodeCopyData(csv, "a,b\n1,2\n3,\"open\n", 2);
    FAIL() << "an unterminated quote was accepted";
  } catch (SqlError& e) {
    EXPECT_EQ(e.SqlState(), "22P04");
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
  }
  try {
    DecodeCopyData(csv, "a,b\n1,2\n3\n", 2);
    FAIL() << "a short row was accepted";
  } catch (SqlError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3: missing data"), std::string::npos) << e.what();
  }
}

// Whatever AppendCopyLine writes, DecodeCopyData reads back: random fields
// of awkward characters in the text and CSV formats, with default and
// unusual delimiters, NULL strings, quotes and escapes.
TEST(PgCopyData, EveryWrittenValueReadsBack) {
  std::mt19937 random(42);
  const std::string alphabet = "ab,|\t\n\r\"'\\N.; ";
  std::vector<CopyFormat> formats(4);
  formats[1].delimiter = '|';
  formats[1].null_string = "nil";
  formats[2].csv = true;
  formats[2].delimiter = ',';
  formats[2].null_string = "";
  formats[3].csv = true;
  formats[3].delimiter = ';';
  formats[3].null_string = "NULL";
  formats[3].quote = '\'';
  formats[3].escape = '\\';
  for (auto& format : formats) {
    for (int trial = 0; trial < 500; trial++) {
      size_t columns = 1 + random() % 3;
      std::vector<Fields> written;
      std::string data;
      for (int r = 0; r < 3; r++) {
        Fields row;
        for (size_t c = 0; c < columns; c++) {
          if (random() % 5 == 0) {
            row.emplace_back(std::nullopt);
            continue;
          }
          std::string value;
          for (size_t n = random() % 5; n > 0; n--) value.push_back(alphabet[random() % alphabet.size()]);
          row.emplace_back(value);
        }
        AppendCopyLine(format, row, &data);
        written.push_back(row);
      }
      auto read = DecodeCopyData(format, data, columns);
      ASSERT_EQ(read.RowCount(), written.size()) << data;
      for (size_t r = 0; r < written.size(); r++) EXPECT_EQ(read.Row(r), written[r]) << "csv=" << format.csv << " data: " << data;
    }
  }
}

}  // namespace
}  // namespace lakestream::pg
