#include "execution/parallel/pipeline_workers.hpp"

#include <atomic>
#include <chrono>

#include "execution/parallel/parallel_runner.hpp"

namespace lakestream {

void RunPipelineWorkers(ExecutionContext& context, PhysicalOperator& sink, idx_t count,
                        const std::function<void(idx_t worker, ExecutionContext&)>& work,
                        const std::function<void()>& on_error) {
  using Clock = std::chrono::steady_clock;
  auto nanos_since = [](Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  };
  auto start = Clock::now();
  std::atomic<int64_t> worker_nanos{0};
  RunParallel(
      context, count,
      [&](idx_t worker, ExecutionContext& local) {
        auto worker_start = Clock::now();
        work(worker, local);
        worker_nanos += nanos_since(worker_start);
      },
      on_error);
  if (!context.profiling) return;
  int64_t wall = nanos_since(start);
  if (worker_nanos > wall) sink.Profile().nanos.fetch_add(static_cast<uint64_t>(worker_nanos - wall), std::memory_order_relaxed);
}

}  // namespace lakestream
