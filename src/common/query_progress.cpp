#include "common/query_progress.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace lakestream {

namespace {

std::mutex g_mutex;
// Connections come and go rarely; a map under a mutex is plenty.
std::map<const void*, std::unique_ptr<QueryProgress>>& Registry() {
  static auto* registry = new std::map<const void*, std::unique_ptr<QueryProgress>>();
  return *registry;
}

thread_local QueryProgress* t_current = nullptr;

}  // namespace

QueryProgress& ProgressFor(const void* owner) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto& slot = Registry()[owner];
  if (!slot) slot = std::make_unique<QueryProgress>();
  return *slot;
}

void ForgetProgress(const void* owner) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Registry().erase(owner);
}

QueryProgress* CurrentQueryProgress() { return t_current; }

QueryProgressScope::QueryProgressScope(QueryProgress* progress) : previous_(t_current) { t_current = progress; }
QueryProgressScope::~QueryProgressScope() { t_current = previous_; }

}  // namespace lakestream
