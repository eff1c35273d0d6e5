// What SHOW SINKS and VACUUM ask of a sink's position (sink_runner.hpp):
// its pending versions and rows, and the oldest change a reader still needs.
#include <algorithm>

#include "catalog/catalog.hpp"
#include "catalog/stream_offset.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "sink/sink_runner.hpp"
#include "storage/table/change_feed.hpp"
#include "storage/table/delta_table.hpp"
#include "stream/stream_reader.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

SinkStatus GetSinkStatus(ClientContext& context, SinkCatalogEntry& sink) {
  SinkStatus status;
  if (StreamCatalogEntry* stream = context.GetCatalog().FindStream(sink.source)) {
    status.source_kind = "stream";
    try {
      status.latest_version = StreamSource(context, *stream).Version();
      StreamPosition at = StreamPositionOf(context.GetCatalog(), *stream);
      status.pending_versions = std::max<int64_t>(0, status.latest_version - at.offset) + (at.initial_pending ? 1 : 0);
      status.next_version = at.initial_pending ? at.offset : at.offset + 1;
    } catch (const Exception&) {
      // A stale stream: RUN SINK says why.
    }
    return status;
  }
  TableCatalogEntry* table = context.GetCatalog().FindTable(sink.source);
  if (!table) return status;
  status.source_kind = TableKindToString(table->kind);
  DeltaTable* delta = DatabaseInstance::AsDelta(*table);
  if (!delta) return status;
  status.latest_version = delta->Version();
  int64_t delivered = sink.state.delivered_version.value_or(status.latest_version);
  status.pending_versions = std::max<int64_t>(0, status.latest_version - delivered);
  status.next_version = delivered + 1;
  int64_t rows = 0;
  if (sink.state.snapshot_pending.value_or(false)) {
    int64_t start = sink.state.start_version.value_or(0);
    status.next_version = start;
    status.pending_versions++;
    rows += static_cast<int64_t>(delta->AtVersion(start)->RowCount());
  }
  try {
    if (status.latest_version > delivered) {
      auto schema = GetChangeFeedSchema(*delta);
      ChunkCollection feed(schema.types);
      ReadChangeFeed(*delta, delivered + 1, status.latest_version, feed);
      idx_t type_column = schema.names.size() - 3;
      for (idx_t c = 0; c < feed.ChunkCount(); c++) {
        const DataChunk& chunk = feed.Chunk(c);
        auto* types = chunk.data[type_column].GetData<string_t>();
        for (idx_t r = 0; r < chunk.size(); r++) rows += ParseChangeType(types[r]) != ChangeKind::UPDATE_PREIMAGE;
      }
    }
    status.pending_rows = rows;
  } catch (const Exception&) {
    // The feed may be gone (VACUUM) or unreadable; RUN SINK reports why.
  }
  return status;
}

std::optional<int64_t> SinkNeedsChangesAfter(const SinkCatalogEntry& sink) {
  const SinkState& state = sink.state;
  if (!state.delivered_version) return std::nullopt;
  int64_t delivered = *state.delivered_version;
  // The snapshot reads the rows as of start_version (not after delivered_version when they differ).
  if (state.snapshot_pending.value_or(false)) delivered = std::min(delivered, state.start_version.value_or(delivered));
  return delivered;
}

std::optional<int64_t> OldestVersionStillNeeded(Catalog& catalog, const std::string& table) {
  std::optional<int64_t> oldest;
  auto need = [&](int64_t version) {
    if (!oldest || version < *oldest) oldest = version;
  };
  for (auto& name : catalog.StreamNames()) {
    StreamCatalogEntry& stream = *catalog.FindStream(name);
    if (StringUtil::CIEquals(stream.source, table)) need(StreamPositionOf(catalog, stream).offset);
  }
  for (auto& name : catalog.SinkNames()) {
    SinkCatalogEntry& sink = *catalog.FindSink(name);
    if (catalog.FindStream(sink.source)) continue;  // counted with its stream
    if (!StringUtil::CIEquals(sink.source, table)) continue;
    if (auto version = SinkNeedsChangesAfter(sink)) need(*version);
  }
  return oldest;
}

}  // namespace lakestream
