// The tools-facing functions (include/lakestream/tools.hpp).
#include "lakestream/tools.hpp"

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "main/connection_access.hpp"
#include "main/public_value.hpp"
#include "sink/sink_runner.hpp"

namespace lakestream {

void SetSinkProgressCallback(Connection& connection, std::function<void(const SinkProgressReport&)> callback) {
  ClientContext& context = ConnectionAccess::Context(connection);
  if (!callback) {
    SetSinkProgressListener(context, nullptr);
    return;
  }
  SetSinkProgressListener(context, [callback = std::move(callback)](const SinkProgress& p) {
    SinkProgressReport report;
    report.sink = p.sink;
    report.messages = p.messages;
    report.delivered_version = p.delivered_version;
    report.latest_version = p.latest_version;
    report.error = p.error;
    callback(report);
  });
}

int64_t SinkPendingVersions(Connection& connection, const std::string& name) {
  ClientContext& context = ConnectionAccess::Context(connection);
  SinkCatalogEntry* sink = context.GetCatalog().FindSink(name);
  return sink ? GetSinkStatus(context, *sink).pending_versions : 0;
}

ErrorKind ErrorKindOf(const std::exception& e) {
  if (auto* engine = dynamic_cast<const Exception*>(&e)) return ToErrorKind(engine->Type());
  return ErrorKind::INTERNAL;
}

}  // namespace lakestream
