// Delta schemas (metaData.schemaString, Spark's JSON schema) <-> engine
// columns, and partition values (strings in the log) <-> engine Values.
//
// Type mapping, reading (Delta -> engine):
//   byte, short, integer -> INTEGER     long -> BIGINT
//   float, double -> DOUBLE             decimal(p,s) -> DECIMAL(p,s)
//   string, binary -> VARCHAR           boolean -> BOOLEAN
//   date -> DATE                        timestamp -> TIMESTAMP
//   timestamp_ntz -> TIMESTAMP_NTZ
//   struct -> STRUCT, array -> LIST, map -> MAP (recursively)
//   anything else (variant, void, interval, ...) -> NotSupported naming the column.
// Writing (engine -> Delta): INTEGER "integer", BIGINT "long", DOUBLE "double",
//   VARCHAR "string", DECIMAL "decimal(p,s)", BOOLEAN "boolean", DATE "date",
//   TIMESTAMP "timestamp", TIMESTAMP_NTZ "timestamp_ntz", nested types as
//   struct/array/map. A timestamp_ntz column needs the timestampNtz table
//   feature (AddRequiredFeatures).
// A column read from a log keeps its original Delta type (`delta_type`), and
// writing the schema back uses it while it still maps to the column's engine
// type: re-committing a table's metadata never silently turns a "short" into
// an "integer" or a "binary" into a "string" for other engines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/value.hpp"
#include "storage/delta/delta_actions.hpp"

namespace lakestream::delta {

struct DeltaColumn {
  std::string name;
  LogicalType type;
  bool nullable = true;
  // The field's "metadata" object as compact JSON ("{}" when empty): column
  // mapping ids, generation expressions, comments, ...
  std::string metadata_json = "{}";
  // The field's original "type" as compact JSON (e.g. "\"short\"" or a nested
  // object); empty for columns created by the engine.
  std::string delta_type;
};

// Parses a schemaString. An empty string gives no columns (some writers
// commit metadata before the schema is known). InvalidArgument for JSON that
// is not a struct schema; NotSupported for a type the engine lacks.
Result<std::vector<DeltaColumn>> ParseSchemaString(const std::string& schema_string);

// The column's type as its data files store it under column mapping: each
// STRUCT field (at any depth, in arrays and maps too) named by its
// delta.columnMapping.physicalName when it has one. Same shape as
// column.type, so values convert by field position.
LogicalType PhysicalType(const DeltaColumn& column);

// Serializes columns as a compact schemaString. InvalidArgument for a type
// that has no Delta name (e.g. SQLNULL).
Result<std::string> SchemaToString(const std::vector<DeltaColumn>& columns);

// Raises `protocol` to what `columns` and the table properties
// `configuration` need: a timestamp_ntz anywhere, nested too, needs the reader
// and writer feature timestampNtz (PROTOCOL "Timestamp without timezone"); a
// delta.typeChanges record in the schema needs typeWidening; and the
// features the properties ask for (DeltaFeaturesRequestedBy:
// delta.feature.<name>, delta.enableDeletionVectors, ...InCommitTimestamps,
// checkpointPolicy = v2, enableTypeWidening, enableRowTracking; rowTracking
// and clustering bring domainMetadata). A new feature means writer
// version 7 (the features the old writer version implied are listed, as
// Delta does on such an upgrade), and reader version 3 for a reader-writer
// feature. delta.feature.* keys are removed from `configuration`: they ask
// for a protocol change and are not kept as properties. A
// delta.columnMapping.mode of name or id needs column mapping
// (AddColumnMappingFeature, column_mapping.hpp). Returns true when
// `protocol` changed.
bool AddRequiredFeatures(const std::vector<DeltaColumn>& columns, StringMap& configuration, Protocol& protocol);


// Partition value string (as in add.partitionValues) -> Value of `type`.
// std::nullopt or "" -> a NULL of `type` (PROTOCOL "Partition Value
// Serialization": an empty string is null). Timestamps accept both
// "2024-01-31 10:00:00[.ffffff]" (read as UTC) and ISO-8601 with 'Z'.
// InvalidArgument naming the text and the type when it does not parse.
Result<Value> ParsePartitionValue(const std::optional<std::string>& text, const LogicalType& type);

// Value -> partition value string; std::nullopt for NULL. DATE "2024-01-31",
// TIMESTAMP "2024-01-31 10:00:00" or "...:00.123456" (UTC, as Spark writes),
// TIMESTAMP_NTZ the wall clock in the same form,
// BOOLEAN "true"/"false", DECIMAL with its scale, DOUBLE shortest round-trip.
std::optional<std::string> FormatPartitionValue(const Value& value);

}  // namespace lakestream::delta
