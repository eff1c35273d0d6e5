// DeltaLog: one Delta table's transaction log (`<table>/_delta_log/`):
// loading snapshots (from checkpoints + JSON commits), reading single
// commits, time travel, history, optimistic commits and checkpoints.
//
//   auto log = delta::DeltaLog::Open(FileSystem::Default(), "/db/orders").take();
//   auto snap = log->LoadSnapshot();                 // latest
//   if (!snap.ok()) return snap.status();
//   for (const auto& [path, add] : snap.value().files) ...
//
//   // writer loop (optimistic concurrency):
//   while (true) {
//     int64_t v = snap.value().version + 1;
//     Status s = log->Commit(v, actions);
//     if (!s.IsAlreadyExists()) break;               // OK, or a real error
//     snap = log->UpdateSnapshot(snap.value());      // someone won v: re-check, retry
//   }
//
// A DeltaLog holds no mutable state beyond its path and file system, so it is
// thread-safe, and any number of DeltaLogs (in any processes) may share a
// table: the file system's put-if-absent is the only arbiter of commits.
//
// Loading the latest snapshot does not list _delta_log when _last_checkpoint
// names a checkpoint that loads: the commits after it are probed one by one
// (version + 1, + 2, ... until one is missing), as commits are contiguous.
// Listing a long log would otherwise be a large part of opening a table.
// Otherwise (no, corrupt or stale _last_checkpoint, unreadable checkpoint,
// time travel) the listing of _delta_log is authoritative: a bad
// _last_checkpoint only adds a warning to the snapshot, and a checkpoint that
// cannot be read is skipped (older checkpoint or full JSON replay) when the
// JSON commits allow it, with a warning; otherwise its error is returned.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_snapshot.hpp"

namespace lakestream::delta {

struct LoadOptions {
  // false: ignore checkpoints and replay JSON commits from version 0 (tests,
  // and recovery when a checkpoint is suspect).
  bool use_checkpoint = true;
};

// One row of DESCRIBE HISTORY.
struct HistoryEntry {
  int64_t version = 0;
  int64_t timestamp_ms = 0;  // commitInfo.timestamp, else the commit file's mtime
  std::string operation;     // "" when the commit has no commitInfo
  StringMap operation_parameters;
  std::optional<std::string> engine_info;
  std::optional<bool> is_blind_append;
  std::optional<int64_t> read_version;
};

class DeltaLog {
 public:
  // Does not touch the disk: a table that does not exist yet can be opened
  // and then created with Commit(0, ...). `fs` must outlive the DeltaLog.
  static Result<std::unique_ptr<DeltaLog>> Open(FileSystem* fs, const std::string& table_path);

  const std::string& table_path() const { return table_path_; }
  const std::string& log_path() const { return log_path_; }
  FileSystem* file_system() const { return fs_; }

  // True when _delta_log holds at least one commit or checkpoint.
  bool Exists();
  // True when the commit file of `version` exists (a stat, no listing).
  bool CommitExists(int64_t version);
  // Newest version (JSON commit or checkpoint); -1 when the table has none.
  Result<int64_t> LatestVersion();

  // The snapshot at `version` (default: latest). Errors:
  //   NotFound        the table has no Delta log;
  //   InvalidArgument `version` does not exist or cannot be reconstructed
  //                   (its commits were cleaned up), naming the available range;
  //   Corruption      a commit or checkpoint is malformed (names the file);
  //   NotSupported    the protocol needs a reader feature we lack (CheckReadable).
  Result<Snapshot> LoadSnapshot(std::optional<int64_t> version = std::nullopt, const LoadOptions& options = {});
  // `base` moved forward to the latest version by replaying the commits after
  // base.version (cheap when few are new); `base` itself when nothing is new.
  Result<Snapshot> UpdateSnapshot(const Snapshot& base);

  // The actions of one JSON commit, in file order (for the change data feed
  // and history). NotFound when the commit file does not exist.
  Result<std::vector<Action>> ReadCommit(int64_t version);
  // commitInfo.timestamp of the commit, or its file's mtime when absent.
  Result<int64_t> CommitTimestamp(int64_t version);
  // For TIMESTAMP AS OF: the newest version committed at or before
  // `timestamp_ms`. InvalidArgument, naming the earliest and latest available
  // versions and their timestamps, when the timestamp is before the earliest
  // reconstructable version or after the latest commit (as Spark).
  Result<int64_t> VersionAtOrBefore(int64_t timestamp_ms);
  // DESCRIBE HISTORY: every JSON commit still in the log, newest first, at
  // most `limit` entries.
  Result<std::vector<HistoryEntry>> History(std::optional<size_t> limit = std::nullopt);

  // Atomically writes commit `version` (put-if-absent). AlreadyExists when
  // another writer committed that version first: re-read (UpdateSnapshot),
  // check for conflicts, retry with the next version. InvalidArgument when
  // version - 1 does not exist (that would leave a gap). An IOError means the
  // outcome is unknown only if it came from the final directory fsync (the
  // commit is then visible); any earlier failure leaves no commit behind.
  // Creates _delta_log when needed. `first`: the new data and change data
  // files the actions name (and their directories), made durable together
  // with the commit's temp file, before the commit becomes visible.
  // The final fsync of _delta_log/ is shared with concurrent commits to the
  // same log (SyncLogDirectory, log_sync.hpp). With `sync` = kDeferred (a
  // local log only: CanDeferSync) it is left out: on OK the commit is
  // visible and everything it names durable, but its own name becomes
  // durable only with the caller's later SyncLogDirectory(log_path()).
  // `before_link`: a flush that must succeed before the commit becomes
  // visible but does not depend on this commit's files (the _delta_log/
  // fsyncs of the sources of a view, log_sync.hpp): on a local log it runs
  // concurrently with the fsync of `first` and the commit's temp file
  // (FileSystem::LinkIfAbsent), on an object store before the PUT. Its
  // failure is returned and nothing is committed. `spare_temp`: an empty
  // temp file made ahead in _delta_log/ to write the entry to (a local log
  // only; FileSystem::LinkIfAbsent), "" for a new one.
  enum class Sync { kNow, kDeferred };
  Status Commit(int64_t version, const std::vector<Action>& actions, const DurableSet& first = {},
                Sync sync = Sync::kNow, const std::function<Status()>& before_link = nullptr,
                const std::string& spare_temp = "");
  // Whether Commit can defer its directory fsync: a local log (object
  // stores make a PUT durable when it is answered).
  bool CanDeferSync() const;

  // Writes the classic checkpoint of `snapshot` and then _last_checkpoint
  // (unless it already points at a newer checkpoint): two fsyncs, the two
  // files' before their renames; the names need no directory fsync (a lost
  // checkpoint costs only reading speed, see delta_log.cpp).
  Result<LastCheckpoint> WriteCheckpoint(const Snapshot& snapshot);
  // The same, reusing and refilling `cache` (WriteCheckpointFile's overload:
  // only the files that changed since the cache's checkpoint are encoded).
  Result<LastCheckpoint> WriteCheckpoint(const std::shared_ptr<const Snapshot>& snapshot, CheckpointCache& cache);
  // _last_checkpoint as written. NotFound when absent; Corruption naming the
  // file when malformed.
  Result<LastCheckpoint> ReadLastCheckpoint();

 private:
  DeltaLog(FileSystem* fs, std::string table_path);
  struct Listing;
  Result<Listing> List();
  // Points _last_checkpoint at the checkpoint `lc` describes (just written).
  Result<LastCheckpoint> PointLastCheckpoint(Result<LastCheckpoint> lc);
  Result<Snapshot> Replay(const Listing& listing, int64_t target, const LoadOptions& options);
  // The latest snapshot from _last_checkpoint and probed commits, without a
  // listing; nullopt when that does not work out (the caller then lists).
  std::optional<Snapshot> LoadLatestFromLastCheckpoint(const LoadOptions& options);

  FileSystem* fs_;
  std::string table_path_;
  std::string log_path_;
};

}  // namespace lakestream::delta
