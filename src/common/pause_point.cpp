#include "common/pause_point.hpp"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace lakestream {

void PausePoint(const char* name) {
  static const char* armed = std::getenv("LAKESTREAM_PAUSE_POINT");
  static std::atomic<bool> paused{false};
  if (armed && std::strcmp(armed, name) == 0 && !paused.exchange(true)) std::raise(SIGSTOP);
}

}  // namespace lakestream
