// Row-group statistics of a Parquet file: the min/max/null count of a column
// chunk decoded into engine Values, and whether a row group can hold a row
// that passes the scan's filters (row-group skipping). Pure functions of the
// parsed footer; nothing is read from the file.
//
// Statistics are untrusted input: a value of the wrong size or an unknown
// encoding decodes to NULL (no bound), never to an error, so a file with
// strange statistics is read in full rather than refused.
#pragma once

#include <string>
#include <vector>

#include "storage/parquet/parquet_metadata.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_schema.hpp"

namespace lakestream::parquet {

// A statistic's bytes as a value of the leaf's type; NULL when they do not fit.
Value DecodeStatValue(const LeafDesc& leaf, const std::string& bytes);

// The statistics of top-level `column` in row group `rg`: min and max both
// NULL unless both decode (and always for a nested column), null_count when
// the writer gave one. Out-of-range arguments give empty statistics.
ParquetColumnStats ColumnChunkStats(const FileMetaData& md, const ParquetSchema& schema, idx_t rg, idx_t column);

// False only when the statistics prove that no row of `rg` passes every filter.
bool RowGroupCanMatch(const FileMetaData& md, const ParquetSchema& schema, const std::vector<ParquetFilter>& filters, idx_t rg);

}  // namespace lakestream::parquet
