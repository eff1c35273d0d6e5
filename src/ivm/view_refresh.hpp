// Bringing a materialized view up to date: the refresh driver behind CREATE,
// REFRESH MATERIALIZED VIEW and the automatic refresh after each statement.
//
// A refresh reads each source's current version, picks a path and commits
// the view's difference as one Delta commit that also records, per source, a
// txn action (appId "lakestream.view.source.<source>", version = the source
// version reflected). The paths:
//   incremental ROWS       the delta rule over the sources' change feeds;
//   incremental AGGREGATE  aggregate state + delta rule (aggregate_maintainer.hpp);
//   recompute-and-diff     the whole query, diffed against the stored rows
//                          (views that cannot be incremental, REFRESH ... FULL,
//                          and recovery when history or state is missing).
// Where a view's rows reflect the sources: the txn actions of its log, the
// one record (the catalog's "sources" only for a source no commit names
// yet). A refresh that reaches new source versions always commits, as txns
// alone when no row changes, and saves the catalog only for a new shape or
// set of sources. So no crash can make a change apply twice.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lakestream {

class ClientContext;
class DeltaTable;
struct ChangeSet;
struct TableCatalogEntry;

struct RefreshOutcome {
  std::string path;  // "incremental", "recompute-and-diff", or "up to date"
  int64_t inserted = 0;
  int64_t updated = 0;
  int64_t deleted = 0;
};

// The txn appId under which a view records the version of `source` it reflects.
std::string SourceTxnAppId(const std::string& source);

// Refreshes `view` (a materialized view with Delta storage); `full` forces
// recompute-and-diff. Saves the catalog when it must (see above).
RefreshOutcome RefreshView(ClientContext& context, TableCatalogEntry& view, bool full);

// The source versions the view reflects (lower-case source name -> version):
// the view's txn actions (the catalog's record for a source they lack).
std::map<std::string, int64_t> ViewSourceVersions(TableCatalogEntry& view);

// True when a source has a version the view does not reflect yet (cheap: it
// compares recorded and current versions).
bool ViewIsStale(ClientContext& context, TableCatalogEntry& view);

// The change sets in memory that may hold commits of `table`, in commit
// order: those earlier statements of the connection left
// (ClientContext::RecentChanges) whose identity is the table's (the object
// they point at may be gone and its address reused), then the current
// statement's.
std::vector<const ChangeSet*> KeptChangesOf(ClientContext& context, const DeltaTable& table);

// "auto" or "manual".
std::string ViewRefreshMode(const TableCatalogEntry& view);

}  // namespace lakestream
