// Binders of the built-in table functions of this layer; they are registered
// by name in the TableFunctionRegistry (main/builtin_table_functions.cpp).
#pragma once

#include <string>
#include <vector>

#include "function/table/read_files_options.hpp"
#include "function/table/schema_merge.hpp"
#include "function/table_function.hpp"

namespace lakestream {

TableFunctionBinding BindRange(const std::string& name, const std::vector<Value>& args);
TableFunctionBinding BindReadParquet(ClientContext& context, const std::vector<Value>& args,
                                     const std::vector<std::string>& arg_names);

TableFunctionBinding BindTableChanges(ClientContext& context, const std::vector<Value>& args);
// read_files(path, format => ..., ...): JSON, CSV and Parquet files (read_files.cpp).
TableFunctionBinding BindReadFiles(ClientContext& context, const std::vector<Value>& arguments,
                                   const std::vector<std::string>& argument_names);
// The same with the options already read (DuckDB's readers below translate theirs).
TableFunctionBinding BindReadFiles(ClientContext& context, ReadFilesOptions options, const EvolutionOptions& evolution);
// DuckDB's read_csv / read_csv_auto and read_json / read_json_auto /
// read_ndjson (read_csv.cpp): read_files() with DuckDB's option names and
// defaults (sniffed header and delimiter, column0 naming); an option of
// DuckDB's that is not supported yet is refused by name.
TableFunctionBinding BindReadCsv(ClientContext& context, const std::string& function, const std::vector<Value>& arguments,
                                 const std::vector<std::string>& argument_names);
TableFunctionBinding BindReadJson(ClientContext& context, const std::string& function, const std::vector<Value>& arguments,
                                  const std::vector<std::string>& argument_names);

// Expands a path, a glob or a list of paths (a table function's first
// argument) into the sorted list of existing files; IOError when nothing matches,
// PermissionError when external access forbids a pattern or a match.
std::vector<std::string> ResolveFileArgument(ClientContext& context, const std::string& function, const Value& argument);

}  // namespace lakestream
