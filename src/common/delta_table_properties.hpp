// The Delta table property keys (TBLPROPERTIES 'delta.*') a table may set,
// per the Delta protocol and the Databricks table property reference. A
// misspelt key would otherwise be stored and silently do nothing (Delta
// readers ignore unknown keys), so keys under `delta.` are checked; other
// keys are free-form.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lakestream {

// A Delta table feature (PROTOCOL.md "Table Features") known by name.
struct DeltaFeature {
  const char* name;
  bool reader_writer;  // listed in readerFeatures too (else a writer feature)
  // lakestream follows its write rules: a table listing it can be written,
  // and TBLPROPERTIES may ask for it.
  bool writable;
};

// The feature called `name` (case-sensitive, as in the protocol), or nullptr.
const DeltaFeature* FindDeltaFeature(const std::string& name);

// The features the table properties ask for, in a stable order:
// delta.feature.<name> = 'supported' (or 'enabled'), delta.enableDeletionVectors
// = true, delta.enableInCommitTimestamps = true, delta.checkpointPolicy = 'v2',
// delta.enableTypeWidening = true, delta.enableRowTracking = true.
std::vector<std::string> DeltaFeaturesRequestedBy(const std::map<std::string, std::string>& configuration);

// Empty when `key` = `value` is acceptable; otherwise what is wrong and the
// fix: an unknown delta.* key with the nearest known key ("did you mean"),
// a value a boolean key cannot take, or a table feature lakestream cannot
// write yet (asked for by delta.feature.<name> or its enabling property).
// Keys compare case-insensitively.
std::string CheckDeltaTableProperty(const std::string& key, const std::string& value);

// The value of table property `key` in `configuration` (a metaData's
// configuration or TBLPROPERTIES), keys compared case-insensitively as Delta
// compares them; nullopt when it is not set.
std::optional<std::string> DeltaTableProperty(const std::map<std::string, std::string>& configuration,
                                              std::string_view key);
// Whether that property is set to 'true' (case-insensitive).
bool DeltaTablePropertyIsTrue(const std::map<std::string, std::string>& configuration, std::string_view key);

// A size as Databricks writes delta.targetFileSize: bytes ("104857600") or a
// number with a unit b, kb, mb, gb, tb (1024-based; case-insensitive, a space
// allowed: "100mb", "1 GB"). False for anything else or an overflow.
bool ParseByteSize(const std::string& text, uint64_t& bytes);

}  // namespace lakestream
