// CommitWaiter (include/lakestream/tools.hpp): the in-process commit
// notifier and a FileWatcher on the followed tables' Delta logs, waited on
// together (the notifier's callback wakes the watcher).
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "common/commit_notifier.hpp"
#include "common/delivery_trace.hpp"
#include "common/file_system.hpp"
#include "common/file_watcher.hpp"
#include "lakestream/tools.hpp"
#include "main/connection_access.hpp"
#include "sink/sink_source.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/database_instance.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

struct CommitWaiter::State {
  FileWatcher watcher;
  std::map<std::string, uint64_t> subscriptions;  // commit key -> CommitNotifier id

  ~State() {
    // After Unsubscribe no callback can reach the watcher (destroyed next).
    for (auto& [key, id] : subscriptions) CommitNotifier::Global().Unsubscribe(id);
  }

  std::string Follow(DatabaseInstance& db, TableCatalogEntry& table) {
    std::string key = CommitKey(db, table);
    if (!subscriptions.count(key)) {
      subscriptions[key] = CommitNotifier::Global().Subscribe(key, [watcher = &watcher] { watcher->Wake(); });
    }
    DeltaTable* delta = table.storage ? DatabaseInstance::AsDelta(table) : nullptr;
    if (!delta) return "table " + table.name + " is in memory: only commits of this process wake its followers";
    Status status = watcher.Watch(JoinPath(delta->Path(), "_delta_log"));
    return status.ok() ? std::string() : status.message();
  }
};

CommitWaiter::CommitWaiter() : state_(std::make_unique<State>()) {}
CommitWaiter::~CommitWaiter() = default;

std::string CommitWaiter::FollowSink(Connection& connection, const std::string& name) {
  ClientContext& context = ConnectionAccess::Context(connection);
  try {
    std::lock_guard<StatementMutex> guard(context.Database().StatementLock());
    SinkCatalogEntry* sink = context.GetCatalog().FindSink(name);
    if (!sink) return "there is no sink named " + name;
    SinkSource source = ResolveSinkSource(context, *sink);
    if (!source.table) return "sink " + name + " has no source table";
    return state_->Follow(context.Database(), *source.table);
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string CommitWaiter::FollowTable(Connection& connection, const std::string& name) {
  ClientContext& context = ConnectionAccess::Context(connection);
  std::lock_guard<StatementMutex> guard(context.Database().StatementLock());
  TableCatalogEntry* table = context.GetCatalog().FindTable(name);
  if (!table) return "there is no table or view named " + name;
  return state_->Follow(context.Database(), *table);
}

bool CommitWaiter::Wait(int64_t timeout_ms) {
  auto woken = state_->watcher.Wait(std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 0)));
  if (!woken.ok()) {
    // A failing descriptor leaves the caller its timeout, as polling would.
    std::this_thread::sleep_for(std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 0)));
    return false;
  }
  if (woken.value()) TraceDelivery("sink_wake");
  return woken.value();
}

void CommitWaiter::Wake() { state_->watcher.Wake(); }

}  // namespace lakestream
