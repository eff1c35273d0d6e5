#include "ivm/view_maintenance.hpp"

#include <set>

#include "catalog/catalog.hpp"
#include "common/crash_point.hpp"
#include "common/delivery_trace.hpp"
#include "common/file_system.hpp"
#include "common/pause_point.hpp"
#include "common/string_util.hpp"
#include "ivm/view_refresh.hpp"
#include "ivm/view_status.hpp"
#include "storage/delta/log_sync.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

// The view's commit must not become durable before the source commits it
// reflects. A statement's own commits are pending in its DeferredLogSync
// already; the background maintainer and a catch-up may reflect commits
// another connection linked and is still making durable (or that another
// thread made durable, which the fsync then repeats cheaply). So the
// sources' _delta_log/ fsyncs go ahead of the view's commit (FlushExcept),
// or happen now without a deferring scope.
static void SourcesDurableFirst(ClientContext& context, TableCatalogEntry& view) {
  if (!view.state.sources) return;
  for (auto& [source, version] : *view.state.sources) {
    TableCatalogEntry* table = context.GetCatalog().FindTable(source);
    DeltaTable* delta = table ? DatabaseInstance::AsDelta(*table) : nullptr;
    if (!delta || IsRemotePath(delta->Log().log_path())) continue;  // object stores: durable when answered
    if (auto* deferred = delta::DeferredLogSync::Current()) {
      deferred->Defer(delta->SharedFs(), delta->Log().log_path());
      continue;
    }
    Status s = delta::SyncLogDirectory(delta->Fs(), delta->Log().log_path());
    if (!s.ok()) s.Throw();
  }
}

// Refreshes the auto views that are behind, each as its own commit, except
// `skip`. A view that fails is marked failed and the statement is warned; it
// is not tried again until a source moves. `after_statement`: the statement
// just committed to a source (the crash point a kill test stops at).
static void MaintainViews(ClientContext& context, const std::string& skip, bool after_statement) {
  if (context.Database().InMemory() || context.Database().Options().read_only) return;
  // A statement that only reads catches views up when the write lock is
  // free; while another process writes, it reads them as last refreshed
  // (WarnAboutStaleViewReads says so) instead of waiting.
  PausePoint("view.before_catch_up_lock");  // test/ivm/view_catch_up_race_test.py
  if (!context.Database().TryAcquireWriteLock()) return;
  // The tables were moved to their latest versions before the lock was
  // taken: a writer that committed a source and then its views meanwhile
  // would leave them looking stale here, and refreshing them again would
  // add the source's changes to them twice. Under the lock nobody commits,
  // so what is read now is what the refresh builds on.
  context.Database().RefreshTables();
  Catalog& catalog = context.GetCatalog();
  auto names = catalog.TableNames(TableKind::MATERIALIZED_VIEW);
  // A view over a view goes stale when the inner one refreshes; rounds repeat
  // until nothing refreshed (at most one round per view: dependencies are acyclic).
  for (idx_t round = 0; round <= names.size(); round++) {
    bool refreshed = false;
    for (auto& name : names) {
      TableCatalogEntry* view = catalog.FindTable(name);
      if (!view || StringUtil::CIEquals(view->name, skip) || ViewRefreshMode(*view) != "auto") continue;
      if (!ViewIsStale(context, *view) || ViewFailedAtCurrentSources(context, *view)) continue;
      if (after_statement) {
        CrashPoint("view.after_source_commit");
        PausePoint("view.after_source_commit");
      }
      try {
        SourcesDurableFirst(context, *view);
        TraceDelivery("maintainer_refresh_view");
        RefreshView(context, *view, false);
        refreshed = true;
      } catch (const std::exception& e) {
        MarkViewFailed(context, *view, e.what());
        context.AddWarning("materialized view " + view->name + " could not be refreshed" +
                           (after_statement ? " after the statement committed (the statement itself succeeded): "
                                            : " while catching it up to its sources (this does not affect the statement): ") +
                           e.what() +
                           ". The view keeps its rows as of its last refresh and shows as failed in SHOW MATERIALIZED VIEWS; "
                           "fix the cause and run REFRESH MATERIALIZED VIEW " + view->name);
      }
    }
    if (!refreshed) break;
  }
}

void MaintainViewsAfterStatement(ClientContext& context) { MaintainViews(context, "", true); }

void CatchUpViewsBeforeStatement(ClientContext& context, SQLStatement& statement) {
  // The view a statement refreshes, replaces or drops is left to it: a REFRESH
  // reports what it caught up, and a DROP needs no refresh first.
  std::string skip;
  if (statement.type == StatementType::REFRESH) skip = static_cast<RefreshStatement&>(statement).name.Name();
  if (statement.type == StatementType::DROP) skip = static_cast<DropStatement&>(statement).name.Name();
  if (statement.type == StatementType::CREATE_VIEW) skip = static_cast<CreateViewStatement&>(statement).name.Name();
  MaintainViews(context, skip, false);
}

void WarnAboutStaleViewReads(ClientContext& context) {
  // The views read, then the views they read (a view over a view that failed
  // is current with respect to it, but behind the tables underneath).
  std::vector<std::pair<std::string, std::string>> pending;  // view, the view read that led to it
  for (auto& name : context.ViewsRead()) pending.emplace_back(name, "");
  std::set<std::string> seen;
  while (!pending.empty()) {
    auto [name, via] = pending.back();
    pending.pop_back();
    TableCatalogEntry* view = context.GetCatalog().FindTable(name);
    if (!view || view->kind != TableKind::MATERIALIZED_VIEW || !seen.insert(StringUtil::Lower(name)).second) continue;
    std::string report = ViewBehindReport(context, *view);
    if (!report.empty()) context.AddWarning(via.empty() ? report : "materialized view " + via + " reads " + view->name + ": " + report);
    if (!view->state.sources) continue;
    for (auto& [source, version] : *view->state.sources) pending.emplace_back(source, via.empty() ? view->name : via);
  }
}

}  // namespace lakestream
