#include "execution/malloc_tuning.hpp"

#include <cstdlib>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lakestream {

void TuneMallocOnce() {
#if defined(__GLIBC__)
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* own : {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES", "LAKESTREAM_MALLOC_DEFAULTS"}) {
      if (std::getenv(own) != nullptr) return;  // NOLINT(concurrency-mt-unsafe): read once, before any setenv of ours
    }
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's maximum
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
  });
#endif
}

}  // namespace lakestream
