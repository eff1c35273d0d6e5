// The Delta table property keys (TBLPROPERTIES 'delta.*') a table may set,
// per the Delta protocol and the Databricks table property reference. A
// misspelt key would otherwise be stored and silently do nothing (Delta
// readers ignore unknown keys), so keys under `delta.` are checked; other
// keys are free-form.
#pragma once

#include <cstdint>
#include <string>

namespace lakestream {

// Empty when `key` = `value` is acceptable; otherwise what is wrong and the
// fix: an unknown delta.* key with the nearest known key ("did you mean"),
// or a value a boolean key cannot take. Keys compare case-insensitively.
std::string CheckDeltaTableProperty(const std::string& key, const std::string& value);

// A size as Databricks writes delta.targetFileSize: bytes ("104857600") or a
// number with a unit b, kb, mb, gb, tb (1024-based; case-insensitive, a space
// allowed: "100mb", "1 GB"). False for anything else or an overflow.
bool ParseByteSize(const std::string& text, uint64_t& bytes);

}  // namespace lakestream
