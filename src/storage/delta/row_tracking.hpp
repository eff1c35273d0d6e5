// Row tracking (PROTOCOL.md "Row Tracking", writer feature rowTracking, which
// needs domainMetadata). Every row has a row id and a row commit version:
//
//   supported  := "rowTracking" in protocol.writerFeatures
//   assigning  := supported and delta.rowTrackingSuspended is not true
//   enabled    := assigning and delta.enableRowTracking = true
//
//   fresh row id           := add.baseRowId + (physical index of the row in the file)
//   fresh commit version   := add.defaultRowCommitVersion
//   stable row id          := materialized row id column value, when not NULL, else the fresh id
//   stable commit version  := materialized commit version column value, when not NULL, else fresh
//   high water mark        := domainMetadata "delta.rowTracking",
//                             configuration {"rowIdHighWaterMark": <largest fresh id ever given>}
//
// While assigning, every commit gives each new add (in action order)
// baseRowId = mark + 1 and moves the mark by the add's numRecords, sets
// defaultRowCommitVersion = the commit's version, and writes the new mark
// (AssignRowIds; a commit that loses a race is assigned again at its new
// version). Removes repeat the removed add's two fields. While enabled, rows
// copied into new files (UPDATE, DELETE, MERGE, OPTIMIZE) keep their stable
// values in the hidden columns named by the table properties below (not part
// of the schema); an updated row keeps its id and gets a NULL commit version.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "storage/delta/delta_actions.hpp"

namespace lakestream {
class FileSystem;
}  // namespace lakestream

namespace lakestream::delta {

struct Snapshot;

inline constexpr const char* kRowTrackingFeature = "rowTracking";
inline constexpr const char* kRowTrackingDomain = "delta.rowTracking";
inline constexpr const char* kEnableRowTracking = "delta.enableRowTracking";
inline constexpr const char* kRowTrackingSuspended = "delta.rowTrackingSuspended";
inline constexpr const char* kMaterializedRowIdColumn = "delta.rowTracking.materializedRowIdColumnName";
inline constexpr const char* kMaterializedRowCommitVersionColumn =
    "delta.rowTracking.materializedRowCommitVersionColumnName";

// Whether writers must give new adds baseRowId/defaultRowCommitVersion (see above).
bool RowTrackingAssigns(const Protocol& protocol, const Metadata& metadata);
// delta.enableRowTracking = true (writers must then preserve stable values).
bool RowTrackingEnabled(const Metadata& metadata);

// The hidden columns holding materialized row ids and commit versions.
struct MaterializedColumns {
  std::string row_id;
  std::string row_commit_version;
};
// Both names from `metadata`'s configuration; nullopt when either is missing.
std::optional<MaterializedColumns> MaterializedColumnNames(const Metadata& metadata);

// When `configuration` enables row tracking and lacks a materialized column
// name, adds it: the one of `previous` (the metadata of a table being
// replaced, or nullptr) when it has one, else a new one as Spark names them:
// `_row-id-col-<uuid>` and `_row-commit-version-col-<uuid>` (`new_uuid`
// makes each uuid).
void AssignMaterializedColumnNames(StringMap& configuration, const Metadata* previous,
                                   const std::function<std::string()>& new_uuid);

// The rowIdHighWaterMark of `domains` (nullopt: no row id given yet).
// Corruption when the domain's configuration has no integer mark.
Result<std::optional<int64_t>> RowIdHighWaterMark(const std::map<std::string, DomainMetadata>& domains);

// Whether the commit of `actions` over `base` must assign row ids: the
// protocol and metadata after it (a protocol or metaData among `actions`
// replaces `base`'s) assign them (RowTrackingAssigns).
bool CommitAssignsRowIds(const Snapshot& base, const std::vector<Action>& actions);

// `actions` as committed at `version` over `base`, when CommitAssignsRowIds:
// every add gets fresh baseRowId and defaultRowCommitVersion from `base`'s
// high water mark (values already there are replaced: `actions` may have
// been assigned for a version that lost its race), and when the mark moved
// the delta.rowTracking domain action (replacing one among `actions`).
// InvalidArgument naming the file when an add has no numRecords statistic;
// Corruption for an unreadable mark.
Result<std::vector<Action>> AssignRowIds(std::vector<Action> actions, const Snapshot& base, int64_t version);

// The commit of `actions` over `base` may turn delta.enableRowTracking on
// only when the protocol after it supports row tracking, assignment is not
// suspended, both materialized column names are set, distinct, and not the
// name of a column, and every active file of `base` already has baseRowId
// and defaultRowCommitVersion (lakestream does not backfill them). OK when
// the commit does not turn it on; NotSupported or InvalidArgument naming
// `table` and the fix otherwise. A table that stays enabled must keep its
// materialized column names (its files hold the stable values under them):
// InvalidArgument for a commit that changes or drops either.
Status CheckRowTrackingEnablement(const std::string& table, const Snapshot& base, const std::vector<Action>& actions);

// Sets tags."delta.rowTracking.preserved" of `info` (kept in its JSON) to
// `preserved`: the protocol asks writers to say whether every stable row id
// of rows they updated or copied, and every commit version of rows they
// copied, was kept (true also when no row was updated or copied).
void TagRowTrackingPreserved(CommitInfo& info, bool preserved);

// Stable row ids and commit versions of every row of one data file, by the
// row's physical index.
struct FileRowTracking {
  std::vector<int64_t> row_ids;
  std::vector<int64_t> commit_versions;
};
// Reads them from the Parquet file at `full_path` (the add `add` of a table
// whose materialized columns are `columns`); a file without those columns
// has only fresh values. Corruption naming the file when the add lacks
// baseRowId or defaultRowCommitVersion; the reader's error when it cannot be read.
// `fs` (may be null: opened as named) is the table's file system, which
// keeps the read beneath the table with external access off.
Result<FileRowTracking> ReadFileRowTracking(FileSystem* fs, const std::string& full_path, const AddFile& add,
                                            const MaterializedColumns& columns);

}  // namespace lakestream::delta
