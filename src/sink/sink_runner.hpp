// Delivery of a sink's pending changes, with progress recorded only after the
// target made them durable (docs/sinks.md, "Delivery").
//
// Sink state (SinkState in catalog/catalog.hpp; catalog_store.cpp writes it
// to catalog.json under these keys, leaving out absent members):
//   state := { "id": <str>,                 unique per CREATE SINK; tags our Kafka messages
//              "created_at": <micros>,
//              "start_version": <n>,        the source version at CREATE SINK
//              "source_id": <str>,          the source table's Delta id (metaData.id) the
//                                           position belongs to (a table or view source)
//              "snapshot_pending": <bool>,  'start' = 'earliest' and the rows as of
//                                           start_version are not delivered yet
//              "delivered_version": <n>,    every change up to here is durable in the target
//              "partition_offsets": [<n>*], Kafka: where the next resume scan starts
//              "file_path": <str>,          FILE: the file, absolute
//              "file_size": <n>,            FILE: the file's durable size
//              "file_tail_hash": <str>,     FILE: FNV-1a of the (up to) 4096 bytes before file_size
//              "stream_batch": <n>,         a stream source: the batch under way
//              "messages": <n>, "skipped_changes": <n>,
//              "last_error": <str>, "last_error_at": <micros>, "updated_at": <micros> }
//
// Sources: a table or materialized view (its Delta change data feed, versions
// (delivered_version, latest]), or a table stream (its net changes or inserts
// after its offset, with SHOW_INITIAL_ROWS never read the rows as of the
// offset first; the stream's offset is the progress).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "catalog/catalog.hpp"

namespace lakestream {

class ClientContext;

struct SinkRunResult {
  int64_t messages = 0;         // delivered by this run
  int64_t skipped_changes = 0;  // append + on_change=skip
  int64_t resumed_skips = 0;    // found already on the topic after a crash
  int64_t delivered_version = -1;
};

// What `lakestream sink --follow` shows while a run is under way.
struct SinkProgress {
  std::string sink;
  int64_t messages = 0;  // delivered by the current run so far (queued to the target)
  int64_t delivered_version = -1;
  int64_t latest_version = -1;
  std::string error;  // the target's current transport error, "" when healthy
};
using SinkProgressListener = std::function<void(const SinkProgress&)>;
// One listener per open database (the shell's sink command sets it on the
// database it opened); nullptr removes it.
void SetSinkProgressListener(ClientContext& context, SinkProgressListener listener);

// Deferred progress saves for the passes of this database (sink_sessions.hpp):
// a pass under a sink's lease records its progress in the catalog at most
// once per `interval`, keeping what it did not save for the next pass of this
// process; a pass with nothing to deliver saves it. `lakestream sink --follow`
// sets 1 s, so a follower woken by every commit no longer takes the write
// lock and rewrites catalog.json per pass; zero (the default) saves at every
// progress point. Exactly once does not rest on the save (docs/sinks.md).
void SetSinkSaveInterval(ClientContext& context, std::chrono::milliseconds interval);

// The delivered version a pass of this process acknowledged and has not
// saved yet, when it still follows the catalog's state of `sink`.
std::optional<int64_t> UnsavedDeliveredVersion(ClientContext& context, const SinkCatalogEntry& sink);

// CREATE SINK, CREATE OR REPLACE SINK and ALTER SINK (sink_definition.cpp):
// checks `sink`'s source, options and target (the topic must exist on a
// reachable broker; a file must not be another sink's) and sets its state.
// `previous`: the sink being replaced or altered, or nullptr. Its position
// (progress, Kafka message id, file state) is kept when the source stays the
// same and `reposition` is false (the statement gave no 'start'); then a
// different target (topic or file) is an error asking for 'start'. Otherwise
// the sink starts where 'start' says. Throws CatalogError/InvalidInputError/
// IOError naming the sink and the fix.
void DefineSink(ClientContext& context, SinkCatalogEntry& sink, const SinkCatalogEntry* previous, bool reposition);

// Before a pass of RUN SINK `name` (statement_runner.cpp, in place of
// DatabaseInstance::RefreshTables): moves the sink's source table or view to
// its latest version, and no other table. A sink on a stream (whose offset is
// read from every table's txns), or a name that is not a sink, refreshes
// every table as other statements do.
void RefreshSinkSource(ClientContext& context, const std::string& name);

// RUN SINK `name`: delivers every pending change. On failure the error is
// recorded in the state (SHOW SINKS shows it), progress made so far is kept,
// and the error is thrown (IOError for the target, InvalidInputError for a
// change the format cannot carry).
//
// Locks: the statement runner does not take the write lock for RUN SINK. A
// sink on a table or view of a local database delivers under its lease
// (sink_lease.hpp: one pass of a sink at a time, across processes) and
// takes the write lock only while it records progress, so writers commit
// while it produces and waits for the target. A sink on a stream, or on
// object storage, holds the write lock for the whole pass. Catalog entries
// found before the call may be gone after it (the catalog is re-read when
// another process changed it).
SinkRunResult RunSink(ClientContext& context, const std::string& name);

struct SinkStatus {
  std::string source_kind;  // "table", "materialized view", "stream"
  int64_t latest_version = -1;
  int64_t pending_versions = 0;
  // The sink's position: the first version it has not delivered yet (for a
  // pending 'start' = 'earliest', the version whose rows it sends first).
  std::optional<int64_t> next_version;
  std::optional<int64_t> pending_rows;  // unknown when the change feed cannot be read
};
SinkStatus GetSinkStatus(ClientContext& context, SinkCatalogEntry& sink);

// For a sink that reads a table or materialized view: the source version
// after which it still needs the change feed (its delivered version; with a
// pending 'start' = 'earliest' snapshot that is also the version whose rows
// it reads). Nothing for a sink on a stream, whose stream's offset says it.
std::optional<int64_t> SinkNeedsChangesAfter(const SinkCatalogEntry& sink);

// The oldest version of `table` whose later changes a reader still needs:
// the offsets of the streams on it, and the progress (delivered version) of
// the sinks that read it directly; a sink on a stream reads at that stream's
// offset. VACUUM keeps every file the change feed after that version reads,
// and the files of that version itself (a stream's initial rows, a sink's
// pending 'start' = 'earliest' snapshot). Nothing when no stream or sink reads it.
std::optional<int64_t> OldestVersionStillNeeded(Catalog& catalog, const std::string& table);

// DROP SINK / CREATE OR REPLACE / ALTER SINK: closes the sink's producer or
// file if the database has one open.
void ForgetSinkSession(ClientContext& context, const SinkCatalogEntry& sink);

// DROP SINK (and DROP ... CASCADE): removes the lease file of the dropped
// sink's id (sink_lease.hpp), which no pass takes again: ids are never
// reused. A pass still running holds the unlinked file and stops at its next
// save (the sink is gone). Not for ALTER SINK, which keeps the id.
void RemoveDroppedSinkLease(ClientContext& context, const std::string& sink_id);

}  // namespace lakestream
