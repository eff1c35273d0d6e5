// JSON text for engine values: one encoder for to_json(), the shell's -json
// mode and the sinks, so every place encodes a type the same way.
//
//   BOOLEAN -> true/false; INTEGER/BIGINT -> number; DOUBLE -> number
//   (NaN/Infinity as strings "NaN"/"Infinity"/"-Infinity");
//   DECIMAL -> string "12.30" when decimal_as_string, else number 12.30;
//   VARCHAR -> string with JSON escapes (control characters as \u00XX, UTF-8 kept);
//   DATE -> "YYYY-MM-DD"; TIMESTAMP -> ISO-8601 UTC "2024-01-31T10:00:00Z",
//   TIMESTAMP_NTZ -> the wall clock without zone "2024-01-31T10:00:00"
//   (or "2024-01-31 10:00:00" when timestamp_iso is false);
//   STRUCT -> object; LIST -> array; MAP -> object (keys as strings); NULL -> null.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/vector.hpp"

namespace lakestream {

struct JsonOptions {
  bool decimal_as_string = false;
  bool timestamp_iso = true;
};

void AppendJsonString(std::string& out, std::string_view s);
// The same text written at `out`, which has room for 6 * s.size() + 2 bytes
// (the longest escaping); returns the end of what was written.
char* WriteJsonString(char* out, std::string_view s);
void AppendJsonValue(std::string& out, const Value& value, const JsonOptions& options = {});
// One row of a vector, without going through Value for flat types.
void AppendJsonVectorValue(std::string& out, const Vector& vector, idx_t row, const JsonOptions& options = {});
// {"name1": v1, "name2": v2} for one row of `columns`.
void AppendJsonObject(std::string& out, const std::vector<std::string>& names, const std::vector<const Vector*>& columns,
                      idx_t row, const JsonOptions& options = {});

// {"k1":"v1",...} with both keys and values escaped; `pairs` is any range of
// (string, string) pairs (a std::map, a vector of pairs).
template <class PAIRS>
std::string JsonObjectOfStrings(const PAIRS& pairs) {
  std::string out = "{";
  for (const auto& [key, value] : pairs) {
    if (out.size() > 1) out += ',';
    AppendJsonString(out, key);
    out += ':';
    AppendJsonString(out, value);
  }
  return out + "}";
}

}  // namespace lakestream
