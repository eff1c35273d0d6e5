// RunParallel (execution/parallel/parallel_runner.hpp): every worker runs
// exactly once, on its own thread or, when that thread has not started by
// the time the caller is free, on the caller's; the caller returns only
// once every worker is done, and a worker's error reaches it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "common/exception.hpp"
#include "execution/parallel/parallel_runner.hpp"

namespace lakestream {
namespace {

TEST(ParallelRunner, EveryWorkerRunsOnceOnSomeThread) {
  for (idx_t count : {1, 2, 4, 64}) {
    ExecutionContext caller;
    std::vector<std::atomic<int>> runs(count);
    std::mutex mutex;
    std::set<std::thread::id> threads;
    RunParallel(caller, count, [&](idx_t worker, ExecutionContext&) {
      runs[worker]++;
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    });
    for (idx_t w = 0; w < count; w++) EXPECT_EQ(runs[w].load(), 1) << "worker " << w << " of " << count;
    // Worker 0 always runs on the caller.
    EXPECT_EQ(threads.count(std::this_thread::get_id()), 1u);
  }
}

TEST(ParallelRunner, ReturnsOnlyOnceEveryWorkerIsDone) {
  ExecutionContext caller;
  const idx_t count = 4;
  std::vector<std::atomic<bool>> done(count);
  RunParallel(caller, count, [&](idx_t worker, ExecutionContext&) {
    // Workers on their own threads outlast the caller's.
    if (worker > 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
    done[worker] = true;
  });
  for (idx_t w = 0; w < count; w++) EXPECT_TRUE(done[w].load()) << "worker " << w;
}

TEST(ParallelRunner, WorkerErrorReachesTheCaller) {
  ExecutionContext caller;
  std::atomic<int> errors_handled{0};
  EXPECT_THROW(RunParallel(
                   caller, 8,
                   [&](idx_t worker, ExecutionContext&) {
                     if (worker == 5) throw InvalidInputError("worker 5 failed");
                   },
                   [&] { errors_handled++; }),
               InvalidInputError);
  EXPECT_EQ(errors_handled.load(), 1);
}

}  // namespace
}  // namespace lakestream
