// The text of COPY TO's CSV and JSON files (copy_executor.cpp writes it).
//
//   csv  := [header] row*          header, row := field (DELIMITER field)* "\n"
//   field := text | QUOTE text-with-QUOTEs-doubled QUOTE | NULL-string
// A field is quoted when it holds the delimiter, the quote, a line break, or
// leading/trailing spaces, or when it is an empty string that would read back
// as NULL (an empty NULL string, DuckDB's default). Values are written as
// CAST(value AS VARCHAR) gives them.
//   json := (object "\n")*         (ARRAY: "[\n" object (",\n" object)* "\n]\n")
// with objects as to_json writes them (common/json_writer.hpp).
#pragma once

#include <string>
#include <vector>

#include "common/vector.hpp"
#include "planner/bound_statement.hpp"

namespace lakestream {

class CopyTextEncoder {
 public:
  CopyTextEncoder(CopyFormat format, CopyTextOptions options, std::vector<std::string> names,
                  std::vector<LogicalType> types);

  // What comes before the first row: the CSV header, JSON's "[".
  void Begin(std::string& out);
  // Appends the chunk's rows.
  void Append(const DataChunk& chunk, std::string& out);
  // What comes after the last row: JSON's "]".
  void End(std::string& out);

 private:
  void AppendCsvField(std::string& out, std::string_view text) const;

  CopyFormat format_;
  CopyTextOptions options_;
  std::vector<std::string> names_;
  std::vector<LogicalType> types_;
  bool first_row_ = true;
};

}  // namespace lakestream
