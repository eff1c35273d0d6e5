// The file system a Delta table's own I/O goes through: its log, checkpoints
// and sidecars, data files, deletion vectors and change data files, read or
// written. While external access is enabled it is the file system the table
// was opened with; once it is disabled (DataFileAccess::Confined), every
// call goes beneath the table's own folder with no link followed
// (ConfinedFileSystem). So no path a log names (absolute, file://, `..`, a
// sidecar elsewhere, a link swapped in after a check) can make the engine
// read, write or delete a file outside the table, whichever code path asks:
// one choke point instead of a check beside each reader.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/file_system.hpp"

namespace lakestream {

class ExternalAccessPolicy;

// How a table opens its files. Shared by the table, its snapshot states and
// the tables it opens at past versions (time travel); thread-safe.
struct DataFileAccess {
  std::atomic<const ExternalAccessPolicy*> policy{nullptr};
  std::string root;                          // the table's folder, normalised; "" on object storage
  std::unique_ptr<FileSystem> beneath_root;  // a ConfinedFileSystem at `root`; null on object storage
  // Null while files may be opened as named, else beneath_root.
  FileSystem* Confined() const;
  // Access for the table at `path` (a local folder, or s3://).
  static std::shared_ptr<DataFileAccess> For(const std::string& path, const ExternalAccessPolicy* policy);
};

class TableFileSystem : public FileSystem {
 public:
  // `open`: the file system for paths as named (not owned, outlives this).
  TableFileSystem(FileSystem* open, std::shared_ptr<const DataFileAccess> access)
      : open_(open), access_(std::move(access)) {}

  // Where the next call goes: the confined file system, or `open`.
  FileSystem* Current() const {
    FileSystem* confined = access_->Confined();
    return confined ? confined : open_;
  }

  Result<std::string> ReadFile(const std::string& path) override;
  Result<std::string> ReadRange(const std::string& path, uint64_t offset, uint64_t length) override;
  Result<Tail> ReadTail(const std::string& path, uint64_t length) override;
  bool ReadsInPlace() const override;
  Result<int> OpenFile(const std::string& path, int flags, uint32_t mode) override;
  Status WriteFile(const std::string& path, const std::string& contents) override;
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override;
  Status CreateDirectories(const std::string& dir) override;
  bool FileExists(const std::string& path) override;
  Result<uint64_t> FileSize(const std::string& path) override;
  Result<int64_t> ModificationTime(const std::string& path) override;
  Status RemoveFile(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status Link(const std::string& from, const std::string& to) override;
  Status Fsync(const std::string& path) override;
  Status FsyncDirectory(const std::string& dir) override;
  Status FsyncAll(const DurableSet& paths) override;
  Status PutIfAbsent(const std::string& path, const std::string& contents, const DurableSet& first = {}) override;
  Status WriteFileAtomic(const std::string& path, const std::string& contents) override;
  Status SetMode(const std::string& path, uint32_t mode) override;

 private:
  FileSystem* open_;
  std::shared_ptr<const DataFileAccess> access_;
};

}  // namespace lakestream
