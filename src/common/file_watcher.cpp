#include "common/file_watcher.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "common/file_system.hpp"

namespace lakestream {

FileWatcher::FileWatcher() {
  inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

FileWatcher::~FileWatcher() {
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

Status FileWatcher::Watch(const std::string& dir) {
  if (watches_.count(dir)) return Status::OK();
  if (IsRemotePath(dir)) {
    return Status::NotSupported("not supported yet: notifications for object storage folder " + dir +
                                "; its new files are found by polling");
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return Status::NotFound("cannot watch folder " + dir + ": " + std::strerror(errno) +
                            "; create it or name an existing folder");
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status::NotFound("cannot watch folder " + dir + ": it is not a folder; name the folder that holds the files");
  }
  if (inotify_fd_ < 0) {
    return Status::NotSupported("not supported yet: file notifications on this system (inotify_init1: " +
                                std::string(std::strerror(errno)) + "); folder " + dir + " is polled instead");
  }
  int wd = ::inotify_add_watch(inotify_fd_, dir.c_str(), IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR);
  if (wd < 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      return Status::NotFound("cannot watch folder " + dir + ": " + std::strerror(err) +
                              "; create it or name an existing folder");
    }
    return Status::IOError("cannot watch folder " + dir + ": " + std::strerror(err) +
                           (err == ENOSPC ? "; raise fs.inotify.max_user_watches" : "") + "; it is polled instead");
  }
  watches_[dir] = wd;
  return Status::OK();
}

// Reads everything queued on a non-blocking descriptor; true when anything
// was. `ignored` gets the watch descriptors the kernel dropped (their folder
// was deleted: a dropped and re-created table), for inotify's descriptor;
// there an event only for a hidden name (a writer's temp file, such as
// .00000000000000000007.json.<pid>-<n>.tmp before it becomes the commit)
// counts as nothing: the file's final name brings its own event, and a
// follower woken by the temp file would find no new commit and pass for
// nothing (two or three wake-ups per commit, bench/latency).
static bool Drain(int fd, std::vector<int>* ignored) {
  bool any = false;
  alignas(struct inotify_event) char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      if (!ignored) any = true;
      for (ssize_t at = 0; ignored && at + static_cast<ssize_t>(sizeof(struct inotify_event)) <= n;) {
        const auto* event = reinterpret_cast<const struct inotify_event*>(buffer + at);
        if (event->mask & IN_IGNORED) ignored->push_back(event->wd);
        any = any || event->len == 0 || event->name[0] != '.';
        at += static_cast<ssize_t>(sizeof(struct inotify_event) + event->len);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return any;
  }
}

Result<bool> FileWatcher::Wait(std::chrono::milliseconds timeout) {
  struct pollfd fds[2];
  int count = 0;
  if (wake_fd_ >= 0) fds[count++] = {wake_fd_, POLLIN, 0};
  if (inotify_fd_ >= 0 && !watches_.empty()) fds[count++] = {inotify_fd_, POLLIN, 0};
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    int ready = ::poll(fds, count, static_cast<int>(std::max<int64_t>(left.count(), 0)));
    if (ready < 0) {
      if (errno == EINTR) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        continue;
      }
      return Status::IOError(std::string("waiting for file notifications failed: ") + std::strerror(errno));
    }
    if (ready == 0) return false;
    bool woken = false;
    std::vector<int> ignored;
    for (int i = 0; i < count; i++) {
      if (fds[i].revents != 0) woken = Drain(fds[i].fd, fds[i].fd == inotify_fd_ ? &ignored : nullptr) || woken;
    }
    // A folder that went away is watched again by the next Watch() of it.
    for (int wd : ignored) {
      for (auto it = watches_.begin(); it != watches_.end(); ++it) {
        if (it->second == wd) {
          watches_.erase(it);
          break;
        }
      }
    }
    if (woken) return true;
  }
}

void FileWatcher::Wake() {
  if (wake_fd_ < 0) return;
  uint64_t one = 1;
  ssize_t n = ::write(wake_fd_, &one, sizeof(one));
  (void)n;  // a full counter already wakes the waiter
}

}  // namespace lakestream
