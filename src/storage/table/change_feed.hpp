// The change data feed of a Delta table (PROTOCOL.md "Reader Requirements
// for AddCDCFile"): for each version in a range, the rows of its cdc files
// when it has any, otherwise its added rows as inserts and its removed
// files' rows as deletes (only actions with dataChange = true).
//
// Output columns: the table's columns (as of the newest version read), then
//   _change_type       VARCHAR   insert | update_preimage | update_postimage | delete
//   _commit_version    BIGINT
//   _commit_timestamp  TIMESTAMP
#pragma once

#include <map>

#include <functional>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

struct ChangeFeedSchema {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
};

ChangeFeedSchema GetChangeFeedSchema(const DeltaTable& table);

// Reads the rows of `files` (add or cdc entries of `table`, as of `version`)
// with the table's columns, plus the files' own _change_type column last when
// `with_change_type` (cdc files), and hands each chunk to `consume`. Deletion
// vectors of `files` are applied; `selected_rows` (index in `files` -> sorted
// row indexes) reads only those rows of a file instead.
void ScanTableFiles(const DeltaTable& table, const std::vector<delta::AddFile>& files, int64_t version,
                    bool with_change_type, const std::function<void(DataChunk&)>& consume,
                    const std::map<uint64_t, std::vector<uint64_t>>& selected_rows = {});

// Reads versions [start, end] (inclusive) into `out` (initialised by the
// caller with GetChangeFeedSchema types). Throws InvalidInputError naming the
// table and version when the range is outside the table's history or when the
// change data feed was off at a version in it (with the statement that turns
// it on), IOError naming a data file that is gone. A commit without cdc files
// that replaces a file's deletion vector (same path removed and added) is a
// delete of the rows the new vector adds (and an insert of any it restores),
// not a delete and re-insert of the whole file.
void ReadChangeFeed(DeltaTable& table, int64_t start, int64_t end, ChunkCollection& out);

// Why ReadChangeFeed(table, start, end) would fail, without reading any data
// file: "" when it can read the range, otherwise the reason (a commit that is
// gone, a version where the change data feed was off), as its error says it.
// SHOW STREAMS and the stream read decide staleness with this one function.
std::string ChangeFeedUnreadableReason(DeltaTable& table, int64_t start, int64_t end);

// The first version committed at or after `timestamp` (for a range start):
// 0 before the first commit, the latest version + 1 (not committed yet)
// after the latest commit.
int64_t FirstVersionAtOrAfter(DeltaTable& table, timestamp_t timestamp);
// The last version committed at or before `timestamp` (for a range end).
int64_t LastVersionAtOrBefore(DeltaTable& table, timestamp_t timestamp);

}  // namespace lakestream
