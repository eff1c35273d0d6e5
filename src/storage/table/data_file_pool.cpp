#include "storage/table/data_file_pool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <vector>

#include "storage/table/delta_file_writer.hpp"

namespace lakestream {

namespace {

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::atomic<int64_t (*)()> clock_fn{&SystemNowMs};
std::atomic<int64_t> batches{0};
std::atomic<int64_t> taken{0};
std::atomic<int64_t> failed_batches{0};

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
  return name;
}

Status DataFilePool::Refill(FileSystem* fs, const std::string& folder, std::string_view kind, Folder& state) {
  int64_t now = clock_fn.load()();
  std::vector<std::string> made;
  Status s = fs->CreateDirectories(folder);
  for (int i = 0; s.ok() && i < kBatch; i++) {
    std::string name = NewDataFileName(kind, 0);
    // Recorded first: a create that fails half way may leave the file.
    made.push_back(name);
    s = fs->WriteFile(JoinPath(folder, name), "");
  }
  if (s.ok()) {
    // One fsync makes the batch's names durable; the parent's (once) the
    // folder's own name, should this process have just created it.
    DurableSet names;
    names.directories.insert(folder);
    if (!state.parent_synced) names.directories.insert(ParentDirectory(folder));
    s = fs->FsyncAll(names);
  }
  if (!s.ok()) {
    failed_batches++;
    for (auto& name : made) (void)fs->RemoveFile(JoinPath(folder, name));
    return s;
  }
  state.parent_synced = true;
  batches++;
  for (auto& name : made) state.names.push_back(Name{std::move(name), now});
  return Status::OK();
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
  for (auto& [key, state] : folders_) DeleteNames(key.substr(0, key.find('\n')), state);
}

DataFilePool::Counters DataFilePool::Totals() { return Counters{batches.load(), taken.load(), failed_batches.load()}; }

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
