// DuckDB's file readers in SQL: read_csv(path, header = true, delim = '|',
// columns = {'a': 'INTEGER'}, ...), read_csv_auto, read_json, read_json_auto,
// read_ndjson and read_ndjson_auto. Each translates DuckDB's option names
// into read_files() options and binds read_files(); DuckDB's defaults differ
// from Databricks' (sniffed header and delimiter, headerless columns named
// column0, column1, ...). An option that would change the answer and is not
// supported yet is refused by name, never ignored.
#include "common/exception.hpp"
#include "common/option_value.hpp"
#include "common/sql_identifier.hpp"
#include "common/string_util.hpp"
#include "function/table/table_functions.hpp"

namespace lakestream {

namespace {

// {'a': 'INTEGER', 'b': 'VARCHAR'} (a STRUCT or MAP of names to type names)
// as a column list "a INTEGER, b VARCHAR".
std::string ColumnListOption(const std::string& function, const std::string& option, const Value& value) {
  std::vector<std::pair<std::string, std::string>> columns;
  if (value.type().id() == TypeId::STRUCT && !value.IsNull()) {
    const auto& fields = value.type().children();
    for (idx_t i = 0; i < fields.size() && i < value.Children().size(); i++) {
      columns.emplace_back(fields[i].first, value.Children()[i].ToString());
    }
  } else if (value.type().id() == TypeId::MAP && !value.IsNull()) {
    for (auto& entry : value.Children()) {
      if (entry.Children().size() == 2) columns.emplace_back(entry.Children()[0].ToString(), entry.Children()[1].ToString());
    }
  } else {
    throw BinderError(function + "() option " + option + " takes the columns and their types as a struct, e.g. " +
                      option + " = {'id': 'BIGINT', 'name': 'VARCHAR'}; got " + value.ToSQLString());
  }
  std::string out;
  for (auto& [name, type] : columns) out += (out.empty() ? "" : ", ") + QuoteSqlIdentifier(name) + " " + type;
  if (out.empty()) throw BinderError(function + "() option " + option + " names no column");
  return out;
}

[[noreturn]] void Refuse(const std::string& function, const std::string& option, const std::string& supported) {
  throw NotImplementedError(function + "() option " + option + "; supported: " + supported +
                            " (or read the file with read_files(), whose options are in docs/sql-grammar.md)");
}

struct Translated {
  std::vector<Value> arguments;
  std::vector<std::string> names;
  void Add(const std::string& name, Value value) {
    names.push_back(name);
    arguments.push_back(std::move(value));
  }
};

Translated StartWithPath(const std::string& function, const std::vector<Value>& arguments,
                         const std::vector<std::string>& names) {
  if (arguments.empty() || !names[0].empty()) {
    throw BinderError(function + "() needs a path first, e.g. " + function + "('data.csv')");
  }
  for (idx_t i = 1; i < arguments.size(); i++) {
    if (names[i].empty()) {
      throw BinderError(function + "() takes one path (or a list of paths) and then named options (name = value); got "
                        "the extra argument " + arguments[i].ToSQLString());
    }
  }
  Translated out;
  out.Add("", arguments[0]);
  return out;
}

}  // namespace

TableFunctionBinding BindReadCsv(ClientContext& context, const std::string& function, const std::vector<Value>& arguments,
                                 const std::vector<std::string>& argument_names) {
  static const char* kSupported =
      "header, delim (sep, delimiter), quote, columns, types (dtypes), all_varchar, auto_detect, sample_size, parallel";
  Translated out = StartWithPath(function, arguments, argument_names);
  out.Add("format", Value::VARCHAR("csv"));
  bool header_given = false, delimiter_given = false, auto_detect = true, columns_given = false;
  for (idx_t i = 1; i < arguments.size(); i++) {
    const std::string name = StringUtil::Lower(argument_names[i]);
    const Value& v = arguments[i];
    if (name == "header") {
      header_given = true;
      out.Add("header", v);
    } else if (name == "delim" || name == "sep" || name == "delimiter") {
      delimiter_given = true;
      out.Add("delimiter", v);
    } else if (name == "quote") {
      out.Add("quote", v);
    } else if (name == "columns") {
      columns_given = true;
      out.Add("schema", Value::VARCHAR(ColumnListOption(function, name, v)));
    } else if (name == "types" || name == "dtypes" || name == "column_types") {
      if (v.type().id() == TypeId::LIST) {
        Refuse(function, name + " as a list (types by position)", std::string(kSupported) + "; name the columns: " + name +
                                                                       " = {'a': 'INTEGER'}");
      }
      out.Add("schemahints", Value::VARCHAR(ColumnListOption(function, name, v)));
    } else if (name == "all_varchar") {
      out.Add("infercolumntypes", Value::BOOLEAN(!BooleanOption(function + "()", name, v)));
    } else if (name == "auto_detect") {
      auto_detect = BooleanOption(function + "()", name, v);
    } else if (name == "sample_size" || name == "parallel") {
      continue;  // how much is read to infer, and how: the answer is the same (every row is read)
    } else {
      Refuse(function, name, kSupported);
    }
  }
  if (!auto_detect && !columns_given) {
    throw BinderError(function + "(auto_detect = false) needs the columns: add columns = {'id': 'BIGINT', ...}, or drop "
                      "auto_detect to infer them");
  }
  ReadFilesOptions options = ParseReadFilesOptions(out.arguments, out.names, function);
  EvolutionOptions evolution = ParseEvolutionOptions(out.arguments, out.names, options);
  options.unnamed_prefix = "column";
  options.columns_by_position = columns_given;
  if (auto_detect) {
    if (!header_given) options.auto_header = true;
    if (!delimiter_given) options.auto_delimiter = true;
  }
  return BindReadFiles(context, std::move(options), evolution);
}

TableFunctionBinding BindReadJson(ClientContext& context, const std::string& function, const std::vector<Value>& arguments,
                                  const std::vector<std::string>& argument_names) {
  static const char* kSupported = "columns, format ('auto', 'newline_delimited', 'array'), records, sample_size, "
                                  "maximum_object_size";
  Translated out = StartWithPath(function, arguments, argument_names);
  out.Add("format", Value::VARCHAR("json"));
  for (idx_t i = 1; i < arguments.size(); i++) {
    const std::string name = StringUtil::Lower(argument_names[i]);
    const Value& v = arguments[i];
    if (name == "columns") {
      out.Add("schema", Value::VARCHAR(ColumnListOption(function, name, v)));
    } else if (name == "format") {
      std::string format = v.type().id() == TypeId::VARCHAR && !v.IsNull() ? StringUtil::Lower(v.GetString()) : "";
      if (format == "array") {
        out.Add("multiline", Value::BOOLEAN(true));
      } else if (format != "auto" && format != "newline_delimited" && format != "nd") {
        Refuse(function, "format = " + v.ToSQLString(), kSupported);
      }
    } else if (name == "records") {
      std::string records = StringUtil::Lower(v.ToString());
      if (records != "auto" && records != "true") Refuse(function, "records = " + v.ToSQLString(), kSupported);
    } else if (name == "sample_size" || name == "maximum_object_size") {
      continue;  // limits of the reader, not of the answer
    } else {
      Refuse(function, name, kSupported);
    }
  }
  // read_ndjson needs nothing more: one object per line is the default, and
  // a file that starts with '[' is read whole.
  ReadFilesOptions options = ParseReadFilesOptions(out.arguments, out.names, function);
  EvolutionOptions evolution = ParseEvolutionOptions(out.arguments, out.names, options);
  return BindReadFiles(context, std::move(options), evolution);
}

}  // namespace lakestream
