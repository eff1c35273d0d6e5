#include "sink/sink_lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "common/exception.hpp"
#include "common/timed_wait.hpp"

namespace lakestream {

namespace {

// The lease file's text: "<pid> <generation>", spaces up to this width, "\n".
constexpr size_t kLeaseTextBytes = 48;

// The file's "<pid> <generation>" as written ("" / 0 when unreadable or
// written before generations were).
std::pair<std::string, uint64_t> HolderOf(int fd) {
  char buf[kLeaseTextBytes + 16] = {0};
  ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  std::string text = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  size_t space = text.find(' ');
  std::string pid = text.substr(0, std::min({space, text.find('\n'), text.size()}));
  uint64_t generation = space == std::string::npos ? 0 : std::strtoull(text.c_str() + space + 1, nullptr, 10);
  return {pid, generation};
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
        std::string holder = HolderOf(fd_).first;
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
  generation_ = HolderOf(fd_).second + 1;
  // Padded to a fixed width and written over the old text: no ftruncate, which
  // cost milliseconds per pass here (freeing the file's block).
  std::string text = std::to_string(::getpid()) + " " + std::to_string(generation_);
  text.resize(kLeaseTextBytes - 1, ' ');
  text += '\n';
  if (::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    // The flock is what excludes. A generation not written makes the next
    // holder find an older one: it then resumes with a scan, as after any change of holder.
    generation_ = 0;
  }
}

SinkLease::~SinkLease() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace lakestream
