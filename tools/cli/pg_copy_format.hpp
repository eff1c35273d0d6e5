// COPY ... FROM STDIN / TO STDOUT for `lakestream serve` (docs/server.md):
// the statement's grammar and the row formats, with no I/O (pg_copy.cpp
// moves the bytes over the wire).
//
// Statement grammar (PostgreSQL 16's, less what is refused below):
//   copy      := COPY target FROM STDIN [options] | COPY source TO STDOUT [options]
//   target    := name [ "(" column { "," column } ")" ]
//   source    := target | "(" query ")"
//   options   := [WITH] "(" option { "," option } ")" | legacy { legacy }
//   option    := FORMAT {text|csv} | DELIMITER 'c' | NULL 'text' | HEADER [bool|MATCH]
//              | QUOTE 'c' | ESCAPE 'c' | ENCODING 'UTF8'
//   legacy    := [WITH] | CSV | HEADER | DELIMITER [AS] 'c' | NULL [AS] 'text'
//              | QUOTE [AS] 'c' | ESCAPE [AS] 'c'
// Refused (SQLSTATE 0A000, "not supported yet"): FORMAT binary, FORCE_QUOTE,
// FORCE_NOT_NULL, FORCE_NULL, FREEZE, DEFAULT, encodings other than UTF8.
//
// Row formats (one row per line):
//   text: fields split by the delimiter (tab); the NULL string (\N) alone is
//         NULL; backslash escapes \b \f \n \r \t \v \\ \<octal 1-3> \x<hex 1-2>,
//         any other escaped character is itself; a line "\." ends the data.
//   csv:  fields split by the delimiter (,); a field may be quoted ("...")
//         and then holds delimiters, line breaks and doubled quotes (or
//         escape+quote); an unquoted field equal to the NULL string (empty)
//         is NULL, a quoted one never is; HEADER skips (in) or writes (out)
//         the first line.
// Lines end with \n or \r\n.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lakestream::pg {

struct CopyFormat {
  bool csv = false;
  char delimiter = '\t';
  std::string null_string = "\\N";
  bool header = false;
  char quote = '"';
  char escape = '"';
};

struct CopyStatement {
  bool from_stdin = false;           // else TO STDOUT
  std::string table;                 // as written (quotes kept); "" for COPY (query)
  std::vector<std::string> columns;  // as written (quotes kept); empty: every column
  std::string query;                 // COPY (query) TO STDOUT
  CopyFormat format;
};

// Parses `sql` when it is COPY ... FROM STDIN or COPY ... TO STDOUT; false
// for any other statement (a COPY with a file is the engine's). Throws
// SqlError 42601 for a malformed one and 0A000 for refused options.
bool ParseCopyStatement(const std::string& sql, CopyStatement* statement);

// The query whose rows COPY ... TO STDOUT sends.
std::string CopyOutQuery(const CopyStatement& statement);

// One line of COPY TO output (with its "\n") from the row's fields; a
// disengaged field is NULL.
void AppendCopyLine(const CopyFormat& format, const std::vector<std::optional<std::string>>& fields, std::string* out);

// COPY FROM input split into columns of text: each column's values back
// to back in one buffer (a load of a million rows makes no million strings).
struct CopyColumn {
  std::string bytes;
  std::vector<size_t> ends;   // value r is bytes[r == 0 ? 0 : ends[r - 1], ends[r])
  std::vector<uint8_t> valid;  // 0: NULL
  std::string_view Value(size_t row) const {
    size_t begin = row == 0 ? 0 : ends[row - 1];
    return std::string_view(bytes).substr(begin, ends[row] - begin);
  }
};
struct CopyRows {
  std::vector<CopyColumn> columns;
  std::vector<int64_t> line_of_row;  // the input line where row i starts (1-based, the header counted)
  size_t RowCount() const { return line_of_row.size(); }
  std::vector<std::optional<std::string>> Row(size_t row) const;  // NULL: disengaged
};

// Splits COPY FROM input into `columns` columns. Throws SqlError 22P04
// "line N: ..." for an unterminated quoted field or a row whose field count
// is not `columns`.
CopyRows DecodeCopyData(const CopyFormat& format, std::string_view data, size_t columns);

}  // namespace lakestream::pg
