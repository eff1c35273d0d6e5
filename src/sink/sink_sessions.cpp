#include "sink/sink_sessions.hpp"

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

}  // namespace lakestream
