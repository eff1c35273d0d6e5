// How a streaming table's refresh turns its query's rows into a commit.
//
// Columns match by name (case-insensitive): table columns the query lacks are
// NULL; a query column the table lacks is an error (the query changed since
// the table was created). Without a primary key the rows are appended. With
// one (PRIMARY KEY in the declared schema), they upsert by key: the newest row
// per key wins (the greatest 'pipelines.sequence_by' column when set, else the
// last row read), and a row whose sequence is older than the stored row's is
// ignored, so corrections that arrive late or twice change nothing.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.hpp"

namespace lakestream {

// Rows of `rows` (named `names`) as rows of `table`'s columns.
ChunkCollection MapToTableColumns(const TableCatalogEntry& table, const std::vector<std::string>& names,
                                  const ChunkCollection& rows);

// Fills commit.inserted (and, with a primary key, commit.updated /
// updated_row_ids) from `rows` (in the table's columns). Returns the number
// of rows ignored because a newer version of their key is already stored.
int64_t PlanStreamingWrite(TableCatalogEntry& table, ChunkCollection rows, TableCommit& commit);

}  // namespace lakestream
