#include "storage/delta/checkpoint_writer.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "storage/delta/delta_log.hpp"

namespace lakestream::delta {

namespace {

struct Job {
  std::shared_ptr<FileSystem> fs;
  std::shared_ptr<const Snapshot> snapshot;
};

std::atomic<int64_t> written{0};
std::atomic<int64_t> failed{0};
// Set once the worker is destroyed at exit: a table closed after that (held
// by an object destroyed later) neither waits nor queues. Constant
// initialised, so it outlives every static destructor.
std::atomic<bool> worker_gone{false};

// One thread for the process: checkpoints are rare (every tenth commit by
// default) and each is written whole by one thread anyway.
class Worker {
 public:
  // Drains the queue before the thread ends, so a process that exits
  // without closing its tables still leaves its last checkpoints.
  ~Worker() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    worker_gone = true;
  }

  void Submit(const std::string& table, Job job) {
    {
      std::lock_guard<std::mutex> l(mu_);
      auto& slot = queued_[table];
      if (!slot.snapshot || slot.snapshot->version < job.snapshot->version) slot = std::move(job);
      if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
    }
    cv_.notify_all();
  }

  void Wait(const std::string& table) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return !queued_.count(table) && !running_.count(table); });
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> l(mu_);
    while (true) {
      cv_.wait(l, [&] { return stop_ || !queued_.empty(); });
      if (queued_.empty()) return;  // stop_ and nothing left
      auto next = queued_.begin();
      std::string table = next->first;
      Job job = std::move(next->second);
      queued_.erase(next);
      running_.insert(table);
      l.unlock();
      Write(table, job);
      job = Job();  // let go of the snapshot before the waiters hear of it
      l.lock();
      running_.erase(table);
      cv_.notify_all();
    }
  }

  // Runs on the worker thread only, which alone touches caches_.
  void Write(const std::string& table, const Job& job) {
    CheckpointCache& cache = CacheFor(table);
    auto log = DeltaLog::Open(job.fs.get(), table);
    bool ok = log.ok() && log.value()->WriteCheckpoint(job.snapshot, cache).ok();
    (ok ? written : failed).fetch_add(1);
  }

  // The cache of `table`'s last checkpoint, made the most recently used;
  // beyond kCachedTables the least recently checkpointed table's is dropped
  // (its next checkpoint then encodes every file again).
  CheckpointCache& CacheFor(const std::string& table) {
    static constexpr size_t kCachedTables = 4;
    auto it = std::find_if(caches_.begin(), caches_.end(), [&](const auto& c) { return c.first == table; });
    if (it != caches_.end()) {
      caches_.splice(caches_.begin(), caches_, it);
    } else {
      caches_.emplace_front(table, CheckpointCache());
      if (caches_.size() > kCachedTables) caches_.pop_back();
    }
    return caches_.front().second;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Job> queued_;  // table path -> newest snapshot to write
  std::set<std::string> running_;
  // Per table, what its last checkpoint's rows were (delta_checkpoint.hpp),
  // most recently checkpointed first.
  std::list<std::pair<std::string, CheckpointCache>> caches_;
  bool stop_ = false;
  std::thread thread_;
};

Worker& TheWorker() {
  static Worker worker;
  return worker;
}

}  // namespace

void SubmitCheckpoint(std::shared_ptr<FileSystem> fs, const std::string& table_path,
                      std::shared_ptr<const Snapshot> snapshot) {
  if (worker_gone) return;  // exiting: a checkpoint only saves reading time
  TheWorker().Submit(table_path, Job{std::move(fs), std::move(snapshot)});
}

void WaitForCheckpoints(const std::string& table_path) {
  if (!worker_gone) TheWorker().Wait(table_path);
}

int64_t CheckpointsWritten() { return written.load(); }
int64_t CheckpointFailures() { return failed.load(); }

}  // namespace lakestream::delta
