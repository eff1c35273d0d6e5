#include "execution/parallel/parallel_runner.hpp"

#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "common/query_progress.hpp"
#include "common/time_zone.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

void RunParallel(ExecutionContext& caller, idx_t count, const std::function<void(idx_t worker, ExecutionContext&)>& work,
                 const std::function<void()>& on_error) {
  std::atomic<bool> cancelled{false};
  std::mutex mutex;
  std::exception_ptr first_error;
  QueryProgress* progress = CurrentQueryProgress();
  auto run = [&](idx_t worker) {
    ExecutionContext context = caller;
    context.cancelled = &cancelled;
    try {
      work(worker, context);
    } catch (const WorkerCancelled&) {
      // Another worker failed first; its error is the one reported.
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!first_error) first_error = std::current_exception();
      cancelled.store(true, std::memory_order_relaxed);
      if (on_error) on_error();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(count > 0 ? count - 1 : 0);
  for (idx_t w = 1; w < count; w++) {
    try {
      threads.emplace_back([&, w] {
        QueryProgressScope scope(progress);
        if (caller.client) SetSessionTimeZone(caller.client->time_zone);
        run(w);
      });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the started workers take every morsel
    }
  }
  if (count > 0) run(0);
  for (auto& t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);
  // A caller's own cancellation (it is itself a worker of an outer pipeline).
  caller.CheckInterrupt();
}

}  // namespace lakestream
