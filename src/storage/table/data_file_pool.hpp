// DataFilePool: file names created ahead of the commits that fill them, so
// that a commit creates no file on its way: creating one costs an inode (on
// ext4 without a journal, a scan of recently deleted inodes: ~0.2-1 ms, half
// a single-row commit) and, for a name a commit relies on, its folder's
// fsync.
//
// A commit must make durable the contents of its data files and their names
// before it links the log entry that names them (docs/delta-format.md
// "Commits and durability"). A name made by the commit itself needs an fsync
// of its folder; a name taken from the pool was made durable earlier, in a
// batch: kBatch empty files created at once and one fsync of their folder
// (and of its parent, the first time, for a folder that may be new). The
// commit opens the name WITHOUT O_CREAT, so a name that vanished (a VACUUM
// with a retention shorter than kMaxAgeMs, another process, a hand) fails to
// open instead of creating an undurable one; the writer then falls back to a
// fresh name and its folder's fsync.
//
//   auto pool = DataFilePool::ForTable("/db/t");        // held by the table object
//   std::optional<std::string> name = pool->Take(fs, "/db/t", "part");
//   // name: "part-00000-<uuid>.c000.parquet" in /db/t, empty, name durable
//
// Kinds (PooledFileName): "part" and "cdc" (data and change data files, in
// the table's root and `_change_data/`), "dv" (deletion_vector_<uuid>.bin,
// in the root) and "log" (the temp file a commit's log entry is written to
// before its link, in `_delta_log/`: its name never needs to be durable, so
// a "log" batch has no fsync, and a vanished one is simply created again).
// Partition folders and the random folders of column-mapped tables take
// today's path. A folder gets a pool only after kWarmTakes commits of this
// process wrote into it, so a table written now and then never holds empty
// files. A pool refills in the background (one process-wide thread) when it
// is down to kLowWater names, so that steady commits never wait for a
// batch; an empty pool (the first batch, a burst) refills on the commit's
// thread. A pool's unused names are deleted when the last table object of
// its path goes, and by Discard (VACUUM). Names older than kMaxAgeMs are
// deleted unused: a VACUUM that keeps files younger than that never removes
// a name a commit is about to fill. Empty names a crash leaves are files no
// commit names, which VACUUM removes once older than its retention (as
// Spark's does; log temps by their temp name).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_system.hpp"

namespace lakestream {

class DataFilePool {
 public:
  static constexpr int kBatch = 16;
  static constexpr int kLowWater = 4;
  static constexpr int kWarmTakes = 8;
  static constexpr int64_t kMaxAgeMs = 60LL * 60 * 1000;

  // The pool of the table at `table_path` (a local folder), shared by every
  // table object of this process at that path; null for object storage.
  static std::shared_ptr<DataFilePool> ForTable(const std::string& table_path);
  // The pool a table object of `table_path` holds, else null (no names are
  // pooled for a table nobody holds open).
  static std::shared_ptr<DataFilePool> Find(const std::string& table_path);

  // Deletes the unused names (best effort).
  ~DataFilePool();
  DataFilePool(const DataFilePool&) = delete;
  DataFilePool& operator=(const DataFilePool&) = delete;

  // The base name of an empty file in `folder` for `kind` (see above), its
  // name durable unless the kind is "log"; nullopt when the folder has no
  // pool yet or its batch failed (the caller then makes a name of its own
  // and makes its folder durable). Creates a batch through `fs` when the
  // folder's pool is empty, and asks the background thread for one when it
  // is low. Thread-safe. Background batches and the deletion of unused
  // names go through a file system confined to the table's folder, not
  // `fs`: `fs` may belong to a database that closes first.
  std::optional<std::string> Take(const std::shared_ptr<FileSystem>& fs, const std::string& folder,
                                  std::string_view kind);
  // Deletes every unused name of every folder (VACUUM, before it lists).
  void Discard();

  // Per process, for tests and the bench: batches made (of them in the
  // background), names handed out, batches that failed (their names
  // deleted, none pooled).
  struct Counters {
    int64_t batches = 0;
    int64_t background_batches = 0;
    int64_t taken = 0;
    int64_t failed_batches = 0;
  };
  static Counters Totals();
  // Blocks until the background thread has no batch queued or running
  // (tests).
  static void WaitForBackgroundBatches();

  // For tests: the clock (ms since the epoch) that ages names.
  static void SetClockForTest(int64_t (*now_ms)());

  explicit DataFilePool(std::string table_path) : table_path_(std::move(table_path)) {}

 private:
  struct Name {
    std::string name;
    int64_t created_ms;
  };
  struct Folder {
    int takes = 0;
    bool parent_synced = false;
    bool refilling = false;   // a background batch is queued or running
    bool background_failed = false;  // the last one failed: none until a batch of the taker's succeeds
    uint64_t discards = 0;    // Discard()s so far: a batch asked for before one is dropped
    std::deque<Name> names;
  };
  // Creates kBatch names of `kind` in `folder` through `fs` and makes them
  // durable (not for "log"); on failure deletes what it made. Needs no lock.
  static Status MakeBatch(FileSystem* fs, const std::string& folder, std::string_view kind, bool sync_parent,
                          std::vector<std::string>& made);
  // MakeBatch on the caller's thread into `state`. Under mu_.
  Status Refill(FileSystem* fs, const std::string& folder, std::string_view kind, Folder& state);
  // Background batches of one pool in progress, shared with their tasks: the
  // pool's destructor closes it and waits for them.
  struct Gate {
    std::mutex mu;
    std::condition_variable done;
    int running = 0;
    bool closed = false;
  };
  // Queues a background batch for `state` unless one is on its way. Under mu_.
  void RefillInBackground(const std::string& folder, std::string_view kind, Folder& state);
  // The background thread's batch for the folder of `key` of the pool
  // `weak` (at `table_path`), asked for after `discards` Discard()s.
  static void BackgroundBatch(const std::weak_ptr<DataFilePool>& weak, Gate& gate, const std::string& key,
                              uint64_t discards, bool sync_parent, const std::string& table_path);
  // Pools the names of a background batch, unless it failed (`made_ok`) or
  // a Discard() came since it was asked for (then deletes them).
  void AcceptBatch(const std::string& key, uint64_t discards, const Status& made_ok, bool sync_parent, int64_t now,
                   std::vector<std::string>& made);
  // Deletes the unused names of `state` (under mu_).
  void DeleteNames(const std::string& folder, Folder& state);

  std::string table_path_;
  std::weak_ptr<DataFilePool> self_;  // for the background thread's tasks
  std::shared_ptr<Gate> gate_ = std::make_shared<Gate>();
  std::mutex mu_;
  std::map<std::string, Folder> folders_;  // key: folder + "\n" + kind
};

// A fresh name of `kind` ("part", "cdc", "dv", "log"; see DataFilePool).
std::string PooledFileName(std::string_view kind);

// A FileSystem for ParquetWriter::Create that opens the file it is given
// without O_CREAT: writing into a pooled name must never create the name
// anew (it would not be durable). Every other call goes to `base`.
// vanished() tells whether the open found no file.
class ExistingFileOpener : public FileSystem {
 public:
  explicit ExistingFileOpener(FileSystem* base) : base_(base) {}
  bool vanished() const { return vanished_; }

  Result<int> OpenFile(const std::string& path, int flags, uint32_t mode) override;
  Result<std::string> ReadFile(const std::string& p) override { return base_->ReadFile(p); }
  Status WriteFile(const std::string& p, const std::string& c) override { return base_->WriteFile(p, c); }
  Result<std::vector<std::string>> ListDirectory(const std::string& d) override { return base_->ListDirectory(d); }
  Status CreateDirectories(const std::string& d) override { return base_->CreateDirectories(d); }
  bool FileExists(const std::string& p) override { return base_->FileExists(p); }
  Result<uint64_t> FileSize(const std::string& p) override { return base_->FileSize(p); }
  Result<int64_t> ModificationTime(const std::string& p) override { return base_->ModificationTime(p); }
  Status RemoveFile(const std::string& p) override { return base_->RemoveFile(p); }
  Status Rename(const std::string& f, const std::string& t) override { return base_->Rename(f, t); }
  Status Link(const std::string& f, const std::string& t) override { return base_->Link(f, t); }
  Status Fsync(const std::string& p) override { return base_->Fsync(p); }
  Status FsyncDirectory(const std::string& d) override { return base_->FsyncDirectory(d); }

 private:
  FileSystem* base_;
  bool vanished_ = false;
};

}  // namespace lakestream
