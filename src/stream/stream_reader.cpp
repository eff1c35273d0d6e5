#include "stream/stream_reader.hpp"

#include "catalog/stream_offset.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "storage/change_set.hpp"
#include "storage/table/change_feed.hpp"
#include "storage/table/delta_table.hpp"
#include "stream/net_changes.hpp"

namespace lakestream {

static std::string RecreateHint(const StreamCatalogEntry& stream) {
  return "recreate it with CREATE OR REPLACE STREAM " + stream.name + " ON TABLE " + stream.source +
         " (it starts again at the table's current version)";
}

DeltaTable& StreamSource(ClientContext& context, StreamCatalogEntry& stream, TableCatalogEntry** entry_out) {
  TableCatalogEntry* entry = &StreamSourceEntry(context.GetCatalog(), stream);
  if (!entry->storage) throw IOError("Stream " + stream.name + " cannot be read: table " + entry->name + " cannot be used: " + entry->load_error);
  DeltaTable* delta = DatabaseInstance::AsDelta(*entry);
  if (!delta) throw InternalError("stream source " + entry->name + " is not a Delta table");
  if (entry_out) *entry_out = entry;
  return *delta;
}

std::string StreamStaleReason(ClientContext& context, StreamCatalogEntry& stream) {
  TableCatalogEntry* entry = context.GetCatalog().FindTable(stream.source);
  if (!entry) return "its source table " + stream.source + " no longer exists; drop it with DROP STREAM " + stream.name;
  DeltaTable* delta = entry->storage ? DatabaseInstance::AsDelta(*entry) : nullptr;
  if (!delta) return "its source table " + entry->name + " cannot be opened (" + entry->load_error + ")";
  StreamPosition at = StreamPositionOf(context.GetCatalog(), stream);
  if (!at.unknown_in.empty()) {
    TableCatalogEntry* unknown = context.GetCatalog().FindTable(at.unknown_in);
    return "its offset may be recorded in table " + at.unknown_in + ", which cannot be opened (" +
           (unknown ? unknown->load_error : std::string("gone")) + "); restore " + at.unknown_in +
           "'s files, or DROP TABLE " + at.unknown_in;
  }
  const std::string& id = delta->Snapshot().metadata.id;
  if (!stream.source_id.empty() && id != stream.source_id) {
    return "its source table " + entry->name + " was dropped and re-created (table id " + stream.source_id + " -> " +
           id + "), so its offset (version " + std::to_string(at.offset) + ") belongs to the old table; " +
           RecreateHint(stream);
  }
  if (at.offset > delta->Version()) {
    return "its offset (version " + std::to_string(at.offset) + ") is past the latest version of " + entry->name +
           " (" + std::to_string(delta->Version()) + "; was the table replaced?); " + RecreateHint(stream);
  }
  if (!delta->Snapshot().ChangeDataFeedEnabled()) {
    return "change tracking is off on " + entry->name + "; turn it on again with ALTER TABLE " + entry->name +
           " SET PROPERTIES ('change_tracking' = 'true') and " + RecreateHint(stream);
  }
  // The versions it has not consumed must be readable as the read will read
  // them (commits still in the log, the feed on at each): the same function.
  std::string unreadable = ChangeFeedUnreadableReason(*delta, at.offset + 1, delta->Version());
  if (!unreadable.empty()) return unreadable + "; " + RecreateHint(stream);
  return "";
}

bool StreamHasData(ClientContext& context, StreamCatalogEntry& stream) {
  if (!StreamStaleReason(context, stream).empty()) return false;
  DeltaTable& source = StreamSource(context, stream);
  StreamPosition at = StreamPositionOf(context.GetCatalog(), stream);
  if (at.initial_pending && source.AtVersion(at.offset)->RowCount() > 0) return true;
  for (int64_t v = at.offset + 1; v <= source.Version(); v++) {
    auto actions = source.Log().ReadCommit(v);
    if (!actions.ok()) return false;
    for (auto& action : actions.value()) {
      if (auto* add = std::get_if<delta::AddFile>(&action); add && add->data_change) return true;
      if (!stream.append_only) {
        if (auto* remove = std::get_if<delta::RemoveFile>(&action); remove && remove->data_change) return true;
        if (std::get_if<delta::CdcFile>(&action)) return true;
      }
    }
  }
  return false;
}

// The source's rows as of `version`, as change-feed inserts of that version.
static void AppendInitialRows(DeltaTable& source, int64_t version, idx_t column_count, ChunkCollection& feed) {
  auto past = source.AtVersion(version);
  if (past->Columns().size() != column_count) {
    throw NotImplementedError("SHOW_INITIAL_ROWS on table " + source.Name() +
                              " whose columns changed after the stream's start version");
  }
  auto ts = source.Log().CommitTimestamp(version);
  timestamp_t commit_ts = ts.ok() ? ts.value() * 1000 : 0;
  std::vector<idx_t> columns;
  for (idx_t c = 0; c < column_count; c++) columns.push_back(c);
  std::vector<LogicalType> types;
  for (auto& c : past->Columns()) types.push_back(c.type);
  auto scan = past->Scan(columns);
  DataChunk chunk;
  chunk.Initialize(types);
  while (scan->Next(chunk, nullptr)) {
    DataChunk rows;
    rows.Initialize(feed.Types(), chunk.size());
    for (idx_t c = 0; c < column_count; c++) rows.data[c].Copy(chunk.data[c], nullptr, chunk.size(), 0, 0);
    for (idx_t r = 0; r < chunk.size(); r++) {
      rows.data[column_count].SetValue(r, Value(ChangeFeedName(ChangeKind::INSERT)));
      rows.data[column_count + 1].SetValue(r, Value::BIGINT(version));
      rows.data[column_count + 2].SetValue(r, Value::TIMESTAMP(commit_ts));
    }
    rows.SetCardinality(chunk.size());
    feed.Append(rows);
    chunk.Reset();
  }
}

void ComputeStreamChanges(ClientContext& context, StreamCatalogEntry& stream, int64_t end_version, ChunkCollection& out) {
  TableCatalogEntry* entry = nullptr;
  DeltaTable& source = StreamSource(context, stream, &entry);
  idx_t column_count = entry->columns.size();
  ChangeFeedSchema schema = GetChangeFeedSchema(source);
  ChunkCollection feed(schema.types);
  StreamPosition at = StreamPositionOf(context.GetCatalog(), stream);
  if (at.initial_pending) AppendInitialRows(source, at.offset, column_count, feed);
  if (at.offset < end_version) {
    try {
      ReadChangeFeed(source, at.offset + 1, end_version, feed);
    } catch (const Exception& e) {
      throw CatalogError("Stream " + stream.name + " is stale: the changes of " + entry->name + " after version " +
                         std::to_string(at.offset) + " can no longer be read (" + e.what() + "); " + RecreateHint(stream));
    }
  }
  if (stream.append_only) {
    ComputeAppendOnlyChanges(feed, column_count, out);
  } else {
    std::vector<idx_t> keys;
    for (auto& k : entry->primary_key) {
      int64_t idx = entry->ColumnIndex(k);
      if (idx >= 0) keys.push_back(static_cast<idx_t>(idx));
    }
    ComputeNetChanges(feed, column_count, keys, out);
  }
}

std::shared_ptr<const StreamChanges> ReadStreamChanges(ClientContext& context, StreamCatalogEntry& stream) {
  auto& reads = context.StreamReads();
  std::string key = StringUtil::Lower(stream.name);
  if (auto it = reads.find(key); it != reads.end()) return it->second;

  TableCatalogEntry* entry = nullptr;
  DeltaTable& source = StreamSource(context, stream, &entry);
  std::string stale = StreamStaleReason(context, stream);
  if (!stale.empty()) throw CatalogError("Stream " + stream.name + " is stale: " + stale);

  auto changes = std::make_shared<StreamChanges>();
  changes->stream = stream.name;
  StreamColumns(context.GetCatalog(), stream, changes->names, changes->types);
  changes->rows.SetTypes(changes->types);
  changes->read_version = source.Version();
  ComputeStreamChanges(context, stream, changes->read_version, changes->rows);
  reads[key] = changes;
  return changes;
}

}  // namespace lakestream
