#include "function/table/read_files_options.hpp"

#include "common/option_value.hpp"

#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/sql_identifier.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "function/table/schema_merge.hpp"
#include "storage/delta/delta_schema.hpp"

namespace lakestream {

const char* FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::JSON: return "json";
    case FileFormat::CSV: return "csv";
    case FileFormat::PARQUET: return "parquet";
    case FileFormat::UNKNOWN: break;
  }
  return "unknown";
}

int64_t FileSchema::Find(const std::string& name) const {
  for (idx_t i = 0; i < names.size(); i++) {
    if (StringUtil::CIEquals(names[i], name)) return static_cast<int64_t>(i);
  }
  return -1;
}

// Each column also keeps its Delta schema field ("field"): nested types with
// any field names survive the round trip, which the type text alone does not.
nlohmann::json FileSchema::ToJson() const {
  std::vector<delta::DeltaColumn> columns;
  for (idx_t i = 0; i < names.size(); i++) columns.push_back({names[i], types[i], true, "{}", ""});
  nlohmann::json fields = nlohmann::json::array();
  auto text = delta::SchemaToString(columns);
  if (text.ok()) fields = ParseJson(text.value()).at("fields");
  nlohmann::json out = nlohmann::json::array();
  for (idx_t i = 0; i < names.size(); i++) {
    nlohmann::json column = {{"name", names[i]}, {"type", types[i].ToString()}};
    if (i < fields.size()) column["field"] = fields[i];
    out.push_back(std::move(column));
  }
  return out;
}

FileSchema FileSchema::FromJson(const nlohmann::json& json) {
  bool all_fields = !json.empty();
  for (auto& column : json) all_fields = all_fields && column.contains("field");
  if (all_fields) {
    nlohmann::json schema = {{"type", "struct"}, {"fields", nlohmann::json::array()}};
    for (auto& column : json) schema["fields"].push_back(column["field"]);
    auto columns = delta::ParseSchemaString(schema.dump());
    if (columns.ok()) {
      FileSchema out;
      for (auto& c : columns.value()) {
        out.names.push_back(c.name);
        out.types.push_back(c.type);
      }
      return out;
    }
  }
  std::string text;
  for (auto& column : json) {
    if (!text.empty()) text += ", ";
    // Quote the name: inferred names may be any text.
    std::string name = column.at("name").get<std::string>();
    text += QuoteSqlIdentifier(name) + " " + column.at("type").get<std::string>();
  }
  if (text.empty()) return {};
  return ParseSchemaString(text, "the stored schema of a streaming table");
}

std::string FileSchema::ToString() const {
  std::string out;
  for (idx_t i = 0; i < names.size(); i++) out += (i ? ", " : "") + names[i] + " " + types[i].ToString();
  return out;
}

FileSchema ParseSchemaString(const std::string& text, const std::string& what) {
  FileSchema schema;
  try {
    auto statements = Parser::Parse("CREATE TABLE __schema (" + text + ")");
    if (statements.size() != 1 || statements[0]->type != StatementType::CREATE_TABLE) throw ParserError("not a column list");
    auto& create = static_cast<CreateTableStatement&>(*statements[0]);
    for (auto& column : create.columns) {
      if (column.type.id() == TypeId::INVALID) throw ParserError("column " + column.name + " has no type");
      schema.names.push_back(column.name);
      schema.types.push_back(column.type);
    }
  } catch (const Exception& e) {
    throw BinderError(what + " must be a column list such as 'id BIGINT, name STRING', got '" + text + "' (" + e.what() + ")");
  }
  return schema;
}

// A hint's name is a path when it is unquoted and holds a dot; such names are
// stored with a leading '\x01' so that a quoted top-level name with a dot
// ("a.b" or `a.b`) stays one name.
static constexpr char kPathMark = '\x01';

FileSchema ParseSchemaHints(const std::string& text) {
  const std::string what = "read_files() option schemaHints";
  std::vector<std::string> pieces;
  std::string piece;
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '`' || c == '\'') {
      quote = c;
    } else if (c == '<' || c == '(') {
      depth++;
    } else if (c == '>' || c == ')') {
      depth--;
    } else if (c == ',' && depth == 0) {
      pieces.push_back(piece);
      piece.clear();
      continue;
    }
    piece += c;
  }
  pieces.push_back(piece);
  FileSchema hints;
  for (auto& p : pieces) {
    std::string trimmed = p;
    trimmed.erase(0, trimmed.find_first_not_of(" \t\n"));
    size_t space = trimmed.find_first_of(" \t\n");
    std::string name = trimmed.substr(0, space);
    if (!name.empty() && name[0] != '"' && name[0] != '`' && name.find('.') != std::string::npos &&
        space != std::string::npos) {
      FileSchema one = ParseSchemaString("x " + trimmed.substr(space), what);
      hints.names.push_back(kPathMark + name);
      hints.types.push_back(one.types[0]);
      continue;
    }
    FileSchema one = ParseSchemaString(p, what);
    hints.names.insert(hints.names.end(), one.names.begin(), one.names.end());
    hints.types.insert(hints.types.end(), one.types.begin(), one.types.end());
  }
  return hints;
}

std::vector<std::string> HintPath(const std::string& name) {
  if (name.empty() || name[0] != kPathMark) return {name};
  std::vector<std::string> path;
  size_t start = 1;
  while (true) {
    size_t dot = name.find('.', start);
    path.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return path;
    start = dot + 1;
  }
}

FileFormat FormatFromExtension(const std::string& path) {
  std::string lower = StringUtil::Lower(path);
  auto ends = [&](const char* ext) {
    std::string e(ext);
    return lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".json") || ends(".jsonl") || ends(".ndjson")) return FileFormat::JSON;
  if (ends(".csv") || ends(".tsv")) return FileFormat::CSV;
  if (ends(".parquet")) return FileFormat::PARQUET;
  return FileFormat::UNKNOWN;
}

// `owner` is the function the user called, as "read_csv()".
static std::string StringOption(const std::string& owner, const std::string& name, const Value& v) {
  if (v.type().id() != TypeId::VARCHAR || v.IsNull()) {
    throw BinderError(owner + " option " + name + " must be a string, got " + v.ToSQLString());
  }
  return v.GetString();
}

static char CharOption(const std::string& owner, const std::string& name, const Value& v) {
  std::string s = StringOption(owner, name, v);
  if (s == "\\t") return '\t';
  if (s.size() != 1) throw BinderError(owner + " option " + name + " must be one character, got '" + s + "'");
  return s[0];
}

ReadFilesOptions ParseReadFilesOptions(const std::vector<Value>& args, const std::vector<std::string>& names,
                                       const std::string& function) {
  const std::string owner = function + "()";
  if (args.empty() || !names[0].empty()) {
    throw BinderError(owner + " needs a path first, e.g. read_files('landing/', format => 'json')");
  }
  ReadFilesOptions options;
  options.function = function;
  const Value& path = args[0];
  if (path.type().id() == TypeId::LIST) {
    for (auto& v : path.Children()) options.patterns.push_back(v.ToString());
    options.path_argument = path.ToString();
  } else if (path.type().id() == TypeId::VARCHAR && !path.IsNull()) {
    options.patterns.push_back(path.GetString());
    options.path_argument = path.GetString();
  } else {
    throw BinderError(owner + " expects a file, a directory, a glob or a list of them as its first argument, got " +
                      path.ToSQLString());
  }
  bool rescue = false;
  std::string rescue_name = "_rescued_data";
  for (idx_t i = 1; i < args.size(); i++) {
    const std::string& name = names[i];
    const Value& v = args[i];
    if (name.empty()) {
      throw BinderError(owner + " takes one path and then named options (name => value); got the extra argument " +
                        v.ToSQLString());
    }
    if (name == "format") {
      std::string f = StringUtil::Lower(StringOption(owner, name, v));
      if (f == "json" || f == "jsonl" || f == "ndjson") {
        options.format = FileFormat::JSON;
      } else if (f == "csv") {
        options.format = FileFormat::CSV;
      } else if (f == "parquet") {
        options.format = FileFormat::PARQUET;
      } else {
        throw BinderError(owner + " format '" + f + "' is not supported; use 'json', 'csv' or 'parquet'");
      }
    } else if (name == "header") {
      if (v.type().id() == TypeId::VARCHAR && !v.IsNull() && StringUtil::Lower(v.GetString()) == "auto") {
        options.auto_header = true;  // DuckDB's default, so DuckDB's column0 naming too
        options.unnamed_prefix = "column";
      } else {
        options.header = BooleanOption(owner, name, v, " (or 'auto')");
      }
    } else if (name == "delimiter" || name == "sep") {
      options.auto_delimiter = v.type().id() == TypeId::VARCHAR && !v.IsNull() && StringUtil::Lower(v.GetString()) == "auto";
      if (!options.auto_delimiter) options.delimiter = CharOption(owner, name, v);
    } else if (name == "quote") {
      options.quote = CharOption(owner, name, v);
    } else if (name == "multiline") {
      options.multi_line = BooleanOption(owner, name, v);
    } else if (name == "schema") {
      options.schema = ParseSchemaString(StringOption(owner, name, v), owner + " option schema");
    } else if (name == "schemahints") {
      options.hints = ParseSchemaHints(StringOption(owner, name, v));
    } else if (name == "infercolumntypes" || name == "inferschema") {
      options.infer_types = BooleanOption(owner, name, v);
    } else if (name == "prefersdecimal" || name == "schemaevolutionmode" || name == "cloudfiles.schemaevolutionmode") {
      continue;  // ParseEvolutionOptions
    } else if (name == "useincrementallisting" || name == "cloudfiles.useincrementallisting") {
      std::string mode = StringUtil::Lower(StringOption(owner, name, v));
      if (mode != "auto" && mode != "true" && mode != "false") {
        throw BinderError(owner + " option useIncrementalListing must be 'auto', 'true' or 'false', got '" + mode + "'");
      }
      options.incremental_listing = mode != "false";
    } else if (name == "backfillinterval" || name == "cloudfiles.backfillinterval") {
      std::string text = StringOption(owner, name, v);
      auto ms = StringUtil::ParseDurationMs(text);
      if (!ms || *ms <= 0) {
        throw BinderError(owner + " option backfillInterval takes a duration such as '10 minutes' or '1 day', got '" +
                          text + "'");
      }
      options.backfill_interval_ms = *ms;
    } else if (name == "allowoverwrites" || name == "cloudfiles.allowoverwrites") {
      options.allow_overwrites = BooleanOption(owner, name, v);
    } else if (name == "rescue") {
      rescue = BooleanOption(owner, name, v);
    } else if (name == "rescueddatacolumn") {
      rescue = true;
      rescue_name = StringOption(owner, name, v);
      if (rescue_name.empty()) throw BinderError(owner + " option rescuedDataColumn must name a column");
    } else {
      throw BinderError(owner + " has no option " + name +
                        "; known options: format, header, delimiter (sep), quote, multiLine, schema, schemaHints, "
                        "inferColumnTypes, prefersDecimal, schemaEvolutionMode, rescue, rescuedDataColumn, "
                        "useIncrementalListing, backfillInterval, allowOverwrites");
    }
  }
  if (rescue) options.rescue_column = rescue_name;
  if (!rescue) {
    // Rescue mode keeps what the schema lacks in the rescue column.
    for (idx_t i = 1; i < args.size(); i++) {
      if ((names[i] == "schemaevolutionmode" || names[i] == "cloudfiles.schemaevolutionmode") &&
          args[i].type().id() == TypeId::VARCHAR && !args[i].IsNull() && StringUtil::Lower(args[i].GetString()) == "rescue") {
        options.rescue_column = rescue_name;
      }
    }
  }
  return options;
}

void UseDuckDBCsvDefaults(ReadFilesOptions& options, bool header_given, bool delimiter_given) {
  options.auto_header = !header_given;
  options.auto_delimiter = !delimiter_given;
  options.unnamed_prefix = "column";
}

EvolutionOptions ParseEvolutionOptions(const std::vector<Value>& args, const std::vector<std::string>& names,
                                       const ReadFilesOptions& options) {
  const std::string owner = options.function + "()";
  EvolutionOptions out;
  for (idx_t i = 1; i < args.size(); i++) {
    const std::string& name = names[i];
    const Value& v = args[i];
    if (name == "prefersdecimal") {
      out.prefers_decimal = BooleanOption(owner, name, v);
    } else if (name == "schemaevolutionmode" || name == "cloudfiles.schemaevolutionmode") {
      std::string mode = StringUtil::Lower(StringOption(owner, name, v));
      if (mode == "addnewcolumns") {
        out.mode = SchemaEvolutionMode::ADD_NEW_COLUMNS;
      } else if (mode == "rescue") {
        out.mode = SchemaEvolutionMode::RESCUE;
      } else if (mode == "failonnewcolumns") {
        out.mode = SchemaEvolutionMode::FAIL_ON_NEW_COLUMNS;
      } else if (mode == "none") {
        out.mode = SchemaEvolutionMode::NONE;
      } else {
        throw BinderError(owner + " option schemaEvolutionMode must be 'addNewColumns', 'rescue', "
                          "'failOnNewColumns' or 'none', got '" + v.GetString() + "'");
      }
    }
  }
  if (out.mode == SchemaEvolutionMode::ADD_NEW_COLUMNS && !options.schema.empty()) {
    throw BinderError(owner + " option schemaEvolutionMode 'addNewColumns' evolves an inferred schema, but schema => "
                      "declares the columns; drop schema => (schemaHints => still sets types), or use 'none' or 'rescue'");
  }
  return out;
}

}  // namespace lakestream
