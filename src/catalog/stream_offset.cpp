#include "catalog/stream_offset.hpp"

#include <algorithm>

#include "common/exception.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

std::string StreamAppId(const StreamCatalogEntry& stream) { return "lakestream.stream." + stream.id; }

StreamPosition StreamPositionOf(Catalog& catalog, const StreamCatalogEntry& stream) {
  StreamPosition position;
  position.offset = stream.offset;
  position.initial_pending = stream.initial_pending;
  const std::string app_id = StreamAppId(stream);
  for (auto& name : catalog.TableNames()) {
    TableCatalogEntry* table = catalog.FindTable(name);
    if (!table) continue;
    if (!table->storage) {
      if (!table->load_error.empty() && position.unknown_in.empty()) position.unknown_in = table->name;
      continue;
    }
    auto* delta = dynamic_cast<DeltaTable*>(table->storage.get());
    if (!delta) continue;  // in memory: no txns (streams need a database directory)
    if (auto version = delta->Snapshot().TxnVersion(app_id)) {
      position.offset = std::max(position.offset, *version);
      position.initial_pending = false;  // a consumption read them
    }
  }
  return position;
}

void AdvanceStreamBase(StreamCatalogEntry& stream, int64_t version) {
  stream.offset = std::max(stream.offset, version);
  stream.initial_pending = false;
}

void CheckTargetKeepsStreamTxns(const TableCatalogEntry& target, const std::string& stream_name) {
  std::string retention = target.GetProperty(kTxnRetentionProperty);
  if (retention.empty()) return;
  throw InvalidInputError("table " + target.name + " cannot record the consumption of stream " + stream_name +
                          ": it sets " + kTxnRetentionProperty + " = '" + retention +
                          "', so a checkpoint may drop the txn that holds the stream's offset and the stream would "
                          "deliver its changes again; run ALTER TABLE " + target.name + " UNSET TBLPROPERTIES ('" +
                          kTxnRetentionProperty + "') or consume the stream into another table");
}

std::vector<RecordedConsumption> StreamTxnsIn(Catalog& catalog, TableCatalogEntry& table) {
  std::vector<RecordedConsumption> recorded;
  auto* delta = table.storage ? dynamic_cast<DeltaTable*>(table.storage.get()) : nullptr;
  if (!delta) return recorded;
  for (auto& name : catalog.StreamNames()) {
    StreamCatalogEntry* stream = catalog.FindStream(name);
    if (auto version = delta->Snapshot().TxnVersion(StreamAppId(*stream))) recorded.push_back({stream, *version});
  }
  return recorded;
}

std::vector<std::string> StreamsRecordedIn(Catalog& catalog, TableCatalogEntry& table) {
  std::vector<std::string> names;
  for (auto& consumption : StreamTxnsIn(catalog, table)) names.push_back(consumption.stream->name);
  return names;
}

bool FoldStreamOffsets(Catalog& catalog, TableCatalogEntry& table) {
  bool moved = false;
  for (auto& [stream, version] : StreamTxnsIn(catalog, table)) {
    if (version <= stream->offset && !stream->initial_pending) continue;
    AdvanceStreamBase(*stream, version);
    moved = true;
  }
  return moved;
}

}  // namespace lakestream
