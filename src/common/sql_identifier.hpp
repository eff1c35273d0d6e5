// SQL identifiers in generated SQL text.
#pragma once

#include <string>
#include <string_view>

namespace lakestream {

// `name` as a double-quoted identifier ("a""b" for a"b): safe to splice into
// SQL text whatever characters it holds.
std::string QuoteSqlIdentifier(std::string_view name);

}  // namespace lakestream
