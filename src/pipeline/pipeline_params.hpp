// Pipeline parameters: Databricks pipelines substitute `${key}` in the
// source text with the value of the pipeline configuration `key` before the
// SQL is parsed, anywhere (inside string literals too: read_files('${landing}')).
//
// Values come from `lakestream run --conf key=value` and from
// `SET key = value;` statements in the file, which apply to the text after
// them; --conf wins over SET (the command line overrides the file's default).
// SET statements are removed from the text (newlines kept, so line numbers in
// later errors stay right). `${...}` inside -- and /* */ comments is left
// alone. Keys hold letters, digits, '_', '-' and '.' (as in Databricks).
#pragma once

#include <map>
#include <string>

namespace lakestream {

// Returns `sql` with every ${key} replaced. Throws InvalidInputError for a
// parameter that is not set (naming it, its line in `file` and how to set
// it) and for a malformed `${` reference.
std::string SubstitutePipelineParameters(const std::string& sql, const std::map<std::string, std::string>& conf,
                                         const std::string& file);

// True when `key` is a valid parameter name (non-empty; [A-Za-z0-9_.-]).
bool IsPipelineParameterName(const std::string& key);

}  // namespace lakestream
