// STREAM(t) inside a streaming table's query: the rows t gained since the
// version the streaming table last read (its "lakestream.stream:" txn, see
// ingestion_scope.hpp), up to t's version when the query was bound.
//
// The first read returns t's current rows (a snapshot, not a replay of its
// log). Later reads replay versions (offset, latest]: commits that only add
// rows give those rows; a commit that updated or deleted rows (which makes a
// Spark streaming read fail) is handled per IngestionScope::non_append:
// CHANGE_FEED reads its inserted and updated (postimage) rows from t's change
// data feed (deletes are counted in skipped_changes, not passed on), FAIL
// stops with an error naming the version, SKIP ignores the commit.
//
// Outside a streaming table STREAM(t) reads like t.
#pragma once

#include "function/table_function.hpp"

namespace lakestream {

struct TableCatalogEntry;

// `options`: the read's own options (STREAM t WITH (skipChangeCommits = true)),
// which override the streaming table's mode for this source.
TableFunctionBinding BindStreamRead(ClientContext& context, TableCatalogEntry& source,
                                    const std::vector<std::pair<std::string, std::string>>& options = {});

}  // namespace lakestream
