// The Delta table property keys (TBLPROPERTIES 'delta.*') a table may set,
// per the Delta protocol and the Databricks table property reference. A
// misspelt key would otherwise be stored and silently do nothing (Delta
// readers ignore unknown keys), so keys under `delta.` are checked; other
// keys are free-form.
#pragma once

#include <string>

namespace lakestream {

// Empty when `key` = `value` is acceptable; otherwise what is wrong and the
// fix: an unknown delta.* key with the nearest known key ("did you mean"),
// or a value a boolean key cannot take. Keys compare case-insensitively.
std::string CheckDeltaTableProperty(const std::string& key, const std::string& value);

}  // namespace lakestream
