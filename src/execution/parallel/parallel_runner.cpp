#include "execution/parallel/parallel_runner.hpp"

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "common/query_progress.hpp"
#include "common/time_zone.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

// Who runs a worker: its own thread when that thread starts before the
// caller is free, else the caller. The state outlives RunParallel: a thread
// scheduled late finds its worker taken and returns without touching
// anything else.
enum WorkerState : int { kWaiting, kOnThread, kTaken, kDone };

struct WorkerSlots {
  explicit WorkerSlots(idx_t count) : states(count) {}
  std::vector<std::atomic<int>> states;
  std::mutex mutex;
  std::condition_variable finished;
};

}  // namespace

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
  auto slots = std::make_shared<WorkerSlots>(count);
  for (idx_t w = 1; w < count; w++) {
    try {
      // Detached: the caller never waits for a thread that has not started
      // (on a loaded machine that wait was longer than a small query).
      std::thread([slots, w, &run, progress, &caller] {
        int expected = kWaiting;
        if (!slots->states[w].compare_exchange_strong(expected, kOnThread)) return;
        {
          QueryProgressScope scope(progress);
          if (caller.client) SetSessionTimeZone(caller.client->time_zone);
          run(w);
        }
        std::lock_guard<std::mutex> lock(slots->mutex);
        slots->states[w].store(kDone);
        slots->finished.notify_all();
      }).detach();
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the caller runs the other workers
    }
  }
  if (count > 0) run(0);
  // Workers whose threads have not started yet run here, one after another
  // (a worker of a morsel-driven pipeline then finds the morsels taken).
  for (idx_t w = 1; w < count; w++) {
    int expected = kWaiting;
    if (slots->states[w].compare_exchange_strong(expected, kTaken)) run(w);
  }
  {
    std::unique_lock<std::mutex> lock(slots->mutex);
    slots->finished.wait(lock, [&] {
      for (idx_t w = 1; w < count; w++) {
        if (slots->states[w].load() == kOnThread) return false;
      }
      return true;
    });
  }
  if (first_error) std::rethrow_exception(first_error);
  // A caller's own cancellation (it is itself a worker of an outer pipeline).
  caller.CheckInterrupt();
}

}  // namespace lakestream
