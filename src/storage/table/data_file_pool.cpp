#include "storage/table/data_file_pool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <thread>
#include <vector>

#include "common/confined_file_system.hpp"
#include "common/external_access.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/table/delta_file_writer.hpp"

namespace lakestream {

namespace {

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::atomic<int64_t (*)()> clock_fn{&SystemNowMs};
std::atomic<int64_t> batches{0};
std::atomic<int64_t> background_batches{0};
std::atomic<int64_t> taken{0};
std::atomic<int64_t> failed_batches{0};

// The one thread that makes batches ahead of need, started on first use.
// Never destroyed (an idle thread waits on it until exit); the child of a
// fork() has no thread and starts afresh, with a fresh queue (a batch the
// parent had queued is the parent's).
class BatchThread {
 public:
  static BatchThread* Get() {
    static std::once_flag once;
    std::call_once(once, [] {
      instance_ = new BatchThread();
      pthread_atfork(nullptr, nullptr, [] { instance_ = new BatchThread(); });
    });
    return instance_;
  }

  void Submit(std::function<void()> task) {
    std::lock_guard<std::mutex> l(mu_);
    queue_.push_back(std::move(task));
    if (!started_) {
      started_ = true;
      std::thread([this] { Loop(); }).detach();
    }
    wake_.notify_all();
  }

  void WaitIdle() {
    std::unique_lock<std::mutex> l(mu_);
    idle_.wait(l, [&] { return queue_.empty() && !running_; });
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> l(mu_);
    for (;;) {
      wake_.wait(l, [&] { return !queue_.empty(); });
      std::function<void()> task = std::move(queue_.front());
      queue_.pop_front();
      running_ = true;
      l.unlock();
      task();
      task = nullptr;  // its pool may go here, outside mu_
      l.lock();
      running_ = false;
      idle_.notify_all();
    }
  }

  static inline BatchThread* instance_ = nullptr;
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::deque<std::function<void()>> queue_;
  bool started_ = false;
  bool running_ = false;
};

bool DurableNames(std::string_view kind) { return kind != "log"; }

// Table path -> its pool, while a table object holds it.
std::mutex registry_mu;
std::map<std::string, std::weak_ptr<DataFilePool>>& Registry() {
  static auto* registry = new std::map<std::string, std::weak_ptr<DataFilePool>>();  // never destroyed
  return *registry;
}

}  // namespace

std::shared_ptr<DataFilePool> DataFilePool::ForTable(const std::string& table_path) {
  if (IsRemotePath(table_path)) return nullptr;
  std::lock_guard<std::mutex> l(registry_mu);
  auto& slot = Registry()[table_path];
  std::shared_ptr<DataFilePool> pool = slot.lock();
  if (!pool) {
    pool = std::make_shared<DataFilePool>(table_path);
    pool->self_ = pool;
    slot = pool;
  }
  return pool;
}

std::shared_ptr<DataFilePool> DataFilePool::Find(const std::string& table_path) {
  std::lock_guard<std::mutex> l(registry_mu);
  auto it = Registry().find(table_path);
  return it == Registry().end() ? nullptr : it->second.lock();
}

DataFilePool::~DataFilePool() {
  // A batch being made for this pool finishes first (and deletes its names,
  // the pool being gone): when the last table object of the path is gone,
  // no file is created in its folders any more.
  {
    std::unique_lock<std::mutex> l(gate_->mu);
    gate_->closed = true;
    gate_->done.wait(l, [&] { return gate_->running == 0; });
  }
  Discard();
  std::lock_guard<std::mutex> l(registry_mu);
  auto it = Registry().find(table_path_);
  if (it != Registry().end() && it->second.expired()) Registry().erase(it);
}

std::optional<std::string> DataFilePool::Take(const std::shared_ptr<FileSystem>& fs, const std::string& folder,
                                              std::string_view kind) {
  std::lock_guard<std::mutex> l(mu_);
  Folder& state = folders_[folder + "\n" + std::string(kind)];
  if (++state.takes <= kWarmTakes) return std::nullopt;
  int64_t now = clock_fn.load()();
  // Names are taken oldest first, so an old front means the whole batch is
  // as old: a VACUUM may be about to delete them.
  if (!state.names.empty() && now - state.names.front().created_ms > kMaxAgeMs) DeleteNames(folder, state);
  if (state.names.empty() && !Refill(fs.get(), folder, kind, state).ok()) return std::nullopt;
  std::string name = std::move(state.names.front().name);
  state.names.pop_front();
  taken++;
  if (static_cast<int>(state.names.size()) <= kLowWater) RefillInBackground(folder, kind, state);
  return name;
}

Status DataFilePool::MakeBatch(FileSystem* fs, const std::string& folder, std::string_view kind, bool sync_parent,
                               std::vector<std::string>& made) {
  Status s = fs->CreateDirectories(folder);
  for (int i = 0; s.ok() && i < kBatch; i++) {
    std::string name = PooledFileName(kind);
    // Recorded first: a create that fails half way may leave the file.
    made.push_back(name);
    s = fs->WriteFile(JoinPath(folder, name), "");
  }
  if (s.ok() && DurableNames(kind)) {
    // One fsync makes the batch's names durable; the parent's (once) the
    // folder's own name, should this process have just created it.
    DurableSet names;
    names.directories.insert(folder);
    if (sync_parent) names.directories.insert(ParentDirectory(folder));
    s = fs->FsyncAll(names);
  }
  if (!s.ok()) {
    failed_batches++;
    for (auto& name : made) (void)fs->RemoveFile(JoinPath(folder, name));
    made.clear();
    return s;
  }
  batches++;
  return s;
}

Status DataFilePool::Refill(FileSystem* fs, const std::string& folder, std::string_view kind, Folder& state) {
  int64_t now = clock_fn.load()();
  std::vector<std::string> made;
  Status s = MakeBatch(fs, folder, kind, !state.parent_synced, made);
  if (!s.ok()) return s;
  state.parent_synced = true;
  state.background_failed = false;
  for (auto& name : made) state.names.push_back(Name{std::move(name), now});
  return Status::OK();
}

void DataFilePool::RefillInBackground(const std::string& folder, std::string_view kind, Folder& state) {
  if (state.refilling || state.background_failed) return;
  state.refilling = true;
  // The task holds the pool weakly: a table closing meanwhile destroys it,
  // and its destructor waits for the batch through the gate.
  BatchThread::Get()->Submit([weak = self_, gate = gate_, key = folder + "\n" + std::string(kind),
                              discards = state.discards, sync_parent = !state.parent_synced, root = table_path_] {
    BackgroundBatch(weak, *gate, key, discards, sync_parent, root);
  });
}

void DataFilePool::BackgroundBatch(const std::weak_ptr<DataFilePool>& weak, Gate& gate, const std::string& key,
                                   uint64_t discards, bool sync_parent, const std::string& table_path) {
  {
    std::lock_guard<std::mutex> l(gate.mu);
    if (gate.closed) return;
    gate.running++;
  }
  std::string folder = key.substr(0, key.find('\n'));
  std::string kind = key.substr(key.find('\n') + 1);
  // Not the committing database's file system (it may close while this
  // runs): one confined to the table's own folder, which every pooled
  // folder lies in, so a folder swapped for a link leads nowhere outside.
  // Its root resolved, as the table's own confinement does (table_file_system.cpp):
  // a relative table path is compared with resolved paths.
  ConfinedFileSystem confined({ConfinedRoot{ExternalAccessPolicy::Normalize(table_path), "", ""}});
  int64_t now = clock_fn.load()();
  std::vector<std::string> made;
  Status s = MakeBatch(&confined, folder, kind, sync_parent, made);
  std::shared_ptr<DataFilePool> pool = weak.lock();
  if (pool) {
    pool->AcceptBatch(key, discards, s, sync_parent, now, made);
  } else {
    for (auto& name : made) (void)FileSystem::Default()->RemoveFile(JoinPath(folder, name));  // its table closed
  }
  {
    std::lock_guard<std::mutex> l(gate.mu);
    gate.running--;
  }
  gate.done.notify_all();
  // Last: this may be the pool's last reference, and its destructor waits
  // for the gate's batches.
  pool.reset();
}

void DataFilePool::AcceptBatch(const std::string& key, uint64_t discards, const Status& made_ok, bool sync_parent,
                               int64_t now, std::vector<std::string>& made) {
  std::string folder = key.substr(0, key.find('\n'));
  std::lock_guard<std::mutex> l(mu_);
  Folder& state = folders_[key];
  state.refilling = false;
  if (!made_ok.ok()) {
    // The next empty Take tries on its own thread, through its own file
    // system; until one succeeds no batch is asked of this thread again.
    state.background_failed = true;
    return;
  }
  background_batches++;
  if (state.discards != discards) {
    // A VACUUM or DROP discarded the pool after this batch was asked for:
    // its names must not be handed out.
    for (auto& name : made) (void)FileSystem::Default()->RemoveFile(JoinPath(folder, name));
    return;
  }
  if (sync_parent) state.parent_synced = true;
  for (auto& name : made) state.names.push_back(Name{std::move(name), now});
}

void DataFilePool::DeleteNames(const std::string& folder, Folder& state) {
  // Not fsynced: a name that comes back after a crash is an empty file no
  // commit names, which VACUUM removes.
  // Through the process-wide local file system, not a database's: the pool
  // is shared by every table object of the path and may outlive the
  // database whose file system last filled it (its access policy freed).
  // Pools exist for local folders only, and these names are our own.
  for (auto& n : state.names) (void)FileSystem::Default()->RemoveFile(JoinPath(folder, n.name));
  state.names.clear();
}

void DataFilePool::Discard() {
  std::lock_guard<std::mutex> l(mu_);
  for (auto& [key, state] : folders_) {
    state.discards++;
    DeleteNames(key.substr(0, key.find('\n')), state);
  }
}

DataFilePool::Counters DataFilePool::Totals() {
  return Counters{batches.load(), background_batches.load(), taken.load(), failed_batches.load()};
}

void DataFilePool::WaitForBackgroundBatches() { BatchThread::Get()->WaitIdle(); }

std::string PooledFileName(std::string_view kind) {
  if (kind == "dv") return delta::DeletionVectorFileName(NewUuid());
  if (kind == "log") return "." + NewUuid() + ".json.tmp";
  return NewDataFileName(kind, 0);
}

void DataFilePool::SetClockForTest(int64_t (*now_ms)()) { clock_fn = now_ms ? now_ms : &SystemNowMs; }

Result<int> ExistingFileOpener::OpenFile(const std::string& path, int flags, uint32_t mode) {
  flags &= ~(O_CREAT | O_EXCL);
  Result<int> fd = base_->OpenFile(path, flags, mode);
  if (!fd.ok() && fd.status().code() == Status::Code::kNotSupported) {
    // A wrapper that sees no descriptors (fault injection): the file as named.
    int raw = ::open(path.c_str(), flags | O_CLOEXEC);
    fd = raw >= 0 ? Result<int>(raw) : Result<int>(PosixError("cannot open " + path, errno));
  }
  if (!fd.ok() && fd.status().IsNotFound()) vanished_ = true;
  return fd;
}

}  // namespace lakestream
