#include "common/crash_point.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace lakestream {

void CrashPoint(const char* name) {
  static const char* armed = std::getenv("LAKESTREAM_CRASH_POINT");
  if (armed && std::strcmp(armed, name) == 0) std::raise(SIGKILL);
}

}  // namespace lakestream
