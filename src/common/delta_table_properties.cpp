#include "common/delta_table_properties.hpp"

#include <algorithm>

#include "common/string_util.hpp"

namespace lakestream {

namespace {

enum class ValueKind { BOOLEAN, SIZE, OTHER };

struct KnownKey {
  const char* key;
  ValueKind kind;
};

// Table properties of the Delta protocol (features, retention, checkpoints,
// column mapping, statistics) and the Databricks ones on Delta tables.
const KnownKey kKnownKeys[] = {
    {"delta.appendOnly", ValueKind::BOOLEAN},
    {"delta.autoOptimize.autoCompact", ValueKind::OTHER},  // true, false, auto, legacy
    {"delta.autoOptimize.optimizeWrite", ValueKind::BOOLEAN},
    {"delta.checkpoint.writeStatsAsJson", ValueKind::BOOLEAN},
    {"delta.checkpoint.writeStatsAsStruct", ValueKind::BOOLEAN},
    {"delta.checkpointInterval", ValueKind::OTHER},
    {"delta.checkpointPolicy", ValueKind::OTHER},
    {"delta.checkpointRetentionDuration", ValueKind::OTHER},
    {"delta.columnMapping.maxColumnId", ValueKind::OTHER},
    {"delta.columnMapping.mode", ValueKind::OTHER},
    {"delta.compatibility.symlinkFormatManifest.enabled", ValueKind::BOOLEAN},
    {"delta.dataSkippingNumIndexedCols", ValueKind::OTHER},
    {"delta.dataSkippingStatsColumns", ValueKind::OTHER},
    {"delta.deletedFileRetentionDuration", ValueKind::OTHER},
    {"delta.enableChangeDataFeed", ValueKind::BOOLEAN},
    {"delta.enableDeletionVectors", ValueKind::BOOLEAN},
    {"delta.enableExpiredLogCleanup", ValueKind::BOOLEAN},
    {"delta.enableFullRetentionRollback", ValueKind::BOOLEAN},
    {"delta.enableIcebergCompatV1", ValueKind::BOOLEAN},
    {"delta.enableIcebergCompatV2", ValueKind::BOOLEAN},
    {"delta.enableInCommitTimestamps", ValueKind::BOOLEAN},
    {"delta.enableRowTracking", ValueKind::BOOLEAN},
    {"delta.enableTypeWidening", ValueKind::BOOLEAN},
    {"delta.inCommitTimestampEnablementTimestamp", ValueKind::OTHER},
    {"delta.inCommitTimestampEnablementVersion", ValueKind::OTHER},
    {"delta.isolationLevel", ValueKind::OTHER},
    {"delta.logRetentionDuration", ValueKind::OTHER},
    {"delta.minReaderVersion", ValueKind::OTHER},
    {"delta.minWriterVersion", ValueKind::OTHER},
    {"delta.parquet.compression.codec", ValueKind::OTHER},
    {"delta.randomizeFilePrefixes", ValueKind::BOOLEAN},
    {"delta.randomPrefixLength", ValueKind::OTHER},
    {"delta.rowTracking.materializedRowCommitVersionColumnName", ValueKind::OTHER},
    {"delta.rowTracking.materializedRowIdColumnName", ValueKind::OTHER},
    {"delta.rowTrackingSuspended", ValueKind::BOOLEAN},
    {"delta.setTransactionRetentionDuration", ValueKind::OTHER},
    {"delta.targetFileSize", ValueKind::SIZE},
    {"delta.timeUntilArchived", ValueKind::OTHER},
    {"delta.tuneFileSizesForRewrites", ValueKind::BOOLEAN},
    {"delta.universalFormat.enabledFormats", ValueKind::OTHER},
};

// Families whose last part is a name: delta.constraints.<name> = '<CHECK
// expression>' (delta.feature.<feature> is checked against kFeatures).
const char* const kKnownPrefixes[] = {"delta.constraints."};

const DeltaFeature kFeatures[] = {
    {"appendOnly", false, true},
    {"invariants", false, true},
    {"checkConstraints", false, true},
    {"changeDataFeed", false, true},
    {"generatedColumns", false, true},
    {"columnMapping", true, true},
    {"identityColumns", false, true},
    {"deletionVectors", true, true},  // copy-on-write: existing DVs are applied and carried, none are written
    {"timestampNtz", true, true},
    {"typeWidening", true, true},
    {"typeWidening-preview", true, false},
    {"v2Checkpoint", true, true},
    {"vacuumProtocolCheck", true, true},
    {"inCommitTimestamp", false, true},
    {"domainMetadata", false, true},
    {"clustering", false, true},  // the clustering domain is kept; new files are not clustered
    // Fresh row ids for every new file; stable ids kept in the materialized
    // columns while delta.enableRowTracking = true (storage/delta/row_tracking.hpp).
    {"rowTracking", false, true},
    {"icebergCompatV1", false, false},
    {"icebergCompatV2", false, false},
    {"variantType", true, false},
    {"variantType-preview", true, false},
    {"collations-preview", true, false},
    {"allowColumnDefaults", false, false},
    {"catalogOwned-preview", true, false},
};

bool IsTrue(const std::string& value) { return StringUtil::CIEquals(value, "true"); }

// What a feature lakestream cannot write is refused with.
std::string NotWritable(const std::string& feature, const std::string& key) {
  return "table property " + key + " asks for the Delta table feature " + feature +
         ", which lakestream does not support writing yet; create the table without it (tables that already "
         "use it can still be read)";
}

}  // namespace

std::optional<std::string> DeltaTableProperty(const std::map<std::string, std::string>& configuration,
                                              std::string_view key) {
  for (const auto& [k, v] : configuration) {
    if (StringUtil::CIEquals(k, key)) return v;
  }
  return std::nullopt;
}

bool DeltaTablePropertyIsTrue(const std::map<std::string, std::string>& configuration, std::string_view key) {
  auto value = DeltaTableProperty(configuration, key);
  return value && StringUtil::CIEquals(*value, "true");
}

const DeltaFeature* FindDeltaFeature(const std::string& name) {
  for (auto& f : kFeatures) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::vector<std::string> DeltaFeaturesRequestedBy(const std::map<std::string, std::string>& configuration) {
  std::vector<std::string> features;
  auto add = [&](const std::string& f) {
    if (std::find(features.begin(), features.end(), f) == features.end()) features.push_back(f);
  };
  for (auto& [key, value] : configuration) {
    std::string lower = StringUtil::Lower(key);
    if (StringUtil::StartsWith(lower, "delta.feature.")) add(key.substr(std::string("delta.feature.").size()));
    else if (lower == "delta.enabledeletionvectors" && IsTrue(value)) add("deletionVectors");
    else if (lower == "delta.enableincommittimestamps" && IsTrue(value)) add("inCommitTimestamp");
    else if (lower == "delta.checkpointpolicy" && StringUtil::CIEquals(value, "v2")) add("v2Checkpoint");
    else if (lower == "delta.enabletypewidening" && IsTrue(value)) add("typeWidening");
    else if (lower == "delta.enablerowtracking" && IsTrue(value)) add("rowTracking");
  }
  return features;
}

std::string CheckDeltaTableProperty(const std::string& key, const std::string& value) {
  std::string lower = StringUtil::Lower(key);
  if (!StringUtil::StartsWith(lower, "delta.")) return "";
  if (StringUtil::StartsWith(lower, "delta.feature.")) {
    std::string name = key.substr(std::string("delta.feature.").size());
    const DeltaFeature* feature = FindDeltaFeature(name);
    if (!feature) {
      std::vector<std::string> names;
      for (auto& f : kFeatures) names.emplace_back(f.name);
      std::string hint = StringUtil::ClosestMatch(name, names);
      return "unknown Delta table feature '" + name + "' in table property " + key +
             (hint.empty() ? "" : "; did you mean delta.feature." + hint + "?") + " Feature names are case-sensitive";
    }
    if (!StringUtil::CIEquals(value, "supported") && !StringUtil::CIEquals(value, "enabled")) {
      return "table property " + key + " takes 'supported' (adds the feature to the table's protocol), not '" + value +
             "'; features are removed with ALTER TABLE ... DROP FEATURE, which lakestream does not support yet";
    }
    if (!feature->writable) return NotWritable(feature->name, key);
    return "";
  }
  if (lower == "delta.checkpointpolicy" && !StringUtil::CIEquals(value, "classic") && !StringUtil::CIEquals(value, "v2")) {
    return "table property " + key + " takes 'classic' or 'v2', not '" + value + "'";
  }
  for (const char* prefix : kKnownPrefixes) {
    if (StringUtil::StartsWith(lower, prefix) && lower.size() > std::string(prefix).size()) return "";
  }
  for (auto& known : kKnownKeys) {
    if (!StringUtil::CIEquals(key, known.key)) continue;
    std::string v = StringUtil::Lower(value);
    if (known.kind == ValueKind::BOOLEAN && v != "true" && v != "false") {
      return "table property " + std::string(known.key) + " takes true or false, not '" + value + "'";
    }
    if (StringUtil::CIEquals(key, "delta.columnMapping.mode") && v != "none" && v != "name" && v != "id") {
      return "table property delta.columnMapping.mode takes 'none', 'name' or 'id', not '" + value + "'";
    }
    uint64_t bytes = 0;
    if (known.kind == ValueKind::SIZE && (!ParseByteSize(value, bytes) || bytes == 0)) {
      return "table property " + std::string(known.key) + " takes a size above zero in bytes or with a unit (" +
             "'134217728', '128mb', '1gb'), not '" + value + "'";
    }
    return "";
  }
  // The nearest key by edit distance, ignoring case; a long key may be
  // further off (delta.enableChangeDataCapture -> delta.enableChangeDataFeed).
  std::string hint;
  size_t best = std::max<size_t>(3, lower.size() / 3) + 1;
  for (auto& known : kKnownKeys) {
    size_t d = StringUtil::EditDistance(lower, StringUtil::Lower(known.key));
    if (d < best) {
      best = d;
      hint = known.key;
    }
  }
  return "unknown Delta table property " + key + (hint.empty() ? "" : "; did you mean " + hint + "?") +
         " Keys under delta. are checked against the Delta protocol's table properties (a misspelt one would be "
         "ignored); use a key outside delta. for your own metadata";
}

bool ParseByteSize(const std::string& text, uint64_t& bytes) {
  size_t i = 0;
  uint64_t number = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (number > (UINT64_MAX - 9) / 10) return false;
    number = number * 10 + static_cast<uint64_t>(text[i++] - '0');
  }
  if (i == 0) return false;
  while (i < text.size() && text[i] == ' ') i++;
  std::string unit = StringUtil::Lower(text.substr(i));
  static const std::pair<const char*, int> kUnits[] = {{"", 0}, {"b", 0}, {"k", 10}, {"kb", 10}, {"m", 20},
                                                      {"mb", 20}, {"g", 30}, {"gb", 30}, {"t", 40}, {"tb", 40}};
  for (auto& [name, shift] : kUnits) {
    if (unit != name) continue;
    if (shift > 0 && number > (UINT64_MAX >> shift)) return false;
    bytes = number << shift;
    return true;
  }
  return false;
}

}  // namespace lakestream
