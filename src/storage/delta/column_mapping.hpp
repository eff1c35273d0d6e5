// Delta column mapping on the write side (PROTOCOL "Column Mapping"): which
// names and Parquet field ids a mapped table's data files use, and how new
// columns get their ids and physical names.
//
// Under mode name or id every field of the schema, at any depth, carries
// delta.columnMapping.id (unique, at most delta.columnMapping.maxColumnId)
// and delta.columnMapping.physicalName. Data files name columns and STRUCT
// fields by the physical name; mode id also stores the id as each such
// Parquet element's field_id. Partition values and statistics are keyed by
// the physical name. The reading side is delta_schema.hpp (PhysicalType).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream::delta {

// The table properties that hold the mapping state.
inline constexpr const char* kColumnMappingMode = "delta.columnMapping.mode";
inline constexpr const char* kColumnMappingMaxId = "delta.columnMapping.maxColumnId";

// delta.columnMapping.mode of `configuration` (key matched case-insensitively),
// lower-cased; "none" when unset.
std::string ColumnMappingModeOf(const StringMap& configuration);

// How `column` is stored in a data file of a table with mapping `mode`:
// its physical name, the physical names of its STRUCT fields at every depth
// and, when `mode` is "id", each one's id as field_id. Fields without
// mapping metadata keep their logical names.
ParquetField MappedParquetField(const DeltaColumn& column, const std::string& mode);

// The physical name of a top-level column (its name when it has none).
std::string PhysicalNameOf(const DeltaColumn& column);

// Gives every field of `schema` (at any depth) that lacks them an id, one
// above the largest in use and delta.columnMapping.maxColumnId, and a
// physical name from `new_name` (called with the field's logical name and
// its id, new or not), and
// sets delta.columnMapping.maxColumnId in `configuration` to the largest id.
// Fields that have both keep them, so existing data files stay readable.
// InvalidArgument when the schema cannot be serialized.
Status AssignColumnMapping(std::vector<DeltaColumn>& schema, StringMap& configuration,
                           const std::function<std::string(const std::string&, int64_t)>& new_name);

// Raises `protocol` to what column mapping needs: reader 2 / writer 5, or
// the reader and writer feature columnMapping on a table at reader 3 /
// writer 7. Returns true when `protocol` changed.
bool AddColumnMappingFeature(Protocol& protocol);

}  // namespace lakestream::delta
