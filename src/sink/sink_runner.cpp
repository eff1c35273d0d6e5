#include "sink/sink_runner.hpp"

#include <unistd.h>

#include <chrono>
#include <mutex>

#include "common/delivery_trace.hpp"
#include "common/pause_point.hpp"
#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "connector/kafka/kafka_producer.hpp"
#include "connector/kafka/kafka_tail.hpp"
#include "connector/sink_encoder.hpp"
#include "connector/secret_use.hpp"
#include "catalog/catalog_store.hpp"
#include "catalog/stream_offset.hpp"
#include "sink/sink_lease.hpp"
#include "sink/sink_sessions.hpp"
#include "sink/sink_source.hpp"
#include "connector/sink_target.hpp"
#include "storage/table/change_feed.hpp"
#include "transaction/statement_commit.hpp"
#include "stream/stream_reader.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

namespace {

// Progress is recorded at a version boundary once this many messages wait for it.
constexpr int64_t kMessagesPerProgress = 20000;
// Versions read from the change feed at once while versions are small.
constexpr int64_t kVersionsPerRead = 16;
constexpr idx_t kRowsForSingleVersionReads = 10000;

}  // namespace

namespace {

// Either spelling: a sink on a table stream reads its __change_type.
ChangeKind ParseKind(string_t text) {
  if (auto kind = ParseChangeType(text)) return *kind;
  throw CorruptionError("unknown _change_type '" + std::string(text) + "' in a change data feed");
}

std::string SinkTargetName(const SinkCatalogEntry& sink, const SinkOptions& options) {
  return options.kafka ? "Kafka topic " + options.topic : "file " + SinkFilePath(sink);
}

// One run of one sink: reads pending versions, hands their messages to the
// target, and records progress after each durable flush.
class SinkRun {
 public:
  // `sink`: the catalog's entry; the run works on a copy of it (the entry
  // goes away when the catalog is re-read) and writes the copy's state back
  // with SaveState.
  // `continuing`: this process delivered the sink's previous pass and
  // nobody held its lease since (SinkWriter::Resume).
  // `unsaved`: the state this process's previous pass acknowledged and did
  // not save (sink_sessions.hpp), to start from; `defer_saves`: this pass
  // may leave its own progress unsaved for the next one.
  SinkRun(ClientContext& context, SinkCatalogEntry& sink, bool continuing, const SinkState* unsaved, bool defer_saves)
      : continuing_(continuing),
        defer_saves_(defer_saves),
        context_(context),
        own_(sink),
        sink_(own_),
        known_state_(SinkStateToJson(sink.state)),
        parsed_options_(ParsedSinkOptions(sink)),
        options_(*parsed_options_),
        source_(ResolveSinkSource(context, sink)),
        sessions_(SessionsOf(context)) {
    id_ = sink.Id();
    if (unsaved) {
      own_.state = *unsaved;
      resumed_unsaved_ = true;
    }
    {
      std::lock_guard<std::mutex> guard(sessions_.mutex);
      listener_ = sessions_.listener;
    }
    try {
      CheckSinkSourceIdentity(sink, sink.state, source_);
    } catch (const Exception& e) {
      RecordError(e.what());  // SHOW SINKS says why it stopped
      throw;
    }
    // Catalogs from before file ownership was checked may hold two sinks on one file.
    if (!options_.kafka) CheckFileOwner(context.GetCatalog(), sink, SinkFilePath(sink));
    // Every run, even one with nothing to deliver: a sink made before
    // external access was turned off is refused the same way each time.
    CheckSinkTargetAccess(context, sink, options_, options_.kafka ? std::string() : SinkFilePath(sink));
  }

  SinkRunResult Run() {
    if (source_.stream) return RunStream();
    SinkRunResult result;
    int64_t latest = source_.delta->Version();
    int64_t delivered = sink_.state.delivered_version.value_or(latest);
    bool snapshot = sink_.state.snapshot_pending.value_or(false);
    result.delivered_version = delivered;
    if (delivered >= latest && !snapshot) {
      // Nothing new: what the last pass left unsaved is saved once its
      // interval is up (a follower's poll comes within it), else kept.
      if (resumed_unsaved_ && SaveDue()) {
        SaveState();
      } else if (resumed_unsaved_) {
        unsaved_ = true;
      }
      if (!sink_.state.last_error.value_or("").empty()) ClearError();
      return result;
    }
    latest_ = latest;
    committed_version_ = delivered;
    // A sink of an older catalog learns which table its position belongs to.
    if (!sink_.state.source_id) sink_.state.source_id = SinkSourceId(source_);
    // On failure, keep what the target already made durable.
    DeliverWithTarget(/*keep_partial_progress=*/true, [&](SinkEncoder& encoder) {
      // What goes out must survive a crash: the source's newest commits may
      // still wait for their writer's (group) fsync of the log, so the pass
      // makes it durable before its first message: with the fsync that
      // RefreshSinkSource began when it saw them (the refresh and the first
      // read overlap it), or with SyncLog when later commits came in since.
      // After the first read, which needs no durability.
      bool synced = false;
      auto durable = [&] {
        if (synced) return;
        if (!WaitForEarlySourceSync(latest)) source_.delta->SyncLog();
        TraceDelivery("sink_log_synced");
        synced = true;
      };
      if (snapshot) {
        durable();
        DeliverSnapshot(encoder);
      }
      int64_t next = delivered + 1;
      int64_t per_read = kVersionsPerRead;
      while (next <= latest) {
        int64_t end = std::min(latest, next + per_read - 1);
        auto feed_schema = GetChangeFeedSchema(*source_.delta);
        ChunkCollection feed(feed_schema.types);
        ReadChangeFeed(*source_.delta, next, end, feed);
        TraceDelivery("sink_feed_read");
        durable();
        per_read = feed.Count() > kRowsForSingleVersionReads ? 1 : kVersionsPerRead;
        DeliverFeed(encoder, feed, feed_schema.names.size() - 3);
        produced_version_ = end;
        Commit(false);
        next = end + 1;
      }
      Commit(true);
    });
    return Finish(committed_version_);
  }

  // Waits for the fsync of the source's log that RefreshSinkSource began
  // (EarlySourceSync) when it covers every version up to `latest`: true
  // once it succeeded. False when there is none that covers them (the
  // caller syncs now). A failed fsync throws.
  bool WaitForEarlySourceSync(int64_t latest) {
    SinkSessions::SourceSync early;
    {
      std::lock_guard<std::mutex> guard(sessions_.mutex);
      auto found = sessions_.source_syncs.find(id_);
      if (found == sessions_.source_syncs.end()) return false;
      early = std::move(found->second);
      sessions_.source_syncs.erase(found);
    }
    if (early.covers < latest || early.sync->dir() != source_.delta->Log().log_path()) return false;
    Status s = early.sync->Wait();
    if (!s.ok()) {
      throw IOError("Sink " + sink_.name + ": cannot make the commits of " + sink_.source +
                    " durable before delivering them: " + s.message() + ". Progress is kept at version " +
                    std::to_string(committed_version_) + "; check the disk, then RUN SINK " + sink_.name + " again");
    }
    return true;
  }

  // After Run: progress the target acknowledged that is not in the catalog
  // (deferred saves), and the catalog state it follows.
  bool LeftUnsaved() const { return unsaved_; }
  const SinkState& State() const { return sink_.state; }
  const nlohmann::json& Recorded() const { return known_state_; }

 private:
  // A stream source: its offset is the sink's progress. The batch's end
  // version is saved before anything is sent, so a restart re-reads the same
  // window, computes the same net changes and the same message identities
  // (version = the batch's end, seq = index), and skips what the topic holds.
  SinkRunResult RunStream() {
    SinkRunResult result;
    StreamCatalogEntry& stream = *source_.stream;
    StreamPosition at = StreamPositionOf(context_.GetCatalog(), stream);
    int64_t offset = at.offset;
    int64_t latest = source_.delta->Version();
    // SHOW_INITIAL_ROWS and never read: the rows as of the offset come first,
    // as inserts, in the same batch (so a batch may end at the offset itself).
    bool initial = at.initial_pending;
    int64_t batch = latest;
    if (sink_.state.stream_batch) {
      int64_t saved = *sink_.state.stream_batch;
      if (saved > offset || (initial && saved == offset)) batch = saved;
    }
    result.delivered_version = offset;
    if (batch <= offset && !initial) {
      if (!sink_.state.last_error.value_or("").empty()) ClearError();
      return result;
    }
    latest_ = latest;
    committed_version_ = offset;
    source_.delta->SyncLog();  // as in Run()
    sink_.state.stream_batch = batch;
    SaveState();
    // A batch is all or nothing for the offset: no partial progress to keep.
    DeliverWithTarget(/*keep_partial_progress=*/false, [&](SinkEncoder& encoder) {
      idx_t width = source_.table->columns.size();
      std::vector<LogicalType> types = source_.table->Types();
      std::vector<std::string> names = source_.table->Names();
      AddStreamMetadataColumns(names, types);
      ChunkCollection changes(types);
      ComputeStreamChanges(context_, stream, batch, changes);
      std::vector<ChangeRow> rows;
      timestamp_t ts = 0;
      for (idx_t c = 0; c < changes.ChunkCount(); c++) {
        const DataChunk& chunk = changes.Chunk(c);
        auto* kinds = chunk.data[width].GetData<string_t>();
        auto* stamps = chunk.data[width + 2].GetData<timestamp_t>();
        for (idx_t r = 0; r < chunk.size(); r++) {
          rows.push_back({&chunk, r, ParseKind(kinds[r])});
          ts = std::max(ts, stamps[r]);
        }
      }
      DeliverVersion(encoder, batch, ts, rows);
      Check(target_->Flush());
      // Deliver, then advance: the offset moves only after the broker
      // acknowledged, in the catalog save that records the sink's progress
      // (one write: a sink has no Delta log to hold it; RecordProgress always
      // saves for a stream source, whose saves are never deferred).
      AdvanceStreamBase(stream, batch);
      sink_.state.stream_batch.reset();
      RecordProgress();
    });
    return Finish(batch);
  }

  // What both sources' runs share: the encoder, the target (with the wait
  // callback that reports outages), Resume, then `deliver`. On failure the
  // error is recorded and a failed target dropped so the next run reconnects;
  // with keep_partial_progress, versions the target already acknowledged are
  // recorded first.
  template <typename Deliver>
  void DeliverWithTarget(bool keep_partial_progress, Deliver&& deliver) {
    SinkSchema schema = ResolveSinkSchema(sink_.name, options_, sink_.source, source_.table->Names(), source_.table->Types(),
                                          source_.table->primary_key);
    SinkEncoder encoder(options_, schema);
    target_ = &GetTarget(sessions_, sink_, WithSinkCredentials(context_, sink_, options_),
                         context_.Database().AccessPolicy().Files());
    target_->SetWaitCallback([this](const std::string& error) { OnWait(error); });
    struct Reset {
      SinkWriter* t;
      ~Reset() { t->SetWaitCallback(nullptr); }
    } reset{target_};
    skipped_before_ = target_->Skipped();
    try {
      Check(target_->Resume(sink_.state, continuing_));
      deliver(encoder);
    } catch (const Exception& e) {
      if (keep_partial_progress && !target_failed_ && produced_version_ > committed_version_) {
        if (target_->Flush().ok()) RecordProgress();
      }
      if (target_failed_) DropTarget(sessions_, id_);
      RecordError(e.what());
      throw;
    }
  }

  SinkRunResult Finish(int64_t delivered_version) {
    SinkRunResult result;
    result.messages = run_messages_;
    result.skipped_changes = skipped_changes_;
    result.resumed_skips = target_->Skipped() - skipped_before_;
    result.delivered_version = delivered_version;
    ClearError();
    return result;
  }

  void Check(const Status& status) {
    if (status.ok()) return;
    target_failed_ = true;
    if (status.IsCorruption()) {
      // Someone else changed the file: retrying cannot help, and truncating would destroy their bytes.
      // A sink on a stream restarts from the stream's offset, which 'start' = 'latest' keeps.
      std::string start = source_.stream ? "latest" : "version " + std::to_string(committed_version_ + 1);
      throw IOError("Sink " + sink_.name + ": " + status.message() + ". The sink never truncates or overwrites bytes it " +
                    "did not write, so it stopped; progress is kept at version " + std::to_string(committed_version_) +
                    ". Restore the file, or keep it as it is now and continue after its end with ALTER SINK " +
                    sink_.name + " SET ('start' = '" + start + "')");
    }
    if (status.code() == Status::Code::kInvalidArgument) {
      throw IOError("Sink " + sink_.name + ": " + status.message() + ", then RUN SINK " + sink_.name +
                    " again; progress is kept at version " + std::to_string(committed_version_));
    }
    throw IOError("Sink " + sink_.name + " could not deliver to " + SinkTargetName(sink_, options_) + ": " +
                  status.message() + ". Progress is kept at version " + std::to_string(committed_version_) +
                  "; RUN SINK " + sink_.name + " again once the target is reachable");
  }

  void Emit(SinkMessage& m) {
    if (target_->AlreadyDelivered(m)) {
      // Delivered by a run that died before recording it: SHOW SINKS's total
      // counts it with the next progress record (this run did not send it).
      uncommitted_messages_++;
      return;
    }
    if (run_messages_ == 0) TraceDelivery("sink_produce");
    Check(target_->Write(m));
    run_messages_++;
    uncommitted_messages_++;
    if (listener_ && (run_messages_ & 0x3fff) == 0) Report("");
  }

  void DeliverVersion(SinkEncoder& encoder, int64_t version, timestamp_t ts, const std::vector<ChangeRow>& rows) {
    Check(target_->BeginVersion());
    skipped_changes_ += encoder.EncodeVersion(version, ts, rows, [this](SinkMessage& m) { Emit(m); });
    PausePoint("sink.after_produce");  // test/kafka/two_followers_test.py
    Check(target_->EndVersion());
    produced_version_ = version;
    if (target_->CommitsEachVersion()) Commit(true);
  }

  // The rows as of start_version, as one version of SNAPSHOT changes. They
  // are encoded chunk by chunk as the scan reads them (one message per row,
  // seq = the row's position in the scan), not collected first.
  void DeliverSnapshot(SinkEncoder& encoder) {
    int64_t version = sink_.state.start_version.value_or(0);
    timestamp_t ts = sink_.state.created_at.value_or(0);
    auto table = source_.delta->AtVersion(version);
    std::vector<idx_t> columns;
    for (idx_t i = 0; i < table->Columns().size(); i++) columns.push_back(i);
    auto scan = table->Scan(columns);
    DataChunk chunk;
    chunk.Initialize(source_.table->Types());
    std::vector<ChangeRow> changes;
    int64_t seq = 0;
    auto emit = [this](SinkMessage& m) { Emit(m); };
    Check(target_->BeginVersion());
    while (scan->Next(chunk, nullptr)) {
      changes.clear();
      for (idx_t r = 0; r < chunk.size(); r++) changes.push_back({&chunk, r, ChangeKind::SNAPSHOT});
      skipped_changes_ += encoder.EncodeVersion(version, ts, changes, emit, seq);
      seq += static_cast<int64_t>(chunk.size());
      chunk.Reset();
    }
    Check(target_->EndVersion());
    produced_version_ = version;
    if (target_->CommitsEachVersion()) Commit(true);
    Check(target_->Flush());
    sink_.state.snapshot_pending = false;
    RecordProgress();
  }

  // `width`: the source's columns; then _change_type, _commit_version, _commit_timestamp.
  void DeliverFeed(SinkEncoder& encoder, ChunkCollection& feed, idx_t width) {
    std::vector<ChangeRow> rows;
    int64_t version = -1;
    timestamp_t ts = 0;
    for (idx_t c = 0; c < feed.ChunkCount(); c++) {
      const DataChunk& chunk = feed.Chunk(c);
      auto* types = chunk.data[width].GetData<string_t>();
      auto* versions = chunk.data[width + 1].GetData<int64_t>();
      auto* stamps = chunk.data[width + 2].GetData<timestamp_t>();
      for (idx_t r = 0; r < chunk.size(); r++) {
        if (versions[r] != version) {
          if (!rows.empty()) DeliverVersion(encoder, version, ts, rows);
          rows.clear();
          version = versions[r];
          ts = stamps[r];
        }
        rows.push_back({&chunk, r, ParseKind(types[r])});
      }
    }
    if (!rows.empty()) DeliverVersion(encoder, version, ts, rows);
  }

  // Records progress when enough messages wait for it (or `force`).
  void Commit(bool force) {
    if (produced_version_ <= committed_version_) return;
    if (!force && uncommitted_messages_ < kMessagesPerProgress) return;
    Check(target_->Flush());
    TraceDelivery("sink_acked");
    RecordProgress();
  }

  void RecordProgress() {
    SinkState& state = sink_.state;
    state.delivered_version = produced_version_;
    target_->RecordProgress(state);
    state.messages = state.messages.value_or(0) + uncommitted_messages_;
    state.skipped_changes = state.skipped_changes.value_or(0) + skipped_changes_ - saved_skipped_;
    state.updated_at = Timestamp::Now();
    saved_skipped_ = skipped_changes_;
    uncommitted_messages_ = 0;
    committed_version_ = produced_version_;
    if (SaveDue()) {
      SaveState();
    } else {
      unsaved_ = true;
    }
    Report("");
  }

  // Whether progress is saved now: always, unless saves are deferred and
  // this process saved the sink less than save_interval ago.
  bool SaveDue() {
    if (!defer_saves_) return true;
    std::lock_guard<std::mutex> guard(sessions_.mutex);
    auto last = sessions_.last_saved.find(id_);
    return last == sessions_.last_saved.end() || std::chrono::steady_clock::now() - last->second >= sessions_.save_interval;
  }

  void RecordError(const std::string& message) {
    sink_.state.last_error = message;
    sink_.state.last_error_at = Timestamp::Now();
    try {
      SaveState();
    } catch (const Exception&) {
      // The original error matters more than a failed save of its record.
    }
  }

  void ClearError() {
    if (!sink_.state.last_error) return;
    sink_.state.ClearError();
    SaveState();
  }

  // While the target waits on an unreachable broker, SHOW SINKS (from any
  // process) says so; the note goes away when deliveries flow again.
  void OnWait(const std::string& error) {
    if (!error.empty() && error != outage_) {
      outage_ = error;
      RecordError("Kafka broker unreachable, retrying (progress kept at version " + std::to_string(committed_version_) +
                  "): " + error);
    } else if (error.empty() && !outage_.empty()) {
      outage_.clear();
      ClearError();
    }
    Report(error);
  }

  void Report(const std::string& error) {
    if (!listener_) return;
    SinkProgress p;
    p.sink = sink_.name;
    p.messages = run_messages_;
    p.delivered_version = committed_version_;
    p.latest_version = latest_;
    p.error = error;
    listener_(p);
  }

  // Writes the run's state into the catalog and saves it. A run that holds
  // the write lock (a stream source, object storage) saves at once; a run
  // under the sink's lease (sink_lease.hpp) takes the write lock for the
  // save alone, so writers commit while it produces. Under the lock the
  // catalog is as on disk (re-read if another process changed it): the
  // sink must still be the one this run started with, in the state this run
  // last saw, or the run stops without saving (ALTER, CREATE OR REPLACE or
  // DROP SINK came in between, and this run's position is no longer the
  // sink's).
  void SaveState() {
    DatabaseInstance& db = context_.Database();
    bool held = db.HoldsWriteLock();
    db.AcquireWriteLock([this] { context_.CheckInterrupt(); });
    struct Release {
      DatabaseInstance& db;
      bool held;
      ~Release() {
        if (!held) db.ReleaseWriteLock();
      }
    } release{db, held};
    SinkCatalogEntry* entry = context_.GetCatalog().FindSink(sink_.name);
    bool same = entry && entry->Id() == sink_.Id() && entry->source == sink_.source && entry->target == sink_.target &&
                entry->file_path == sink_.file_path && entry->options == sink_.options &&
                SinkStateToJson(entry->state) == known_state_;
    if (!same) {
      throw CatalogError("Sink " + sink_.name + " was changed by another process (ALTER, CREATE OR REPLACE or DROP SINK) "
                         "while this pass delivered it; the pass stopped without recording its progress. Run RUN SINK " +
                         sink_.name + " again");
    }
    entry->state = sink_.state;
    db.SaveCatalog();
    known_state_ = SinkStateToJson(sink_.state);
    unsaved_ = false;
    {
      std::lock_guard<std::mutex> guard(sessions_.mutex);
      sessions_.last_saved[id_] = std::chrono::steady_clock::now();
    }
    if (!held) {
      // Taking the lock re-read the catalog if another process changed it,
      // opening the tables afresh: the source's pointers are the new ones'.
      source_ = ResolveSinkSource(context_, *entry);
      CheckSinkSourceIdentity(sink_, sink_.state, source_);
    }
  }

  bool continuing_;
  bool defer_saves_;
  bool resumed_unsaved_ = false;  // the run started from an unsaved state
  bool unsaved_ = false;          // progress acknowledged and not saved
  ClientContext& context_;
  SinkCatalogEntry own_;  // the run's copy of the sink
  SinkCatalogEntry& sink_;
  nlohmann::json known_state_;  // the sink's state as this run last read or saved it
  std::shared_ptr<const SinkOptions> parsed_options_;  // kept alive while an ALTER SINK replaces the entry's
  const SinkOptions& options_;
  SinkSource source_;
  SinkSessions& sessions_;
  SinkProgressListener listener_;
  std::string id_;
  SinkWriter* target_ = nullptr;
  bool target_failed_ = false;
  int64_t latest_ = -1;
  int64_t committed_version_ = -1;
  int64_t produced_version_ = -1;
  int64_t skipped_before_ = 0;  // the target's resume skips before this run
  int64_t run_messages_ = 0;
  int64_t uncommitted_messages_ = 0;
  int64_t skipped_changes_ = 0;
  int64_t saved_skipped_ = 0;
  std::string outage_;
};

}  // namespace

void SetSinkProgressListener(ClientContext& context, SinkProgressListener listener) {
  SinkSessions& sessions = SessionsOf(context);
  std::lock_guard<std::mutex> guard(sessions.mutex);
  sessions.listener = std::move(listener);
}

namespace {

// A pass's source has commits after the version this process knows: the
// fsync of its _delta_log/ that the pass needs before its first message
// (Run) begins now, on a sync thread, so that it runs while the pass
// refreshes the source and reads the new commits' changes instead of after.
// Only commits seen before it began count as covered: versions whose file
// exists now (a stat each; one or two on a follower's pass).
void EarlySourceSync(ClientContext& context, const SinkCatalogEntry& sink, DeltaTable& delta) {
  if (!delta.Log().CanDeferSync()) return;  // object stores: a commit is durable when answered
  int64_t covers = delta.Version();
  while (delta.Log().CommitExists(covers + 1)) covers++;
  if (covers == delta.Version()) return;
  SinkSessions::SourceSync started{covers, std::make_unique<delta::StartedLogSync>(delta.SharedFs(), delta.Log().log_path())};
  SinkSessions& sessions = SessionsOf(context);
  std::lock_guard<std::mutex> guard(sessions.mutex);
  // One a pass left unused (it had nothing to deliver) is destroyed with
  // `started` after the lock is let go, waiting for its fsync then.
  std::swap(sessions.source_syncs[sink.Id()], started);
}

}  // namespace

void RefreshSinkSource(ClientContext& context, const std::string& name) {
  Catalog& catalog = context.GetCatalog();
  SinkCatalogEntry* sink = catalog.FindSink(name);
  TableCatalogEntry* table = sink && !catalog.FindStream(sink->source) ? catalog.FindTable(sink->source) : nullptr;
  DeltaTable* delta = table ? DatabaseInstance::AsDelta(*table) : nullptr;
  if (!delta) {
    context.Database().RefreshTables();
    return;
  }
  int64_t before = delta->Version();
  EarlySourceSync(context, *sink, *delta);
  delta->Refresh();
  if (delta->Version() != before) DatabaseInstance::SyncFromDelta(*table);
  TraceDelivery("sink_source_refreshed");
}

SinkRunResult RunSink(ClientContext& context, const std::string& name) {
  DatabaseInstance& db = context.Database();
  Catalog& catalog = context.GetCatalog();
  auto check_interrupt = [&] { context.CheckInterrupt(); };
  TraceDelivery("sink_pass");
  SinkCatalogEntry* sink = &catalog.GetSink(name);
  // A sink on a table or view of a local database delivers under its lease
  // and takes the write lock only to record progress. A sink on a stream
  // moves the stream's offset, which other readers of the stream move too:
  // its pass holds the write lock throughout, as on object storage (no
  // flock there; the write lock is a lease in the bucket).
  std::unique_ptr<SinkLease> lease;
  if (!db.InMemory() && !IsRemotePath(db.Path()) && !catalog.FindStream(sink->source)) {
    db.ReleaseWriteLock();  // taken by a view catch-up before the statement (kept under Connection::HoldWrites)
    while (true) {
      std::string id = sink->Id();
      lease = std::make_unique<SinkLease>(db.Path(), sink->name, id, std::chrono::milliseconds(db.Options().lock_wait_ms),
                                          check_interrupt);
      // The position the lease's previous holder recorded.
      db.ReloadCatalogIfChanged();
      sink = &catalog.GetSink(name);
      if (sink->Id() == id) break;
      lease.reset();  // replaced meanwhile: the new sink's lease
    }
  }
  if (!lease || catalog.FindStream(sink->source)) {
    db.AcquireWriteLock(check_interrupt);
    sink = &catalog.GetSink(name);
  }
  SinkSessions& sessions = SessionsOf(context);
  std::string id = sink->Id();
  bool continuing = false;
  bool defer_saves = false;
  std::optional<SinkState> unsaved;
  {
    std::lock_guard<std::mutex> guard(sessions.mutex);
    auto last = sessions.lease_generations.find(id);
    continuing = lease && last != sessions.lease_generations.end() && last->second == lease->PreviousGeneration();
    sessions.lease_generations.erase(id);  // set again only when this pass succeeds
    // What the previous pass left unsaved counts only if nobody delivered
    // or redefined the sink since; else the recorded position (and the
    // target's resume scan) is where this pass starts.
    auto left = sessions.unsaved.find(id);
    if (left != sessions.unsaved.end()) {
      if (continuing && SinkStateToJson(sink->state) == left->second.recorded) unsaved = left->second.state;
      sessions.unsaved.erase(left);
    }
    defer_saves = lease && !catalog.FindStream(sink->source) && sessions.save_interval.count() > 0;
  }
  TraceDelivery("sink_leased");
  SinkRun run(context, *sink, continuing, unsaved ? &*unsaved : nullptr, defer_saves);
  SinkRunResult result = run.Run();
  TraceDelivery("sink_done");
  if (lease && lease->Generation() != 0) {
    std::lock_guard<std::mutex> guard(sessions.mutex);
    sessions.lease_generations[id] = lease->Generation();
    if (run.LeftUnsaved()) sessions.unsaved[id] = {run.State(), run.Recorded()};
  }
  return result;
}

void ForgetSinkSession(ClientContext& context, const SinkCatalogEntry& sink) { DropTarget(SessionsOf(context), sink.Id()); }

void RemoveDroppedSinkLease(ClientContext& context, const std::string& sink_id) {
  DatabaseInstance& db = context.Database();
  if (db.InMemory() || IsRemotePath(db.Path())) return;  // no lease files there
  ::unlink(SinkLease::LockPath(db.Path(), sink_id).c_str());  // absent when no pass ever ran: fine
}

}  // namespace lakestream
