// Incremental maintenance of a GROUP BY view (ViewAnalysis kind AGGREGATE).
//
// The view's aggregates are decomposed into additive sub-aggregates kept per
// group (the "state"): a leading COUNT(*) (how many input rows the group has:
// at 0 the group vanishes), then per view aggregate
//   COUNT(*): nothing more        COUNT(x): COUNT(x)
//   SUM(x), AVG(x): SUM(x), COUNT(x)
//   MIN(x) / MAX(x): the extreme  COUNT(DISTINCT x): the value
// A refresh runs the decomposed aggregate over the change of the GROUP BY
// input (delta rule), adds the plus side and subtracts the minus side. MIN and
// MAX take new values directly; a group that lost its current extreme, and a
// group whose COUNT(DISTINCT) input changed, is recomputed from the sources
// (only those groups are replaced). The view's rows for the touched groups
// are then rebuilt from their state through the view's own HAVING and
// select list, and diffed against the stored rows.
//
// Where the state lives: in memory between refreshes (in the view's catalog
// entry, ViewRuntime::aggregate), and now and then in
// <db>/_lakestream/ivm/<view>/state-<view version>.parquet, with the source
// versions it reflects in its footer. A state file is written only after the
// view commit it belongs to (or when a refresh changed no view row), so it
// never reflects more than the view does. Any state not newer than the view
// is usable: a refresh applies the sources' changes since the state's source
// versions, rebuilds the touched groups' rows and diffs them against the
// stored rows, and a group untouched since the state was saved has the same
// row in the view. So a process that dies (or skips writing the state) costs
// a longer catch-up from the change feeds on the next start, never a wrong
// row; with no usable state the view is recomputed and diffed.
//
// The view's stored rows: with deletion vectors on (a view's default) and
// group keys in the view's columns, the state kept in memory also holds each
// group's row as the view stores it and where (data file, row in the file).
// A refresh then takes the touched groups' old rows and row ids from there
// instead of scanning the view, and hands their values to the commit
// (KnownRemovedRows), which writes their change data rows without reading the
// view's files. After the commit (Keep) the rows it wrote are placed in the
// one data file it added, in the order DeltaTable::Commit writes them
// (updates by the row id they replace, then inserts), checked against that
// file's row count; any other outcome (several files, no file, a count that
// differs) forgets the places, and so does a state loaded from a file, a
// recompute, or a view that moved without this process: the next refresh
// then scans the view once and keeps the places of every row again.
// When the view's columns are its keys and aggregates as they are (no HAVING,
// no expression) and of flat types, the rows are kept by group id in typed
// cells (ViewStoredRows): a refresh builds its new rows straight from the
// state into chunks and compares them cell by cell, with no Value per cell
// and no lookup by encoded key (CommitFromStoredRows). Otherwise they are
// kept by encoded key and diffed as rows (StoredRowsFor, DiffRows).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ivm/view_aggregate_state.hpp"
#include "ivm/compiled_view.hpp"
#include "ivm/delta_rule.hpp"
#include "ivm/view_analysis.hpp"
#include "ivm/view_diff.hpp"
#include "ivm/view_stored_rows.hpp"

namespace lakestream {

struct TableCatalogEntry;

class AggregateMaintainer {
 public:
  AggregateMaintainer(ClientContext& context, TableCatalogEntry& view, std::shared_ptr<const CompiledView> compiled);

  // Takes the state: the one kept in memory since this process last
  // refreshed the view, if the view has not moved since, else the newest state
  // file not newer than the view. False when there is none (first refresh, a
  // crash before any state was written): the caller recomputes. The view
  // keeps no state in memory until Keep(), so a refresh that fails halfway
  // leaves none half-updated.
  bool LoadState();
  // The source versions the loaded state reflects (lower-case name -> version).
  const std::map<std::string, int64_t>& StateVersions() const { return versions_; }

  // Incremental refresh: applies `deltas` to the state and adds the changed
  // view rows to `commit`; `read`: the view's files it read (for the commit).
  // Returns the number of groups touched.
  // `removed`: the values of the rows the commit removes (commit.deleted_rows'
  // and then commit.updated_row_ids'), when located through the stored rows
  // (for KnownRemovedRows); left empty otherwise.
  idx_t ApplyChanges(const std::map<std::string, SourceDelta>& deltas, TableCommit& commit, DeltaFileRows& read,
                     ChunkCollection& removed);
  // Recomputes the state of every group from the sources (recompute-and-diff
  // refreshes keep the state of an aggregate view current this way).
  void RebuildState();
  // After the refresh left the view at `view_version` reflecting `versions`
  // (call only once the view's commit succeeded): keeps the state in memory
  // for the next refresh and writes it to a file when it was `rebuilt` or
  // enough change went by since the last file (`change_rows`: the source
  // change rows this refresh read), so a restart's catch-up stays bounded.
  void Keep(int64_t view_version, const std::map<std::string, int64_t>& versions, idx_t change_rows, bool rebuilt);

  // The directory holding a view's state files.
  static std::string StateDirectory(ClientContext& context, const std::string& view_name);

 private:
  struct SubAggregate {
    AggregateSignature signature;
    idx_t aggregate = 0;  // which aggregate of the view it serves
  };
  using GroupId = ViewAggregateState::GroupId;
  static constexpr GroupId kNoGroup = ~GroupId(0);

  // What a view keeps in memory between refreshes (ViewRuntime::aggregate).
  struct Cache;
  // A group's row as the view stores it: its values and place (file: index
  // into StoredRows::paths, position: row in that file).
  struct StoredRow {
    Row row;
    uint32_t file = 0;
    uint32_t position = 0;
  };
  // Every row of the view, when known (see the header): by group id
  // (`by_group`, when by_group_) or else by encoded group key (`rows`).
  struct StoredRows {
    bool known = false;
    std::unordered_map<std::string, StoredRow> rows;
    std::vector<std::string> paths;
    std::unordered_map<std::string, uint32_t> path_ids;
    std::unique_ptr<ViewStoredRows> by_group;
    uint32_t PathId(const std::string& path);
    void Clear();
  };
  // The rows a refresh's commit writes and removes, placed by Keep().
  struct PendingRows {
    std::vector<std::string> removed;                      // keys whose row goes
    std::vector<std::pair<std::string, Row>> written;      // in the order the data file gets them
    std::vector<std::string> paths_before;                 // the view's files before the commit
    // By group (by_group_): the groups whose row goes, the groups whose row
    // is written in the order the data file gets them, and each one's row in `fresh`.
    std::vector<GroupId> removed_groups;
    std::vector<GroupId> written_groups;
    std::vector<idx_t> written_rows;
    ChunkCollection fresh;
  };

  // Writes the state file of `view_version` (fsynced, then the other state files go).
  void SaveState(int64_t view_version);
  void PruneStates(int64_t keep_version);
  bool LoadStateFile(int64_t view_version);
  LogicalOperatorPtr BuildStatePlan() const;
  // The view rows (output of the view's query) of the given groups.
  std::vector<Row> ViewRowsFor(const std::vector<GroupId>& groups);
  // The value of view aggregate `j` for a group's state.
  Value FinalValue(GroupId group, idx_t j) const;
  std::vector<Row> RunStatePlan();
  std::string StatePath(int64_t view_version) const;
  // Builds stored_ from a scan of the whole view; false when its rows cannot
  // be keyed by group (a key repeats).
  bool LoadStoredRows();
  // The row ids of rows at `places` ((index into `paths`, row in the file))
  // in the current snapshot; false when a row's file is not in it.
  bool RowIdsOf(const std::vector<std::string>& paths, const std::vector<std::pair<uint32_t, uint32_t>>& places,
                std::vector<row_t>& ids) const;
  // The touched groups' stored rows as ViewRows (ids in the current snapshot);
  // false when a row's file is not in it.
  bool StoredRowsFor(const std::vector<std::string>& keys, ViewRows& out);
  // True when a view row's key columns encode like its group's state key
  // (the select list is keys and aggregates, keys in GROUP BY order and type),
  // so a group's stored row is found by its state key.
  bool KeysAreStateKeys() const;
  // With the stored rows known by group (by_group_): adds to `commit` what
  // turns the touched groups' (`ids`; `live`: whether each still has rows)
  // stored rows into their rows now (an update where both exist and differ,
  // a delete or insert where one does), the removed rows' values to
  // `removed` (deleted, then updated, for KnownRemovedRows) and what Keep()
  // places to pending_. False, with nothing added, when a stored row's file
  // is not in the snapshot.
  bool CommitFromStoredRows(const std::vector<GroupId>& ids, const std::vector<uint8_t>& live, TableCommit& commit,
                            ChunkCollection& removed);
  // The view rows of `groups` (live ones), built from the state into chunks
  // (by_group_ views: the view's columns are keys and aggregates).
  ChunkCollection NewRows(const std::vector<GroupId>& groups) const;
  // Writes view aggregate `j` of `groups` into `out` (rows 0 ..).
  void WriteFinals(Vector& out, const GroupId* groups, idx_t count, idx_t j) const;
  // After the commit: places pending_ in the snapshot, or forgets stored_.
  void PlacePendingRows();

  ClientContext& context_;
  TableCatalogEntry& view_;
  std::shared_ptr<const CompiledView> compiled_;
  const ViewAnalysis& analysis_;
  idx_t group_count_ = 0;
  std::vector<idx_t> group_columns_;  // 0 .. group_count_ - 1: the keys' columns in a state row
  std::vector<AggregateSignature> view_aggregates_;
  std::vector<SubAggregate> subs_;
  std::vector<idx_t> first_sub_;  // per view aggregate: its first sub-aggregate
  // When the view's columns are its keys and aggregates as they are: per
  // column, (is a key, key or aggregate index) and the column's type; empty otherwise.
  std::vector<std::pair<bool, idx_t>> direct_;
  std::vector<LogicalType> view_types_;
  // The stored rows are kept by group id (KeysAreStateKeys, flat column types).
  bool by_group_ = false;
  std::vector<LogicalType> state_types_;
  std::unique_ptr<ViewAggregateState> state_;
  StoredRows stored_;
  PendingRows pending_;
  std::map<std::string, int64_t> versions_;
  // Refreshes and source change rows since the state file was written.
  idx_t refreshes_unsaved_ = 0;
  idx_t rows_unsaved_ = 0;
};

}  // namespace lakestream
