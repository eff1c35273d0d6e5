// Net changes: what a STANDARD table stream returns for a window of its
// source's change data feed.
//
// Every row touched in the window is followed from its state before the
// window (or its insertion) to its state after it, through the window's
// deletes, inserts and update_preimage/update_postimage pairs, and reported
// once:
//
//   before window   after window   stream rows
//   absent          present        INSERT (final row)
//   present         absent         DELETE (original row)
//   present         present        UPDATE_BEFORE (original) + UPDATE_AFTER (final),
//                                  nothing when the two are equal
//   absent          absent         nothing
//
// Rows are followed by their key columns when the source has a PRIMARY KEY
// (a key deleted and inserted again is an update), otherwise by their whole
// value, with a version's i-th update_preimage paired with its i-th
// update_postimage (the order lakestream writes them in). Either way,
// applying the stream rows to the source as of the window's start gives the
// source as of its end.
#pragma once

#include <vector>

#include "common/chunk_collection.hpp"

namespace lakestream {

// `feed`: change data feed rows in commit order: `column_count` source
// columns, then _change_type (VARCHAR), _commit_version (BIGINT),
// _commit_timestamp (TIMESTAMP), as ReadChangeFeed produces them.
// `out`: initialised with the source column types + __change_type VARCHAR,
// __commit_version BIGINT, __commit_timestamp TIMESTAMP; rows are appended
// in commit order, an UPDATE_BEFORE right before its UPDATE_AFTER. The feed
// is consumed (its chunks may be moved into `out`).
void ComputeNetChanges(ChunkCollection& feed, idx_t column_count, const std::vector<idx_t>& key_columns,
                       ChunkCollection& out);

// APPEND_ONLY streams: every row inserted in the window (whatever happened
// to it afterwards), as INSERT.
void ComputeAppendOnlyChanges(ChunkCollection& feed, idx_t column_count, ChunkCollection& out);

}  // namespace lakestream
