#include "ivm/view_refresh.hpp"
#include "execution/plan_executor.hpp"

#include <optional>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "ivm/aggregate_maintainer.hpp"
#include "ivm/compiled_view.hpp"
#include "ivm/delta_rule.hpp"
#include "ivm/recompute_diff.hpp"
#include "ivm/view_analysis.hpp"
#include "ivm/view_diff.hpp"
#include "ivm/view_row_index.hpp"
#include "ivm/view_status.hpp"
#include "storage/table/deletion_vector_update.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

using VersionMap = std::map<std::string, int64_t>;  // lower-case source name -> version

std::string SourceTxnAppId(const std::string& source) { return "lakestream.view.source." + StringUtil::Lower(source); }

std::string ViewRefreshMode(const TableCatalogEntry& view) { return view.state.refresh.value_or("auto"); }

static DeltaTable& SourceTable(ClientContext& context, const TableCatalogEntry& view, const std::string& source) {
  TableCatalogEntry* entry = context.GetCatalog().FindTable(source);
  DeltaTable* delta = entry ? DatabaseInstance::AsDelta(*entry) : nullptr;
  if (entry && !delta && !entry->load_error.empty()) {
    throw IOError("materialized view " + view.name + " reads " + entry->name + ", which cannot be opened: " +
                  entry->load_error + "; restore " + entry->name + "'s files, or DROP MATERIALIZED VIEW " + view.name);
  }
  if (!delta) {
    throw CatalogError("materialized view " + view.name + " reads " + source +
                       ", which no longer exists (dropped or renamed); recreate " + source +
                       ", point the view at its new name with CREATE OR REPLACE MATERIALIZED VIEW " + view.name +
                       " AS ..., or DROP MATERIALIZED VIEW " + view.name);
  }
  return *delta;
}

// What the view's rows reflect for `sources`: its log's txn actions, the one
// record once the view has a commit; the catalog's only for a source no
// commit names (see the header).
static VersionMap ReflectedVersions(TableCatalogEntry& view, const std::vector<std::string>& sources) {
  VersionMap out;
  DeltaTable* storage = DatabaseInstance::AsDelta(view);
  for (auto& source : sources) {
    std::string key = StringUtil::Lower(source);
    int64_t version = -1;
    auto txn = storage ? storage->Snapshot().TxnVersion(SourceTxnAppId(source)) : std::nullopt;
    if (txn) {
      version = *txn;
    } else if (view.state.sources) {
      auto it = view.state.sources->find(key);
      if (it != view.state.sources->end()) version = it->second;
    }
    if (version >= 0) out[key] = version;
  }
  return out;
}

std::map<std::string, int64_t> ViewSourceVersions(TableCatalogEntry& view) {
  std::vector<std::string> sources;
  if (view.state.sources) {
    for (auto& [source, version] : *view.state.sources) sources.push_back(source);
  }
  return ReflectedVersions(view, sources);
}

std::vector<const ChangeSet*> KeptChangesOf(ClientContext& context, const DeltaTable& table) {
  std::vector<const ChangeSet*> kept;
  std::string identity;
  for (const ChangeSet& set : context.RecentChanges()) {
    if (set.table != &table) continue;
    if (identity.empty()) identity = table.Identity();
    if (set.table_identity == identity) kept.push_back(&set);
  }
  for (const ChangeSet& set : context.CommittedChanges()) kept.push_back(&set);
  return kept;
}

// The change of every source from `base` to `current`; false when a source is
// not covered (no base, or a source that went back in time: it was recreated).
// A change the statement's commits hold in memory is taken from there
// (`*from_feed` stays false); any other is read from the change feed.
static bool ReadDeltas(ClientContext& context, TableCatalogEntry& view, const VersionMap& base, const VersionMap& current,
                       std::map<std::string, SourceDelta>& deltas, bool* from_feed) {
  for (auto& [source, version] : current) {
    auto it = base.find(source);
    if (it == base.end() || it->second > version) return false;
    if (it->second == version) continue;
    DeltaTable& table = SourceTable(context, view, source);
    if (auto kept = SourceDeltaFromCommits(table, it->second, version, KeptChangesOf(context, table))) {
      deltas[source] = std::move(*kept);
      continue;
    }
    *from_feed = true;
    deltas[source] = ReadSourceDelta(table, it->second, version);
  }
  return true;
}

// The view's row index, brought to its current snapshot; null when the view
// removes rows by rewriting files (no deletion vectors), where keeping it
// would mean rebuilding it after every refresh.
static ViewRowIndex* RowIndexOf(TableCatalogEntry& view, DeltaTable& storage) {
  ViewRuntime& runtime = RuntimeOf(view);
  if (!WritesDeletionVectors(storage.Snapshot())) {
    runtime.rows.reset();
    return nullptr;
  }
  if (!runtime.rows) runtime.rows = std::make_shared<ViewRowIndex>();
  try {
    runtime.rows->Sync(storage);
  } catch (...) {
    runtime.rows.reset();  // half-built: the next refresh starts again
    throw;
  }
  return runtime.rows.get();
}

RefreshOutcome RefreshView(ClientContext& context, TableCatalogEntry& view, bool full) {
  DeltaTable* storage = DatabaseInstance::AsDelta(view);
  if (!storage && !view.load_error.empty()) {
    throw IOError("materialized view " + view.name + " cannot be opened: " + view.load_error +
                  "; DROP MATERIALIZED VIEW " + view.name + " and create it again");
  }
  if (!storage) throw NotImplementedError("materialized views need a database directory (view " + view.name + ")");
  // The recorded sources first: a dropped or renamed one is named as such,
  // not as an unknown table in the view's query.
  const VersionMap recorded_sources = view.state.sources.value_or(VersionMap());
  for (auto& [source, version] : recorded_sources) SourceTable(context, view, source);
  std::shared_ptr<const CompiledView> compiled = CompileView(context, view);
  const ViewAnalysis& analysis = compiled->analysis;
  VersionMap current;
  for (auto& source : analysis.sources) current[StringUtil::Lower(source)] = SourceTable(context, view, source).Version();

  RefreshOutcome outcome;
  // "up to date" is decided by the versions the view reflects, not by an
  // aggregate's state (which may be older: catching it up would answer
  // "incremental" with nothing changed).
  if (!full && analysis.kind != MaintenanceKind::RECOMPUTE && ReflectedVersions(view, analysis.sources) == current &&
      view.state.maintenance.value_or("") == MaintenanceKindToString(analysis.kind)) {
    if (view.state.ClearFailure()) context.Database().SaveCatalog();
    outcome.path = "up to date";
    return outcome;
  }
  TableCommit commit;
  DeltaFileRows read;  // the view's files the refresh read, which the commit rewrites
  commit.operation = "REFRESH MATERIALIZED VIEW";
  std::unique_ptr<AggregateMaintainer> aggregate;
  if (analysis.kind == MaintenanceKind::AGGREGATE) aggregate = std::make_unique<AggregateMaintainer>(context, view, compiled);
  ChunkCollection removed;  // the values of the rows it removes, when located without a scan (row index, stored rows)
  ViewRowIndex* row_index = nullptr;  // set when an incremental row refresh located its removals through it
  std::string fallback;  // why an incremental view was recomputed this time
  idx_t change_rows = 0;  // source change rows read
  bool done = false;
  if (!full && analysis.kind != MaintenanceKind::RECOMPUTE) {
    VersionMap base;
    bool have_base = true;
    if (aggregate) {
      have_base = aggregate->LoadState();
      base = aggregate->StateVersions();
    } else {
      base = ReflectedVersions(view, analysis.sources);
    }
    std::map<std::string, SourceDelta> deltas;
    try {
      bool from_feed = false;
      bool covered = have_base && ReadDeltas(context, view, base, current, deltas, &from_feed);
      if (covered && !deltas.empty()) {
        RuntimeOf(view).last_changes = from_feed ? "the change data feed" : "the statement's commits (in memory)";
      }
      for (auto& [source, delta] : deltas) change_rows += delta.plus->Count() + delta.minus->Count();
      if (!covered) {
        fallback = "no incremental state matched the view's version";
      } else if (deltas.empty()) {
        outcome.path = "up to date";
        done = true;
      } else if (aggregate) {
        aggregate->ApplyChanges(deltas, commit, read, removed);
        done = true;
      } else {
        ChunkCollection plus, minus;
        RunDeltaRule(context, [&] { return compiled->Plan(context); }, deltas, plus, minus);
        row_index = RowIndexOf(view, *storage);
        RowLocator locate;
        if (row_index) {
          locate = [&](const ChunkCollection& wanted, std::vector<row_t>& ids) { return row_index->Locate(wanted, ids); };
        }
        done = ApplyBagChange(*view.storage, view.Types(), minus, plus, analysis.key_columns,
                              commit, read, locate, &removed);
        if (!done) fallback = "the view did not hold a row its sources' change removed";
      }
    } catch (const InvalidInputError& e) {
      // The change feed cannot be read (history vacuumed, feed turned off for a while).
      fallback = e.what();
    } catch (const IOError& e) {
      fallback = e.what();
    }
    if (done && outcome.path.empty()) outcome.path = "incremental";
  }
  if (!done) {
    row_index = nullptr;
    removed = ChunkCollection();
    read = DeltaFileRows();
    commit = TableCommit();
    commit.operation = "REFRESH MATERIALIZED VIEW";
    outcome.path = "recompute-and-diff";
    // On columns (recompute_diff.hpp): Value rows of the result and of the
    // view took ~1 KB a row (10.3 GB for a 10M-row join view).
    // Whole files are kept for the commit only where it rewrites them.
    bool rewrites_files = !WritesDeletionVectors(storage->Snapshot());
    DiffViewAgainstResult(*view.storage, view.Types(), ExecutePlan(context, compiled->Plan(context)),
                          analysis.key_columns, rewrites_files, commit, read, &removed);
    if (aggregate) aggregate->RebuildState();
  }
  for (auto& [source, version] : current) commit.txns.push_back({SourceTxnAppId(source), version});
  outcome.inserted = static_cast<int64_t>(commit.inserted.Count());
  outcome.updated = static_cast<int64_t>(commit.updated.Count());
  outcome.deleted = static_cast<int64_t>(commit.deleted_rows.size());
  // A full refresh also records source versions that went down (a source
  // rebuilt by a pipeline full refresh starts again at version 0), even when
  // no row changed: the versions the view reflects must be the new table's.
  bool went_down = false;
  if (full) {
    for (auto& [source, version] : ReflectedVersions(view, analysis.sources)) {
      auto now = current.find(source);
      went_down = went_down || (now != current.end() && now->second < version);
    }
  }
  // Once the view's log records its sources (its first commit), it is their
  // one record: versions it does not hold yet are committed too, as txns
  // alone when no row changed. Before that the catalog holds them.
  const bool moved = ReflectedVersions(view, analysis.sources) != current;
  bool logged = false;
  for (auto& source : analysis.sources) logged = logged || storage->Snapshot().TxnVersion(SourceTxnAppId(source)).has_value();
  bool committed = commit.ChangedRows() > 0 || went_down || (logged && moved);
  if (committed) {
    std::optional<KnownRemovedRows> known;
    if (removed.Count() > 0) known.emplace(*storage, commit, removed);
    storage->Commit(commit, read);
  }
  if (committed && row_index) row_index->Forget();
  // Only now, so the state never reflects a commit that did not happen.
  if (aggregate) aggregate->Keep(storage->Version(), current, change_rows, outcome.path == "recompute-and-diff");

  TableState& state = view.state;
  const TableState recorded = state;
  bool was_failed = state.ClearFailure();
  state.maintenance = MaintenanceKindToString(analysis.kind);
  state.shape = analysis.kind == MaintenanceKind::AGGREGATE ? "aggregate" : analysis.kind == MaintenanceKind::ROWS ? "rows" : "query";
  state.reason = analysis.reason;
  state.sources = current;
  state.last_refresh = ViewRefreshRecord{outcome.path,     fallback,        storage->Version(),
                                         outcome.inserted, outcome.updated, outcome.deleted};
  // The catalog is saved (three fsyncs) only when it has to say something the
  // view's Delta log does not: once the log records the source versions
  // (every later refresh that reaches new ones commits), only a new shape, a
  // new set of sources or a cleared failure need it; before the view's first
  // commit, versions reached too. last_refresh alone is informational and
  // rides along with the next save.
  bool same_shape = recorded.maintenance && recorded.shape && recorded.reason && recorded.maintenance == state.maintenance &&
                    recorded.shape == state.shape && recorded.reason == state.reason;
  bool same_sources = recorded.sources && recorded.sources->size() == current.size();
  for (auto& [source, version] : current) {
    if (!same_sources) break;
    same_sources = recorded.sources->count(source) > 0;
  }
  if (!same_shape || !same_sources || was_failed || (moved && !committed)) context.Database().SaveCatalog();
  return outcome;
}

bool ViewIsStale(ClientContext& context, TableCatalogEntry& view) {
  if (!view.state.sources) return true;
  for (auto& [source, version] : ViewSourceVersions(view)) {
    TableCatalogEntry* entry = context.GetCatalog().FindTable(source);
    DeltaTable* delta = entry ? DatabaseInstance::AsDelta(*entry) : nullptr;
    if (!delta || delta->Version() != version) return true;
  }
  return false;
}

}  // namespace lakestream
