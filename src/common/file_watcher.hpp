// FileWatcher: waits until a file appears in one of a few local folders
// (inotify: created, moved in, or closed after writing; hidden names, a
// writer's temp files, do not count: their final name does) or another
// thread calls Wake(). A follower that delivers a table's new commits (a sink,
// a pipeline's continuous mode) watches the table's _delta_log/ with it, so
// it wakes when a commit file lands instead of at its next poll.
//
// An event is only a hint: the waiter re-reads what it follows (the commit
// may still be a temporary file, or belong to another table). Events that
// arrive between two Wait calls are kept (the kernel queues them), so a
// commit after Watch() is never missed, only possibly reported twice.
//
// Where inotify does not exist or a folder is object storage (s3://), Watch
// returns NotSupported and the caller polls; Wait still returns on Wake().
#pragma once

#include <chrono>
#include <string>
#include <unordered_map>

#include "common/status.hpp"

namespace lakestream {

class FileWatcher {
 public:
  FileWatcher();
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  // Watches folder `dir` (again: a no-op). NotFound naming the folder when it
  // does not exist or is not a folder; NotSupported for object storage or
  // without inotify; IOError for the kernel's refusal (the watch limit).
  Status Watch(const std::string& dir);
  // The folders watched now.
  size_t Watching() const { return watches_.size(); }

  // Blocks up to `timeout` for an event in a watched folder or a Wake().
  // True when woken (every queued event is consumed), false on timeout.
  // IOError only when the kernel's descriptors fail.
  Result<bool> Wait(std::chrono::milliseconds timeout);

  // Ends the current (or the next) Wait. Any thread; async-signal-safe.
  void Wake();

 private:
  int inotify_fd_ = -1;  // -1 without inotify
  int wake_fd_ = -1;     // an eventfd
  std::unordered_map<std::string, int> watches_;  // folder -> watch descriptor
};

}  // namespace lakestream
