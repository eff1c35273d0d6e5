#include "sink/sink_sessions.hpp"

#include "sink/sink_source.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

SinkSessions& SessionsOf(ClientContext& context) {
  SinkRegistry& registry = context.Database().GetSinkRegistry([] { return std::make_unique<SinkSessions>(); });
  return static_cast<SinkSessions&>(registry);  // only this function makes one
}

void SetSinkSaveInterval(ClientContext& context, std::chrono::milliseconds interval) {
  SinkSessions& sessions = SessionsOf(context);
  std::lock_guard<std::mutex> guard(sessions.mutex);
  sessions.save_interval = interval;
}

std::optional<int64_t> UnsavedDeliveredVersion(ClientContext& context, const SinkCatalogEntry& sink) {
  SinkSessions& sessions = SessionsOf(context);
  std::lock_guard<std::mutex> guard(sessions.mutex);
  auto found = sessions.unsaved.find(sink.Id());
  if (found == sessions.unsaved.end() || SinkStateToJson(sink.state) != found->second.recorded) return std::nullopt;
  return found->second.state.delivered_version;
}

namespace {

std::string TargetKey(const SinkCatalogEntry& sink) {
  return sink.Id() + "\n" + nlohmann::json(sink.options).dump() + "\n" + sink.target + " " +
         SinkFilePath(sink);
}

// Erases every target of the sink with this id; sessions.mutex held.
void EraseTargetsOf(SinkSessions& sessions, const std::string& id) {
  std::string prefix = id + "\n";
  auto& targets = sessions.targets;
  for (auto it = targets.lower_bound(prefix); it != targets.end() && it->first.compare(0, prefix.size(), prefix) == 0;) {
    it = targets.erase(it);
  }
}

}  // namespace

SinkWriter& GetTarget(SinkSessions& sessions, const SinkCatalogEntry& sink, const SinkOptions& options, FileSystem* fs) {
  std::string id = sink.Id();
  std::string key = TargetKey(sink);
  std::lock_guard<std::mutex> guard(sessions.mutex);
  auto found = sessions.targets.find(key);
  if (found != sessions.targets.end()) return *found->second;
  EraseTargetsOf(sessions, id);  // one made for an earlier definition of the sink
  auto target = options.kafka ? OpenKafkaTarget(options, id, sink.source) : OpenFileTarget(options, SinkFilePath(sink), fs);
  std::unique_ptr<SinkWriter> opened = target.ValueOrThrow();
  auto& slot = sessions.targets[key];
  slot = std::move(opened);
  return *slot;
}

void DropTarget(SinkSessions& sessions, const std::string& id) {
  std::lock_guard<std::mutex> guard(sessions.mutex);
  EraseTargetsOf(sessions, id);
}

}  // namespace lakestream
