// COPY (query) TO 'file.parquet' [(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE n)]
// COPY table TO 'file.csv' [(FORMAT csv, HEADER false, DELIMITER '|', QUOTE '"', NULL 'NA')]
// COPY table TO 'file.json' [(FORMAT json, ARRAY true)]
// COPY table FROM 'file.parquet' | 'file.csv' [(HEADER, DELIMITER ';')] | 'file.json' | 'glob'   (appends the rows)
#include <cstdlib>

#include "common/exception.hpp"
#include "common/option_value.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "planner/bound_statement.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

static bool HasSuffix(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The format a COPY names (FORMAT x), else its file's extension (DuckDB's
// rule), else Parquet.
static CopyFormat CopyFormatOf(const CopyStatement& stmt) {
  for (const auto& [key, value] : stmt.options) {
    if (!StringUtil::CIEquals(key, "format")) continue;
    std::string f = StringUtil::Lower(value);
    if (f == "parquet") return CopyFormat::PARQUET;
    if (f == "csv") return CopyFormat::CSV;
    if (f == "json" || f == "ndjson" || f == "jsonl") return CopyFormat::JSON;
    throw NotImplementedError("COPY ... (FORMAT " + value + "); use FORMAT parquet, csv or json");
  }
  std::string path = StringUtil::Lower(stmt.path);
  auto ends = [&](const char* suffix) { return HasSuffix(path, suffix); };
  if (ends(".gz") || ends(".zst") || ends(".bz2")) {
    throw NotImplementedError("COPY with a compressed text file (" + stmt.path +
                              "); write or read it uncompressed, or use Parquet (COMPRESSION zstd)");
  }
  if (ends(".csv") || ends(".tsv")) return CopyFormat::CSV;
  if (ends(".json") || ends(".jsonl") || ends(".ndjson")) return CopyFormat::JSON;
  return CopyFormat::PARQUET;
}

static char CopyCharOption(const std::string& key, const std::string& value) {
  if (value == "\\t" || value == "\t") return '\t';
  if (value.size() != 1) throw InvalidInputError("COPY: option " + key + " must be one character, got '" + value + "'");
  return value[0];
}

static const char* CopyFormatName(CopyFormat format) {
  switch (format) {
    case CopyFormat::CSV: return "csv";
    case CopyFormat::JSON: return "json";
    case CopyFormat::PARQUET: break;
  }
  return "parquet";
}

// Options of COPY TO; one that does not apply to the format is an error
// naming the format it belongs to.
static void BindCopyOptions(const CopyStatement& stmt, BoundCopy& bound) {
  ParquetWriterOptions& options = bound.options;
  CopyTextOptions& text = bound.text;
  if (HasSuffix(StringUtil::Lower(stmt.path), ".tsv")) text.delimiter = '\t';
  auto require = [&](const std::string& key, CopyFormat format) {
    if (bound.format != format) {
      throw InvalidInputError("COPY: option " + key + " applies to FORMAT " + CopyFormatName(format) + ", and this COPY writes " +
                              CopyFormatName(bound.format) + "; drop it or write FORMAT " + CopyFormatName(format));
    }
  };
  for (const auto& [raw_key, value] : stmt.options) {
    std::string key = StringUtil::Lower(raw_key);
    if (key == "format") {
      continue;  // CopyFormatOf
    } else if (key == "compression" || key == "codec") {
      require(raw_key, CopyFormat::PARQUET);
      if (!ParquetCodecFromName(value, options.codec)) {
        throw InvalidInputError("COPY: unknown COMPRESSION '" + value + "'; use zstd, snappy, gzip, lz4 or uncompressed");
      }
    } else if (key == "row_group_size") {
      require(raw_key, CopyFormat::PARQUET);
      try {
        options.row_group_rows = std::stoull(value);
      } catch (...) {
        throw InvalidInputError("COPY: ROW_GROUP_SIZE must be a positive number of rows, got '" + value + "'");
      }
      if (options.row_group_rows == 0) throw InvalidInputError("COPY: ROW_GROUP_SIZE must be positive");
    } else if (key == "compression_level") {
      require(raw_key, CopyFormat::PARQUET);
      options.compression_level = std::atoi(value.c_str());
    } else if (key == "header") {
      require(raw_key, CopyFormat::CSV);
      text.header = BooleanOption("COPY", raw_key, Value(value));
    } else if (key == "delimiter" || key == "delim" || key == "sep") {
      require(raw_key, CopyFormat::CSV);
      text.delimiter = CopyCharOption(raw_key, value);
    } else if (key == "quote") {
      require(raw_key, CopyFormat::CSV);
      text.quote = CopyCharOption(raw_key, value);
    } else if (key == "null" || key == "nullstr") {
      require(raw_key, CopyFormat::CSV);
      text.null_string = value;
    } else if (key == "array") {
      require(raw_key, CopyFormat::JSON);
      text.json_array = BooleanOption("COPY", raw_key, Value(value));
    } else {
      throw InvalidInputError("COPY: unknown option " + raw_key +
                              "; known options: FORMAT (parquet, csv, json); parquet: COMPRESSION, ROW_GROUP_SIZE, "
                              "COMPRESSION_LEVEL; csv: HEADER, DELIMITER (DELIM, SEP), QUOTE, NULL; json: ARRAY");
    }
  }
  if (text.delimiter == text.quote) {
    throw InvalidInputError("COPY: the DELIMITER and the QUOTE are both '" + std::string(1, text.delimiter) + "'; make them differ");
  }
}

// COPY t FROM 'file' as INSERT INTO t SELECT * FROM <reader>('file', ...):
// read_parquet, or DuckDB's read_csv / read_json with the COPY's options
// (a CSV's header and delimiter sniffed unless given).
static std::string CopyFromQuery(const CopyStatement& stmt, CopyFormat format) {
  std::string path = Value(stmt.path).ToSQLString();
  if (format == CopyFormat::PARQUET) {
    for (const auto& [key, value] : stmt.options) {
      if (!StringUtil::CIEquals(key, "format")) {
        throw InvalidInputError("COPY ... FROM a Parquet file takes no option but FORMAT, got " + key);
      }
    }
    return "INSERT INTO t SELECT * FROM read_parquet(" + path + ")";
  }
  std::string arguments;
  for (const auto& [raw_key, value] : stmt.options) {
    std::string key = StringUtil::Lower(raw_key);
    if (key == "format") continue;
    bool csv_option = key == "header" || key == "delimiter" || key == "delim" || key == "sep" || key == "quote" ||
                      key == "auto_detect" || key == "all_varchar";
    if (format != CopyFormat::CSV || !csv_option) {
      throw NotImplementedError("COPY ... FROM option " + raw_key + " (FORMAT " + CopyFormatName(format) +
                                "); COPY FROM takes HEADER, DELIMITER, QUOTE for csv, or read the file with read_csv(...) / "
                                "read_json(...) in INSERT INTO t SELECT ...");
    }
    std::string v = Value(value).ToSQLString();
    if (key == "header" || key == "auto_detect" || key == "all_varchar") v = BooleanOption("COPY", raw_key, Value(value)) ? "true" : "false";
    arguments += ", " + key + " := " + v;
  }
  return std::string("INSERT INTO t SELECT * FROM ") + (format == CopyFormat::CSV ? "read_csv(" : "read_json(") + path +
         arguments + ")";
}

BoundCopy BindCopy(Binder& binder, const CopyStatement& stmt) {
  BoundCopy result;
  result.is_from = stmt.is_from;
  result.path = stmt.path;
  if (stmt.is_from) {
    // read_parquet checks every file it matches; this names the statement.
    binder.Context().Database().AccessPolicy().CheckPattern(stmt.path, AccessMode::READ, "COPY ... FROM");
    auto statements = Parser::Parse(CopyFromQuery(stmt, CopyFormatOf(stmt)));
    static_cast<InsertStatement&>(*statements[0]).table = stmt.table;  // the resolved name, not re-parsed
    result.insert_statement = std::move(statements[0]);
    result.insert = BindInsert(binder, static_cast<InsertStatement&>(*result.insert_statement));
    return result;
  }
  result.format = CopyFormatOf(stmt);
  BindCopyOptions(stmt, result);
  BoundQuery query = binder.BindQuery(*stmt.query);
  result.names = std::move(query.names);
  // Parquet needs concrete types; an untyped NULL column is written as INTEGER.
  result.types = std::move(query.types);
  for (auto& t : result.types) {
    if (t.id() == TypeId::SQLNULL) t = TypeId::INTEGER;
  }
  result.plan = std::move(query.plan);
  return result;
}

}  // namespace lakestream
