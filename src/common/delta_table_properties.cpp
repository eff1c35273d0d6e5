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
    {"delta.setTransactionRetentionDuration", ValueKind::OTHER},
    {"delta.targetFileSize", ValueKind::SIZE},
    {"delta.timeUntilArchived", ValueKind::OTHER},
    {"delta.tuneFileSizesForRewrites", ValueKind::BOOLEAN},
    {"delta.universalFormat.enabledFormats", ValueKind::OTHER},
};

// Families whose last part is a name: delta.feature.<feature> = 'supported',
// delta.constraints.<name> = '<CHECK expression>'.
const char* const kKnownPrefixes[] = {"delta.feature.", "delta.constraints."};

}  // namespace

std::string CheckDeltaTableProperty(const std::string& key, const std::string& value) {
  std::string lower = StringUtil::Lower(key);
  if (!StringUtil::StartsWith(lower, "delta.")) return "";
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
