// The columns a table stream shows, known from the catalog alone: the binder
// names them without reading the stream (src/stream/ reads its rows when the
// plan runs).
//
// Columns: the source table's columns, then
//   __change_type       VARCHAR    INSERT | UPDATE_BEFORE | UPDATE_AFTER | DELETE
//   __commit_version    BIGINT     the version of the row's last change
//   __commit_timestamp  TIMESTAMP  that version's commit time
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.hpp"

namespace lakestream {

// Appends the stream metadata columns' names and types.
void AddStreamMetadataColumns(std::vector<std::string>& names, std::vector<LogicalType>& types);

// The catalog entry of the table `stream` reads. Throws CatalogError (the
// stream is stale, drop it) when that table no longer exists.
TableCatalogEntry& StreamSourceEntry(Catalog& catalog, const StreamCatalogEntry& stream);

// The stream's output columns: its source's columns, then the metadata columns.
// Throws like StreamSourceEntry.
void StreamColumns(Catalog& catalog, const StreamCatalogEntry& stream, std::vector<std::string>& names,
                   std::vector<LogicalType>& types);

}  // namespace lakestream
