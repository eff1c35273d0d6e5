// Where a table stream stands: its offset, kept in one place per consumer.
//
// A stream's offset has two parts, each with one writer:
//
//   * the base, StreamCatalogEntry::offset and ::initial_pending in
//     catalog.json: set by CREATE STREAM, moved by a sink on the stream (in
//     the catalog save that records the sink's progress, sink/sink_runner.cpp)
//     and by folding (below);
//   * the consumptions, one Delta txn action per DML target:
//     txn { appId: StreamAppId(stream), version: V } in the commit that wrote
//     the statement's rows to the target (transaction/statement_commit.hpp).
//
// The offset a reader uses (StreamPositionOf) is the highest of the base and
// the txn versions of every Delta table the catalog names. Offsets only move
// forward, so the highest is the newest. A table that leaves the catalog
// (DROP, CREATE OR REPLACE with new storage) would take its txns with it and
// move the offset back: Catalog::DropTable and a replacing
// Catalog::CreateTable fold them into the base first (FoldStreamOffsets),
// and the drop's own catalog save makes that durable.
//
// A table the catalog names whose log cannot be read (load_error) may hold
// txns nobody can see: the position names it (`unknown_in`) and readers
// refuse the stream as stale until the table opens or is dropped, rather
// than go back and deliver a change twice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"

namespace lakestream {

// The Delta txn appId that records this stream's consumption in a target.
std::string StreamAppId(const StreamCatalogEntry& stream);

struct StreamPosition {
  // Every change up to and including this version has been consumed.
  int64_t offset = -1;
  // SHOW_INITIAL_ROWS and never consumed: the source's rows as of `offset`
  // come first, as inserts.
  bool initial_pending = false;
  // A table of the catalog that cannot be opened (its txns unknown), or "".
  std::string unknown_in;
};

// The stream's position now: the base raised by the txns of the tables in
// `catalog` (their snapshots as last refreshed: each statement refreshes them
// first, so a consumption another process committed counts).
StreamPosition StreamPositionOf(Catalog& catalog, const StreamCatalogEntry& stream);

// Moves the base forward to `version` (never back) and ends the initial
// rows. In memory: the caller's catalog save makes it durable.
void AdvanceStreamBase(StreamCatalogEntry& stream, int64_t version);

// The table property that lets another engine's checkpoints drop txns older
// than its value. A table recording a consumption must keep its txns: with
// an expired txn the stream's offset would go back and deliver again.
inline constexpr const char* kTxnRetentionProperty = "delta.setTransactionRetentionDuration";

// Throws when `target` sets kTxnRetentionProperty: recording the consumption
// of `stream_name` there could be undone by a checkpoint. Names the table,
// the stream and the fix (unset the property, or consume into another table).
void CheckTargetKeepsStreamTxns(const TableCatalogEntry& target, const std::string& stream_name);

// A stream whose consumption a table records: its txn's version there.
struct RecordedConsumption {
  StreamCatalogEntry* stream;
  int64_t version;
};

// The streams of `catalog` whose consumption `table` records (a txn of its
// log), in the catalog's order; empty for a table without a Delta log.
std::vector<RecordedConsumption> StreamTxnsIn(Catalog& catalog, TableCatalogEntry& table);
// Their names (StreamTxnsIn).
std::vector<std::string> StreamsRecordedIn(Catalog& catalog, TableCatalogEntry& table);

// Folds the stream txns `table` records into the base of the streams of
// `catalog` (in memory), before `table` leaves the catalog. True when a base moved.
bool FoldStreamOffsets(Catalog& catalog, TableCatalogEntry& table);

}  // namespace lakestream
