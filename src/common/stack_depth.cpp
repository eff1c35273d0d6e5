#include "common/stack_depth.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace lakestream {

namespace {

constexpr size_t kMaxReserve = size_t(1) << 20;

// The lowest address the thread's stack may reach before the check fires;
// 0 when the bounds cannot be read (the check is then off).
uintptr_t StackLimit() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* addr = nullptr;
  size_t size = 0;
  int rc = pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0 || addr == nullptr || size == 0) return 0;
  return reinterpret_cast<uintptr_t>(addr) + std::min(size / 4, kMaxReserve);
}

}  // namespace

bool StackNearlyExhausted() {
  thread_local const uintptr_t limit = StackLimit();
  // The frame address, not a local's: sanitizers may move locals off the stack.
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return limit != 0 && here < limit;
}

std::string NestedTooDeeplyMessage(const std::string& what) {
  return "statement is nested too deeply (" + what +
         "); simplify it: split long chains of operators, nested subqueries or CTEs that read other CTEs "
         "into steps (e.g. a view or a table written first)";
}

}  // namespace lakestream
