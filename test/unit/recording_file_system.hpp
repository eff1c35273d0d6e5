// RecordingFileSystem: a FileSystem for tests that forwards every call to
// the default one and records, in order, the steps that matter to
// durability (writes, fsyncs, links, renames, removals), and counts
// FileExists calls.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "common/file_system.hpp"

namespace lakestream::testing {

class RecordingFileSystem : public FileSystem {
 public:
  enum class Kind { kWrite, kFsync, kFsyncDir, kLink, kRename, kRemove };
  struct Event {
    Kind kind;
    std::string path;  // the file, directory, or the new name of a link / rename
    std::string from;  // the old name of a link / rename
  };

  std::vector<Event> events() {
    std::lock_guard<std::mutex> l(mu_);
    return events_;
  }
  void Clear() {
    std::lock_guard<std::mutex> l(mu_);
    events_.clear();
  }

  Result<std::string> ReadFile(const std::string& p) override { return base_->ReadFile(p); }
  Status WriteFile(const std::string& p, const std::string& c) override {
    Record(Kind::kWrite, p);
    return base_->WriteFile(p, c);
  }
  Result<std::vector<std::string>> ListDirectory(const std::string& d) override { return base_->ListDirectory(d); }
  Status CreateDirectories(const std::string& d) override { return base_->CreateDirectories(d); }
  bool FileExists(const std::string& p) override {
    exists_calls_++;
    return base_->FileExists(p);
  }
  // FileExists calls so far (stat()s, e.g. of data files).
  int64_t exists_calls() const { return exists_calls_; }
  Result<uint64_t> FileSize(const std::string& p) override { return base_->FileSize(p); }
  Result<int64_t> ModificationTime(const std::string& p) override { return base_->ModificationTime(p); }
  Status RemoveFile(const std::string& p) override {
    Record(Kind::kRemove, p);
    return base_->RemoveFile(p);
  }
  Status Rename(const std::string& f, const std::string& t) override {
    Record(Kind::kRename, t, f);
    return base_->Rename(f, t);
  }
  Status Link(const std::string& f, const std::string& t) override {
    Record(Kind::kLink, t, f);
    return base_->Link(f, t);
  }
  Status Fsync(const std::string& p) override {
    Record(Kind::kFsync, p);
    return base_->Fsync(p);
  }
  Status FsyncDirectory(const std::string& d) override {
    Record(Kind::kFsyncDir, d);
    return base_->FsyncDirectory(d);
  }

 private:
  void Record(Kind kind, const std::string& path, const std::string& from = "") {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back({kind, path, from});
  }
  FileSystem* base_ = FileSystem::Default();
  std::mutex mu_;
  std::vector<Event> events_;
  std::atomic<int64_t> exists_calls_{0};
};

}  // namespace lakestream::testing
