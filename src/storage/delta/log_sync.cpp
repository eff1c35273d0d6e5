#include "storage/delta/log_sync.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "storage/delta/delta_checkpoint.hpp"

namespace lakestream::delta {

// (log_sync.hpp) A deferred directory fsync, started by the sync threads as soon as it is
// deferred (DeferredLogSync::Defer) and waited for by the scope's Flush.
struct SyncRequest {
  enum class State { kQueued, kRunning, kDone };
  std::shared_ptr<FileSystem> fs;
  std::string dir;
  State state = State::kQueued;
  Status status;
};

namespace {

// One fsync shared by the callers that joined it.
struct Group {
  bool done = false;
  Status status;
};

// The state of one directory: the group now syncing (if any) and the one
// collecting callers for the next fsync. A caller joins `next`, whose fsync
// cannot have started yet, so it starts after the caller's link.
// Generations number the fsyncs in the order they start (one runs at a
// time, so they also end in that order).
struct DirectoryState {
  std::mutex mu;
  std::condition_variable cv;
  bool syncing = false;
  std::shared_ptr<Group> next;
  std::shared_ptr<Group> running;  // while syncing
  int64_t started = 0;             // generation of the latest fsync begun
  int64_t durable = 0;             // latest generation that succeeded
  // The commit this process linked last, and the first generation that
  // began after its link (NoteLinked).
  int64_t linked_version = -1;
  int64_t linked_mtime_ms = 0;  // its commit file's, to recognise it again
  int64_t linked_covered_by = 0;
};

std::atomic<int64_t> sync_count{0};
std::atomic<int64_t> syncs_saved{0};

DirectoryState& StateFor(const std::string& dir) {
  static std::mutex mu;
  // Never destroyed: a detached helper may still sync at exit. One entry per
  // table directory this process committed to.
  static auto* states = new std::map<std::string, std::unique_ptr<DirectoryState>>();
  std::lock_guard<std::mutex> l(mu);
  auto& slot = (*states)[dir];
  if (!slot) slot = std::make_unique<DirectoryState>();
  return *slot;
}

thread_local DeferredLogSync* current_scope = nullptr;

// The shortcut of SyncLogDirectory (see log_sync.hpp): true with `status`
// set when an fsync already made (or is making) every commit of `dir`
// durable. Called and returns with `l` held; lets go of it for the stat.
bool AlreadyDurable(FileSystem* fs, const std::string& dir, DirectoryState& state, std::unique_lock<std::mutex>& l,
                    Status& status) {
  int64_t version = state.linked_version;
  if (version < 0 || (state.durable < state.linked_covered_by && !(state.syncing && state.started >= state.linked_covered_by)))
    return false;
  int64_t mtime_ms = state.linked_mtime_ms;
  l.unlock();
  // Another writer (another process) may have committed after us; its name
  // needs an fsync of its own. And the commit file must still be ours: a
  // table dropped and created again at this path has commits of its own.
  bool newer = fs->FileExists(JoinPath(dir, CommitFileName(version + 1)));
  auto ours = fs->ModificationTime(JoinPath(dir, CommitFileName(version)));
  l.lock();
  if (newer || !ours.ok() || ours.value() != mtime_ms || state.linked_version != version) return false;
  if (state.durable >= state.linked_covered_by) {
    status = Status::OK();
  } else if (state.syncing && state.started >= state.linked_covered_by) {
    std::shared_ptr<Group> running = state.running;
    state.cv.wait(l, [&] { return running->done; });
    status = running->status;
  } else {
    return false;  // the covering fsync failed meanwhile
  }
  syncs_saved++;
  return true;
}


// The threads that run deferred fsyncs: one per directory being synced at
// once, started when a request finds none idle (at most kMaxSyncThreads;
// beyond that a request waits for a thread or for its Flush, which runs it
// itself). Never destroyed, like StateFor's map: an idle thread waits on it
// at exit.
class SyncThreads {
 public:
  static SyncThreads& Get() {
    static auto* threads = new SyncThreads();
    return *threads;
  }

  void Submit(const std::shared_ptr<SyncRequest>& request) {
    std::lock_guard<std::mutex> l(mu_);
    queue_.push_back(request);
    if (idle_ < static_cast<int>(queue_.size()) && started_ < kMaxSyncThreads) {
      started_++;
      std::thread([this] { Work(); }).detach();
    } else {
      work_.notify_one();
    }
  }

  // Whether no thread has begun `request` yet.
  bool Queued(const SyncRequest& request) {
    std::lock_guard<std::mutex> l(mu_);
    return request.state == SyncRequest::State::kQueued;
  }

  // Waits until `request` ran; runs it on this thread when no sync thread
  // has taken it yet (none idle, or a process forked after starting them).
  Status Wait(const std::shared_ptr<SyncRequest>& request) {
    std::unique_lock<std::mutex> l(mu_);
    if (request->state == SyncRequest::State::kQueued) {
      Run(*request, l);
    } else {
      done_.wait(l, [&] { return request->state == SyncRequest::State::kDone; });
    }
    return request->status;
  }

 private:
  static constexpr int kMaxSyncThreads = 8;

  void Work() {
    std::unique_lock<std::mutex> l(mu_);
    for (;;) {
      idle_++;
      work_.wait(l, [&] { return !queue_.empty(); });
      idle_--;
      std::shared_ptr<SyncRequest> request = std::move(queue_.front());
      queue_.pop_front();
      if (request->state == SyncRequest::State::kQueued) Run(*request, l);
    }
  }

  // Called and returns with `l` held.
  void Run(SyncRequest& request, std::unique_lock<std::mutex>& l) {
    request.state = SyncRequest::State::kRunning;
    l.unlock();
    Status s = SyncLogDirectory(request.fs.get(), request.dir);
    l.lock();
    request.status = s;
    request.state = SyncRequest::State::kDone;
    done_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable work_;
  std::condition_variable done_;
  std::deque<std::shared_ptr<SyncRequest>> queue_;
  int idle_ = 0;
  int started_ = 0;
};

}  // namespace

Status SyncLogDirectory(FileSystem* fs, const std::string& dir) {
  DirectoryState& state = StateFor(dir);
  std::unique_lock<std::mutex> l(state.mu);
  Status known;
  if (AlreadyDurable(fs, dir, state, l, known)) return known;
  if (!state.next) state.next = std::make_shared<Group>();
  std::shared_ptr<Group> mine = state.next;
  for (;;) {
    if (mine->done) return mine->status;
    if (!state.syncing) break;  // the previous group is done: lead ours
    state.cv.wait(l);
  }
  // The leader: every caller that joined `mine` so far linked before this fsync.
  state.syncing = true;
  state.running = mine;
  int64_t generation = ++state.started;
  state.next = nullptr;
  l.unlock();
  Status s = fs->FsyncDirectory(dir);
  sync_count++;
  l.lock();
  mine->status = s;
  mine->done = true;
  if (s.ok()) state.durable = generation;
  state.syncing = false;
  state.running = nullptr;
  state.cv.notify_all();
  return s;
}

void NoteLinked(FileSystem* fs, const std::string& dir, int64_t version) {
  auto mtime = fs->ModificationTime(JoinPath(dir, CommitFileName(version)));
  DirectoryState& state = StateFor(dir);
  std::lock_guard<std::mutex> l(state.mu);
  state.linked_version = mtime.ok() ? version : -1;
  state.linked_mtime_ms = mtime.ok() ? mtime.value() : 0;
  state.linked_covered_by = state.started + 1;
}

int64_t LogDirectorySyncCount() { return sync_count.load(); }
int64_t LogDirectorySyncsSaved() { return syncs_saved.load(); }

DeferredLogSync::DeferredLogSync() {
  if (current_scope) return;
  current_scope = this;
  installed_ = true;
}

DeferredLogSync::~DeferredLogSync() {
  if (!installed_) return;
  (void)Flush();
  current_scope = nullptr;
}

DeferredLogSync* DeferredLogSync::Current() { return current_scope; }

// One request to the sync threads, submitted.
static std::shared_ptr<SyncRequest> SubmitSync(std::shared_ptr<FileSystem> fs, const std::string& dir) {
  auto request = std::make_shared<SyncRequest>();
  request->fs = std::move(fs);
  request->dir = dir;
  SyncThreads::Get().Submit(request);
  return request;
}

StartedLogSync::StartedLogSync(std::shared_ptr<FileSystem> fs, const std::string& dir)
    : dir_(dir), request_(SubmitSync(std::move(fs), dir)) {}

StartedLogSync::~StartedLogSync() { (void)Wait(); }

Status StartedLogSync::Wait() { return SyncThreads::Get().Wait(request_); }

void DeferredLogSync::Defer(std::shared_ptr<FileSystem> fs, const std::string& dir) {
  // A request for `dir` not started yet will start after this link, and
  // covers it; one already started may not.
  for (auto& pending : pending_) {
    if (pending.dir == dir && SyncThreads::Get().Queued(*pending.request)) return;
  }
  pending_.push_back({dir, SubmitSync(std::move(fs), dir)});
}

bool DeferredLogSync::PendingExcept(const std::string& dir) const {
  for (const auto& pending : pending_)
    if (pending.dir != dir) return true;
  return false;
}

Status DeferredLogSync::FlushExcept(const std::string& dir) {
  Status first;
  std::vector<PendingSync> kept;
  for (auto& pending : pending_) {
    if (pending.dir == dir) {
      kept.push_back(std::move(pending));
      continue;
    }
    Status s = SyncThreads::Get().Wait(pending.request);
    if (!s.ok() && first.ok()) first = s;
  }
  pending_ = std::move(kept);
  return first;
}

Status DeferredLogSync::Flush() {
  // An inner scope: what it stands for is the outer one's to flush.
  if (!installed_) return current_scope ? current_scope->Flush() : Status::OK();
  Status s = FlushExcept("");
  pending_.clear();
  return s;
}

}  // namespace lakestream::delta
