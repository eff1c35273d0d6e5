// How a streaming table's refresh turns its query's rows into a commit.
//
// Columns match by name (case-insensitive): table columns the query lacks are
// NULL; a query column the table lacks is added to the table (schema
// evolution), unless the table declares its columns. Without a primary key the rows are appended. With
// one (PRIMARY KEY in the declared schema), they upsert by key: the newest row
// per key wins (the greatest 'pipelines.sequence_by' column when set, else the
// last row read), and a row whose sequence is older than the stored row's is
// ignored, so corrections that arrive late or twice change nothing.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "function/table/ingestion_scope.hpp"

namespace lakestream {

class DeltaTable;

// Schema evolution: `table`'s columns once its query returns `names` of
// `types`: new query columns appended, STRUCT columns with the new fields
// the query's type has (at any depth), and with delta.enableTypeWidening =
// true, types widened where Delta widens them during schema evolution
// (DeltaWidensOnEvolution). Without `allow_new` (a declared column list), a
// new query column is an error that says how to add it.
// Points `scope` at what `table` (null: not created yet) has ingested: its
// Delta snapshot's txns, or for an in-memory table a copy of its txn map
// kept in `memory_txns`, which must outlive the scope. Returns the Delta
// table, or null.
DeltaTable* AttachIngestedTxns(TableCatalogEntry* table, IngestionScope& scope,
                               std::map<std::string, int64_t>& memory_txns);

std::vector<TableColumn> EvolveStreamingColumns(const TableCatalogEntry& table, const std::vector<std::string>& names,
                                                const std::vector<LogicalType>& types, bool allow_new);

// Rows of `rows` (named `names`) as rows of `columns` (the table's, after evolution).
ChunkCollection MapToTableColumns(const TableCatalogEntry& table, const std::vector<TableColumn>& columns,
                                  const std::vector<std::string>& names, const ChunkCollection& rows);

// Fills commit.inserted (and, with a primary key, commit.updated /
// updated_row_ids) from `rows` (in `columns`, the table's after evolution;
// stored rows are read in the table's current columns and conformed).
// Returns the number of rows ignored because a newer version of their key
// is already stored.
int64_t PlanStreamingWrite(TableCatalogEntry& table, const std::vector<TableColumn>& columns, ChunkCollection rows,
                           TableCommit& commit);

}  // namespace lakestream
