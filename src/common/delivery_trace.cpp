#include "common/delivery_trace.hpp"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace lakestream {

void TraceDelivery(const char* stage) {
  static const int fd = [] {
    const char* path = std::getenv("LAKESTREAM_DELIVERY_TRACE");
    return path && *path ? ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
  }();
  if (fd < 0) return;
  timespec now {};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  char line[128];
  int n = std::snprintf(line, sizeof(line), "%s %lld %d\n", stage,
                        static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec, static_cast<int>(::getpid()));
  // One write of a short line with O_APPEND: lines of two processes never interleave.
  if (n > 0) (void)!::write(fd, line, static_cast<size_t>(n));
}

}  // namespace lakestream
