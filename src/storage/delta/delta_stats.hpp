// Per-file statistics of add actions (PROTOCOL.md "Per-file Statistics"):
// the JSON string {"numRecords":N,"minValues":{...},"maxValues":{...},
// "nullCount":{...}} that readers use for data skipping.
//
// What MakeStatsJson writes, per top-level non-nested column (nested columns
// and partition columns are left out; pass only the file's data columns):
//   * nullCount: always;
//   * INTEGER/BIGINT/DOUBLE (finite): numbers; DECIMAL: exact decimal numbers
//     ("12.34", written by hand, not through a double);
//   * DATE: "YYYY-MM-DD"; TIMESTAMP: ISO-8601 UTC truncated to milliseconds,
//     "2024-01-31T10:00:00.123Z" (the protocol allows the truncation; readers
//     widen max by 1 ms);
//   * VARCHAR: min truncated to 32 characters (a prefix is <= every value);
//     max omitted when longer than 32 characters (rather than guessing a
//     bumped prefix); strings that are not valid UTF-8 get no min/max;
//   * BOOLEAN: no min/max (as Spark).
// Missing min/max only costs skipping power, never correctness.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream::delta {

// `names`/`types` describe the columns of `info.columns` (same order).
std::string MakeStatsJson(const std::vector<std::string>& names, const std::vector<LogicalType>& types,
                          const ParquetFileInfo& info);

// The JSON stats of an add from its checkpoint's struct statistics
// (add.stats_parsed: numRecords, minValues, maxValues, nullCount and
// tightBounds as typed columns, written instead of the JSON text when a table
// sets delta.checkpoint.writeStatsAsJson = false). Values follow the rules
// above (a DECIMAL bound is a JSON string, which readers parse exactly);
// a bound that cannot be written is left out, which only costs skipping.
std::string StatsJsonFromStruct(const Value& stats_parsed);

// The inverse, for the checkpoints we write (PROTOCOL.md "Checkpoint
// Schema": add.stats_parsed, as Spark writes with
// delta.checkpoint.writeStatsAsStruct): STRUCT(numRecords BIGINT,
// minValues STRUCT(col type...), maxValues STRUCT(...), nullCount
// STRUCT(col BIGINT...)) over the table's top-level non-nested data columns
// (partition columns have no statistics), named as the stats name them: by
// physical name when `physical_names`. minValues / maxValues carry the
// INTEGER, BIGINT, DOUBLE, DATE, TIMESTAMP[_NTZ] and VARCHAR columns (the
// types whose JSON bounds convert exactly; others have none there, which
// only costs skipping); a struct without fields is left out.
LogicalType StatsParsedType(const std::vector<DeltaColumn>& schema, const std::vector<std::string>& partition_columns,
                            bool physical_names);
// One file's `stats` JSON as a value of `type` (StatsParsedType): NULL when
// it has none or it does not parse; a bound or count that does not convert
// to its column's type is NULL.
Value StatsParsedValue(const LogicalType& type, const std::optional<std::string>& stats);

// The numRecords of an add's stats, checked, for answering COUNT(*) from the
// log: nullopt when there are no stats or they omit numRecords (the rows must
// then be counted). Corruption naming `file` when the stats are not a JSON
// object, numRecords is not a non-negative integer, or a nullCount is not a
// non-negative integer no larger than numRecords: stats that lie must not
// become an answer.
Result<std::optional<int64_t>> CheckedNumRecords(const std::optional<std::string>& stats, const std::string& file);
// The same for an add: from its typed counts (AddFile::counts) when it has
// them, without parsing `stats`.
Result<std::optional<int64_t>> CheckedNumRecords(const AddFile& add, const std::string& file);
// The rows of `add` that a read returns: its checked numRecords less its
// deletion vector's cardinality. nullopt when either is unknown (no stats,
// a deletion vector that does not parse) or they contradict each other
// (CheckedNumRecords fails, more rows deleted than the file has): a count
// must then read the file, which reports what is wrong with it.
std::optional<int64_t> LiveRecords(const AddFile& add);

}  // namespace lakestream::delta
