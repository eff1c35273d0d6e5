#include "storage/delta/log_sync.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>

namespace lakestream::delta {

namespace {

// One fsync shared by the callers that joined it.
struct Group {
  bool done = false;
  Status status;
};

// The state of one directory: the group now syncing (if any) and the one
// collecting callers for the next fsync. A caller joins `next`, whose fsync
// cannot have started yet, so it starts after the caller's link.
struct DirectoryState {
  std::mutex mu;
  std::condition_variable cv;
  bool syncing = false;
  std::shared_ptr<Group> next;
};

std::atomic<int64_t> sync_count{0};

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

}  // namespace

Status SyncLogDirectory(FileSystem* fs, const std::string& dir) {
  DirectoryState& state = StateFor(dir);
  std::unique_lock<std::mutex> l(state.mu);
  if (!state.next) state.next = std::make_shared<Group>();
  std::shared_ptr<Group> mine = state.next;
  for (;;) {
    if (mine->done) return mine->status;
    if (!state.syncing) break;  // the previous group is done: lead ours
    state.cv.wait(l);
  }
  // The leader: every caller that joined `mine` so far linked before this fsync.
  state.syncing = true;
  state.next = nullptr;
  l.unlock();
  Status s = fs->FsyncDirectory(dir);
  sync_count++;
  l.lock();
  mine->status = s;
  mine->done = true;
  state.syncing = false;
  state.cv.notify_all();
  return s;
}

int64_t LogDirectorySyncCount() { return sync_count.load(); }

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

void DeferredLogSync::Defer(std::shared_ptr<FileSystem> fs, const std::string& dir) {
  for (auto& [f, d] : pending_)
    if (d == dir) return;
  pending_.emplace_back(std::move(fs), dir);
}

Status DeferredLogSync::FlushExcept(const std::string& dir) {
  Status first;
  std::vector<std::pair<std::shared_ptr<FileSystem>, std::string>> kept;
  for (auto& [fs, d] : pending_) {
    if (d == dir) {
      kept.emplace_back(std::move(fs), d);
      continue;
    }
    Status s = SyncLogDirectory(fs.get(), d);
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
