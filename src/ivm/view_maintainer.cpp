#include "ivm/view_maintainer.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "common/date.hpp"
#include "common/delivery_trace.hpp"
#include "common/file_system.hpp"
#include "common/string_util.hpp"
#include "ivm/view_refresh.hpp"
#include "ivm/view_maintenance.hpp"
#include "storage/delta/log_sync.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

namespace {

void UseChangeSets(ClientContext& context, std::vector<ChangeSet> pending);

bool ExpressionMayReadTables(const ParsedExpression* expr) {
  if (!expr) return false;
  switch (expr->type) {
    case ExpressionType::SUBQUERY_SCALAR:
    case ExpressionType::SUBQUERY_IN:
    case ExpressionType::SUBQUERY_NOT_IN:
    case ExpressionType::SUBQUERY_EXISTS:
    case ExpressionType::SUBQUERY_NOT_EXISTS:
    case ExpressionType::SUBQUERY_ANY:
    case ExpressionType::SUBQUERY_ALL: return true;
    default: break;
  }
  // SYSTEM$STREAM_HAS_DATA and its kin read catalog objects.
  if (expr->type == ExpressionType::FUNCTION && expr->function_name.find('$') != std::string::npos) return true;
  if (expr->subquery || expr->window) return true;
  for (auto& child : expr->children) {
    if (ExpressionMayReadTables(child.get())) return true;
  }
  return false;
}

// What the maintainer of one database keeps: the change sets handed off and
// not used yet, and the thread that refreshes (started on the first handoff).
class ViewMaintainer : public BackgroundWork {
 public:
  explicit ViewMaintainer(DatabaseInstance& db) : db_(db) {}
  ~ViewMaintainer() override { ViewMaintainer::Stop(); }
  ViewMaintainer(const ViewMaintainer&) = delete;
  ViewMaintainer& operator=(const ViewMaintainer&) = delete;

  void HandOff(std::vector<ChangeSet> changes) {
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto& change : changes) {
      pending_rows_ += change.rows.Count();
      pending_.push_back(std::move(change));
    }
    // A backlog the maintainer could not work off (another process holding
    // the write lock for long) is read from the change feed instead.
    if (pending_rows_ > kPendingRowsLimit) {
      pending_.clear();
      pending_rows_ = 0;
    }
    requested_ = true;
    if (!thread_.joinable() && !stopping_) thread_ = std::thread([this] { Run(); });
    wake_.notify_one();
  }

  // Work handed off and not refreshed yet (a round that runs holds the
  // statement lock, so a caller holding it sees none in progress).
  bool HasWork() {
    std::lock_guard<std::mutex> guard(mutex_);
    return requested_ || !pending_.empty();
  }

  // Whether `every` has passed since this returned true last (true the
  // first time): how often RUN SINK looks for views another process left behind.
  bool ForeignCheckDue(std::chrono::steady_clock::duration every) {
    std::lock_guard<std::mutex> guard(mutex_);
    auto now = std::chrono::steady_clock::now();
    if (checked_foreign_ && now - last_foreign_check_ < every) return false;
    checked_foreign_ = true;
    last_foreign_check_ = now;
    return true;
  }

  std::vector<ChangeSet> TakePending() {
    std::lock_guard<std::mutex> guard(mutex_);
    pending_rows_ = 0;
    return std::exchange(pending_, {});
  }

  // Finishes a requested round, then ends the thread. Without a thread
  // (nothing was ever handed off) there is nothing to finish.
  void Stop() override {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

 private:
  static constexpr idx_t kPendingRowsLimit = 4 * ChangeSet::kKeptRowsLimit;
  // A round that starts within kBusyGap of the last one's end waits first
  // (Run): kRoundShare times as long as the last round took, at least
  // kBatchWindow and at most kMaxBatchWindow.
  static constexpr auto kBusyGap = std::chrono::milliseconds(10);
  static constexpr auto kBatchWindow = std::chrono::milliseconds(5);
  static constexpr auto kMaxBatchWindow = std::chrono::milliseconds(100);
  static constexpr int kRoundShare = 10;

  void Run() {
    using Clock = std::chrono::steady_clock;
    auto last_round = Clock::now() - kBusyGap;
    Clock::duration last_cost{0};
    while (true) {
      {
        std::unique_lock<std::mutex> guard(mutex_);
        wake_.wait(guard, [&] { return requested_ || stopping_; });
        if (!requested_) return;
        TraceDelivery("maintainer_wake");
        // Group refresh: work that comes right after a round means commits
        // arrive faster than rounds run one each (a round holds the
        // statement lock through its own commit and fsyncs, which the
        // writer then waits for). Letting more arrive first makes one view
        // commit cover them, and the wait grows with what a round costs, so
        // rounds take at most about 1 / (kRoundShare + 1) of a busy
        // writer's time (bench/latency, sustained: with a fixed 5 ms a view
        // commit followed nearly every INSERT and halved the rate; with a
        // share of 3, a round per 4 round-times, the rounds' commits and
        // the sink passes each one wakes held 500/s to about 310/s). A
        // commit after a quiet spell is refreshed at once (the latency of a
        // single INSERT to its view).
        if (Clock::now() - last_round < kBusyGap) {
          auto window = std::clamp<Clock::duration>(last_cost * kRoundShare, kBatchWindow, kMaxBatchWindow);
          wake_.wait_for(guard, window, [&] { return stopping_; });
        }
        requested_ = false;
      }
      auto start = Clock::now();
      Round();
      last_round = Clock::now();
      last_cost = last_round - start;
    }
  }

  // One refresh of every auto view that is behind, as a statement would
  // run it (statement_runner.cpp): statement lock, write lock, the tables at
  // their latest versions, the refresh, then durability and followers.
  void Round() {
    if (!context_) {
      // Not owning: the database owns this maintainer and stops it first
      // thing when it closes (~DatabaseInstance).
      context_ = std::make_unique<ClientContext>(std::shared_ptr<DatabaseInstance>(std::shared_ptr<void>(), &db_));
    }
    ClientContext& context = *context_;
    try {
      Publications publications;
      delta::DeferredLogSync durability;
      {
        std::lock_guard<StatementMutex> guard(db_.StatementLock());
        struct Release {
          DatabaseInstance& db;
          ~Release() { db.ReleaseWriteLock(); }
        } release{db_};
        context.BeginStatement(Timestamp::Now());
        db_.AcquireWriteLock(nullptr);
        db_.RefreshTables();
        TraceDelivery("maintainer_locked");
        TableVersions versions = CurrentTableVersions(db_);
        UseChangeSets(context, TakePending());
        context.BeginCommit();
        MaintainViewsAfterStatement(context);
        TraceDelivery("maintainer_refreshed");
        publications = CommitsToPublish(db_, versions);
      }
      if (durability.Flush().ok()) {
        TraceDelivery("maintainer_durable");
        Publish(publications);
      }
    } catch (...) {
      // The views stay behind; the next statement that reads one, the next
      // handoff or the next open catches them up. A refresh that failed
      // marked its view failed already (MaintainViews).
    }
    context.TakeWarnings();  // each failed view is marked in the catalog and warned about on reads
    context.CommittedChanges().clear();
  }

  DatabaseInstance& db_;
  std::unique_ptr<ClientContext> context_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<ChangeSet> pending_;
  idx_t pending_rows_ = 0;
  bool requested_ = false;
  bool stopping_ = false;
  bool checked_foreign_ = false;
  std::chrono::steady_clock::time_point last_foreign_check_;
  std::thread thread_;
};

ViewMaintainer& MaintainerOf(DatabaseInstance& db) {
  return static_cast<ViewMaintainer&>(db.GetBackgroundWork([&] { return std::make_unique<ViewMaintainer>(db); }));
}

}  // namespace

bool StatementMayReadViews(const SQLStatement& statement) {
  switch (statement.type) {
    case StatementType::INSERT: {
      auto& insert = static_cast<const InsertStatement&>(statement);
      if (!insert.query || insert.query->type != QueryNodeType::VALUES_NODE || !insert.query->ctes.empty()) return true;
      for (auto& row : insert.query->values) {
        for (auto& value : row) {
          if (ExpressionMayReadTables(value.get())) return true;
        }
      }
      return false;
    }
    case StatementType::UPDATE: {
      auto& update = static_cast<const UpdateStatement&>(statement);
      if (update.from || ExpressionMayReadTables(update.where.get())) return true;
      for (auto& set : update.set) {
        if (ExpressionMayReadTables(set.value.get())) return true;
      }
      return false;
    }
    case StatementType::DELETE: {
      auto& del = static_cast<const DeleteStatement&>(statement);
      return del.using_source || ExpressionMayReadTables(del.where.get());
    }
    default: return true;
  }
}

namespace {

// How long the auto view `view` has been behind its sources: the age of the
// oldest source commit it does not reflect (zero when it is current). An
// unreadable commit time (the commit cleaned up) counts as old.
std::chrono::milliseconds StaleFor(ClientContext& context, TableCatalogEntry& view) {
  using std::chrono::milliseconds;
  if (!view.state.sources) return milliseconds::max();
  int64_t now_ms = std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  milliseconds longest{0};
  for (auto& [source, version] : ViewSourceVersions(view)) {
    TableCatalogEntry* entry = context.GetCatalog().FindTable(source);
    DeltaTable* delta = entry ? DatabaseInstance::AsDelta(*entry) : nullptr;
    if (!delta) return milliseconds::max();
    if (delta->Version() <= version) continue;
    auto committed = delta->Log().CommitTimestamp(version + 1);
    if (!committed.ok()) return milliseconds::max();
    longest = std::max(longest, milliseconds(now_ms - committed.value()));
  }
  return longest;
}

}  // namespace

bool CatchesUpViewsFirst(ClientContext& context, const SQLStatement& statement) {
  if (!StatementMayReadViews(statement)) return false;
  DatabaseInstance& db = context.Database();
  if (statement.type != StatementType::RUN_SINK || db.InMemory() || IsRemotePath(db.Path())) return true;
  ViewMaintainer& maintainer = MaintainerOf(db);
  if (maintainer.HasWork()) return true;  // this process's own writes: RUN SINK sees them
  if (!maintainer.ForeignCheckDue(kForeignCheckEvery)) return false;
  db.RefreshTables();  // the pass refreshed its source alone (RefreshSinkSource)
  Catalog& catalog = context.GetCatalog();
  for (auto& name : catalog.TableNames(TableKind::MATERIALIZED_VIEW)) {
    TableCatalogEntry* view = catalog.FindTable(name);
    if (!view || ViewRefreshMode(*view) != "auto") continue;
    if (StaleFor(context, *view) >= kForeignViewGrace) return true;
  }
  return false;
}

bool DefersViewMaintenance(ClientContext& context, const SQLStatement& statement) {
  DatabaseInstance& db = context.Database();
  if (db.InMemory() || db.Options().read_only || IsRemotePath(db.Path())) return false;
  switch (statement.type) {
    case StatementType::INSERT:
    case StatementType::UPDATE:
    case StatementType::DELETE:
    case StatementType::MERGE: return true;
    default: return false;
  }
}

bool MovedAnAutoViewSource(ClientContext& context, const std::vector<std::pair<std::string, int64_t>>& before) {
  std::unordered_set<std::string> moved;
  TableVersions now = CurrentTableVersions(context.Database());
  for (auto& [name, version] : now) {
    bool same = false;
    for (auto& [old_name, old_version] : before) same = same || (old_name == name && old_version == version);
    if (!same) moved.insert(StringUtil::Lower(name));
  }
  if (moved.empty()) return false;
  Catalog& catalog = context.GetCatalog();
  for (auto& name : catalog.TableNames(TableKind::MATERIALIZED_VIEW)) {
    TableCatalogEntry* view = catalog.FindTable(name);
    if (!view || ViewRefreshMode(*view) != "auto" || !view->state.sources) continue;
    for (auto& [source, version] : *view->state.sources) {
      if (moved.count(StringUtil::Lower(source))) return true;
    }
  }
  return false;
}

void HandOffViewMaintenance(ClientContext& context, std::vector<ChangeSet> changes) {
  MaintainerOf(context.Database()).HandOff(std::move(changes));
}

void TakePendingViewChanges(ClientContext& context) {
  DatabaseInstance& db = context.Database();
  if (db.InMemory()) return;
  UseChangeSets(context, MaintainerOf(db).TakePending());
}

namespace {

// Moves `pending` into the statement's CommittedChanges.
void UseChangeSets(ClientContext& context, std::vector<ChangeSet> pending) {
  if (pending.empty()) return;
  // Only sets of tables still open as they were: a catalog re-read opened
  // the tables afresh, and a set of a closed table must not be matched.
  std::unordered_set<const DataTable*> open;
  Catalog& catalog = context.GetCatalog();
  for (auto& name : catalog.TableNames()) {
    TableCatalogEntry* entry = catalog.FindTable(name);
    if (entry && entry->storage) open.insert(entry->storage.get());
  }
  for (auto& change : pending) {
    if (open.count(change.table)) context.CommittedChanges().push_back(std::move(change));
  }
}

}  // namespace

}  // namespace lakestream
