#include "sink/sink_lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/exception.hpp"
#include "common/timed_wait.hpp"

namespace lakestream {

namespace {

// The holder's pid as it wrote it, "" when unreadable.
std::string HolderOf(int fd) {
  char buf[32] = {0};
  ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid;
}

}  // namespace

std::string SinkLease::LockPath(const std::string& db_path, const std::string& id) {
  // The id is ours (a UUID) or, in older catalogs, the sink's name, which may
  // hold any character: hex keeps the file name portable.
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : id) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return db_path + "/_lakestream/sink-" + hex + ".lock";
}

SinkLease::SinkLease(const std::string& db_path, const std::string& sink_name, const std::string& id,
                     std::chrono::milliseconds timeout, const std::function<void()>& check_interrupt) {
  std::string path = LockPath(db_path, id);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    throw IOError("Sink " + sink_name + ": cannot open its lease file " + path + ": " + std::strerror(errno) +
                  "; check the permissions of the database directory");
  }
  // Slices of 50 ms: an interrupted statement stops waiting promptly.
  constexpr auto kSlice = std::chrono::milliseconds(50);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  try {
    while (true) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      TimedWait wait = CallWithTimeout(
          std::max(std::chrono::milliseconds(0), std::min(left, kSlice)), [&] { return ::flock(fd_, LOCK_EX); },
          [&] { return ::flock(fd_, LOCK_EX | LOCK_NB); });
      if (wait == TimedWait::kDone) break;
      if (wait == TimedWait::kFailed) {
        throw IOError("Sink " + sink_name + ": cannot lock its lease file " + path + ": " + std::strerror(errno));
      }
      if (check_interrupt) check_interrupt();
      if (std::chrono::steady_clock::now() >= deadline) {
        std::string holder = HolderOf(fd_);
        throw IOError("Sink " + sink_name + " is being delivered by " +
                      (holder.empty() ? std::string("another process") : "process " + holder) +
                      " (another RUN SINK or `lakestream sink` pass of it is under way); one pass delivers a sink at a "
                      "time: run it again when that pass is done");
      }
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The pid is only for the error message; the flock is what excludes.
  }
}

SinkLease::~SinkLease() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace lakestream
