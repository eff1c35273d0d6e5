// Group commit of a Delta commit's last step: the fsync of `_delta_log/`
// that makes the name of a linked commit file durable (docs/delta-format.md
// "Commits and durability").
//
// A commit is visible once its file is linked into `_delta_log/` and durable
// once that directory has been fsynced after the link. One directory fsync
// makes every name linked before it durable, so commits that wait for it at
// the same time can share it:
//
//   delta::SyncLogDirectory(fs, "/db/t/_delta_log");   // a leader syncs for all
//                                                       // callers that joined
//
// DeferredLogSync lets a statement leave that wait until it has let go of
// the database's locks (main/statement_runner.cpp), so that the statements
// of other connections run, link their own commits and join the same fsync
// instead of queueing behind it. The fsync itself starts at the link, on a
// sync thread, so it runs while the statement finishes (view handoff, the
// lock release) and the maintainer's round after a view's link:
//
//   DeferredLogSync deferred;          // on the statement's thread
//   { lock; ...commits link only... }  // DeltaTable::CommitActions defers:
//                                      // the fsync starts on a sync thread
//   Status s = deferred.Flush();       // the durable point, outside the lock
//
// Ordering kept (what crash safety rests on):
//   * a deferred commit is durable before anything this thread makes
//     durable that could depend on it: a commit to another table (a view
//     over it) flushes it before its own link (FlushExcept, run alongside
//     that commit's first flush round: DeltaTable::CommitActions), and so
//     does every catalog save
//     (DatabaseInstance::SaveCatalog: stream offsets, CTAS registration);
//   * the statement reports success, and its followers hear of its commits
//     (PublishCommits), only after Flush succeeded.
// What it does not change: a commit is visible to readers from its link on,
// before it is durable, as it always was to other processes (the window
// between the link and the fsync); ELR (early lock release) widens that
// window to other connections of the same process by the time the fsync
// waits for the group.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/file_system.hpp"

namespace lakestream::delta {

// Makes every name linked into the _delta_log/ `dir` before this call
// durable. Normally an fsync(2) of `dir` that starts after this call began,
// shared with the concurrent callers for the same directory path: while one
// fsync runs, the callers that arrive wait, and the first of them then syncs
// once for all of them. Returns that fsync's Status (each caller of a failed
// group gets the failure). Thread-safe; directories are told apart by path.
//
// No new fsync when this process knows it would add nothing: the newest
// commit in `dir` is the one this process linked last (NoteLinked; the
// commit file of the next version does not exist, and that version's file
// has the modification time it had when linked), and an fsync that started
// after that link has succeeded (then returns OK at once) or is running (then
// waits for it). A commit is linked only after its predecessor exists, so
// every commit present was linked before that fsync began. This is what a
// view's commit asks for its sources (their statement made them durable a
// moment ago) and costs a stat instead of a device flush.
Status SyncLogDirectory(FileSystem* fs, const std::string& dir);

// Records that this process has just linked the commit file of `version`
// into `dir` of `fs` (DeltaLog::Commit, after the link): what
// SyncLogDirectory's shortcut rests on.
void NoteLinked(FileSystem* fs, const std::string& dir, int64_t version);

// fsyncs of directories SyncLogDirectory ran in this process, and calls it
// answered without one (tests, bench).
int64_t LogDirectorySyncCount();
int64_t LogDirectorySyncsSaved();

struct SyncRequest;  // log_sync.cpp

// SyncLogDirectory(fs, dir) begun now on a sync thread (those DeferredLogSync
// uses), for a caller that knows which commits it will need durable and has
// other work before that need: a sink's pass starts the fsync of its
// source's log when it sees the new commits, then reads them
// (sink/sink_runner.cpp). It covers the commits linked before this
// constructor ran. Destroying it waits for the fsync.
class StartedLogSync {
 public:
  StartedLogSync(std::shared_ptr<FileSystem> fs, const std::string& dir);
  ~StartedLogSync();
  StartedLogSync(const StartedLogSync&) = delete;
  StartedLogSync& operator=(const StartedLogSync&) = delete;

  const std::string& dir() const { return dir_; }
  // The fsync's Status, once it ended (runs it here if no thread took it).
  Status Wait();

 private:
  std::string dir_;
  std::shared_ptr<SyncRequest> request_;
};

class DeferredLogSync {
 public:
  // Installs the scope on this thread; scopes do not nest (an inner one is
  // inert: Current() stays the outer one, and its Flush flushes that).
  DeferredLogSync();
  // Flushes what is still pending; a failure is lost here (call Flush to
  // see it).
  ~DeferredLogSync();
  DeferredLogSync(const DeferredLogSync&) = delete;
  DeferredLogSync& operator=(const DeferredLogSync&) = delete;

  // The active scope of this thread, or null: commits then sync at once.
  static DeferredLogSync* Current();

  // `dir` (a _delta_log/ of `fs`) has a commit linked but not yet durable.
  // Its SyncLogDirectory starts now on a sync thread of the process (unless
  // one for `dir` that has not started yet is pending: it covers this link
  // too), so the fsync overlaps what the caller does between the link and
  // the Flush (the rest of the statement, letting go of the locks). `fs` is
  // kept alive until the flush.
  void Defer(std::shared_ptr<FileSystem> fs, const std::string& dir);
  // Waits for every pending directory's SyncLogDirectory (running one that
  // no sync thread took yet on this thread). The first failure is
  // returned; the directories are then no longer pending either way (their
  // durability is unknown, as after a failed fsync). A deferred commit may
  // thus be durable before Flush; only after an OK Flush is it sure to be.
  Status Flush();
  // Flush of every pending directory except `dir`: before a commit to
  // `dir`, so that what it may depend on is durable first (the link waits
  // for it).
  Status FlushExcept(const std::string& dir);
  bool Pending() const { return !pending_.empty(); }
  // Whether a directory other than `dir` is pending (FlushExcept has work).
  bool PendingExcept(const std::string& dir) const;

 private:
  struct PendingSync {
    std::string dir;
    std::shared_ptr<SyncRequest> request;  // holds the FileSystem
  };
  std::vector<PendingSync> pending_;
  bool installed_ = false;
};

}  // namespace lakestream::delta
