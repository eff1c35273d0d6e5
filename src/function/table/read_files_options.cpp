#include "function/table/read_files_options.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"

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

nlohmann::json FileSchema::ToJson() const {
  nlohmann::json out = nlohmann::json::array();
  for (idx_t i = 0; i < names.size(); i++) out.push_back({{"name", names[i]}, {"type", types[i].ToString()}});
  return out;
}

FileSchema FileSchema::FromJson(const nlohmann::json& json) {
  std::string text;
  for (auto& column : json) {
    if (!text.empty()) text += ", ";
    // Quote the name: inferred names may be any text.
    std::string name = column.at("name").get<std::string>();
    std::string quoted = "\"";
    for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    text += quoted + "\" " + column.at("type").get<std::string>();
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

static bool BoolOption(const std::string& name, const Value& v) {
  if (v.type().id() == TypeId::BOOLEAN && !v.IsNull()) return v.GetBoolean();
  if (v.type().id() == TypeId::VARCHAR) {
    std::string s = StringUtil::Lower(v.GetString());
    if (s == "true") return true;
    if (s == "false") return false;
  }
  throw BinderError("read_files() option " + name + " must be true or false, got " + v.ToSQLString());
}

static std::string StringOption(const std::string& name, const Value& v) {
  if (v.type().id() != TypeId::VARCHAR || v.IsNull()) {
    throw BinderError("read_files() option " + name + " must be a string, got " + v.ToSQLString());
  }
  return v.GetString();
}

static char CharOption(const std::string& name, const Value& v) {
  std::string s = StringOption(name, v);
  if (s == "\\t") return '\t';
  if (s.size() != 1) throw BinderError("read_files() option " + name + " must be one character, got '" + s + "'");
  return s[0];
}

ReadFilesOptions ParseReadFilesOptions(const std::vector<Value>& args, const std::vector<std::string>& names) {
  if (args.empty() || !names[0].empty()) {
    throw BinderError("read_files() needs a path first, e.g. read_files('landing/', format => 'json')");
  }
  ReadFilesOptions options;
  const Value& path = args[0];
  if (path.type().id() == TypeId::LIST) {
    for (auto& v : path.Children()) options.patterns.push_back(v.ToString());
    options.path_argument = path.ToString();
  } else if (path.type().id() == TypeId::VARCHAR && !path.IsNull()) {
    options.patterns.push_back(path.GetString());
    options.path_argument = path.GetString();
  } else {
    throw BinderError("read_files() expects a file, a directory, a glob or a list of them as its first argument, got " +
                      path.ToSQLString());
  }
  bool rescue = false;
  std::string rescue_name = "_rescued_data";
  for (idx_t i = 1; i < args.size(); i++) {
    const std::string& name = names[i];
    const Value& v = args[i];
    if (name.empty()) {
      throw BinderError("read_files() takes one path and then named options (name => value); got the extra argument " +
                        v.ToSQLString());
    }
    if (name == "format") {
      std::string f = StringUtil::Lower(StringOption(name, v));
      if (f == "json" || f == "jsonl" || f == "ndjson") {
        options.format = FileFormat::JSON;
      } else if (f == "csv") {
        options.format = FileFormat::CSV;
      } else if (f == "parquet") {
        options.format = FileFormat::PARQUET;
      } else {
        throw BinderError("read_files() format '" + f + "' is not supported; use 'json', 'csv' or 'parquet'");
      }
    } else if (name == "header") {
      options.header = BoolOption(name, v);
    } else if (name == "delimiter" || name == "sep") {
      options.delimiter = CharOption(name, v);
    } else if (name == "quote") {
      options.quote = CharOption(name, v);
    } else if (name == "multiline") {
      options.multi_line = BoolOption(name, v);
    } else if (name == "schema") {
      options.schema = ParseSchemaString(StringOption(name, v), "read_files() option schema");
    } else if (name == "schemahints") {
      options.hints = ParseSchemaString(StringOption(name, v), "read_files() option schemaHints");
    } else if (name == "infercolumntypes" || name == "inferschema") {
      options.infer_types = BoolOption(name, v);
    } else if (name == "rescue") {
      rescue = BoolOption(name, v);
    } else if (name == "rescueddatacolumn") {
      rescue = true;
      rescue_name = StringOption(name, v);
      if (rescue_name.empty()) throw BinderError("read_files() option rescuedDataColumn must name a column");
    } else {
      throw BinderError("read_files() has no option " + name +
                        "; known options: format, header, delimiter (sep), quote, multiLine, schema, schemaHints, "
                        "inferColumnTypes, rescue, rescuedDataColumn");
    }
  }
  if (rescue) options.rescue_column = rescue_name;
  return options;
}

}  // namespace lakestream
