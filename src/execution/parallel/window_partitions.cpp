#include "execution/parallel/window_partitions.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "common/vector_operations.hpp"
#include "execution/parallel/parallel_runner.hpp"
#include "function/window/window_executor.hpp"

namespace lakestream {

// The PARTITION BY inputs every window has.
static std::vector<idx_t> SharedPartitions(const std::vector<BoundWindow>& windows) {
  std::vector<idx_t> shared = windows.empty() ? std::vector<idx_t>{} : windows[0].partitions;
  for (auto& w : windows) {
    std::erase_if(shared, [&](idx_t p) { return std::find(w.partitions.begin(), w.partitions.end(), p) == w.partitions.end(); });
  }
  return shared;
}

bool WindowsSplittable(const std::vector<BoundWindow>& windows) {
  if (SharedPartitions(windows).empty()) return false;
  for (auto& w : windows) {
    if (w.return_type.IsNested() || w.return_type.PhysicalSize() == 0) return false;
    if (w.kind == WindowKind::AGGREGATE && w.aggregate.input_type.id() == TypeId::DOUBLE) return false;
  }
  return true;
}

// dst[rows[i]] = src[i] for i < rows.size(), from several threads at once:
// each writes its own rows; `heap_mutex` guards dst's heap references.
static void Scatter(const Vector& src, const std::vector<sel_t>& rows, Vector& dst, std::mutex& heap_mutex) {
  const idx_t width = src.GetType().PhysicalSize();
  if (src.GetType().id() == TypeId::VARCHAR) {
    std::lock_guard<std::mutex> lock(heap_mutex);
    dst.AddHeapReference(src);
  }
  const uint8_t* from = src.GetData<uint8_t>();
  uint8_t* to = dst.GetData<uint8_t>();
  const uint8_t* valid = src.Validity();
  uint8_t* dst_valid = dst.Validity();
  for (idx_t i = 0; i < rows.size(); i++) {
    std::memcpy(to + static_cast<idx_t>(rows[i]) * width, from + i * width, width);
    dst_valid[rows[i]] = valid[i];
  }
}

void EvaluateWindowsSplit(ExecutionContext& context, const std::vector<BoundWindow>& windows,
                          const std::vector<Vector>& inputs, idx_t count, std::vector<Vector>& results, idx_t threads) {
  // More splits than threads: a few large PARTITION BY groups do not leave
  // the other threads idle for long.
  const idx_t splits = threads * 8;
  std::vector<uint64_t> hashes(count);
  bool combine = false;
  for (idx_t p : SharedPartitions(windows)) {
    HashVector(inputs[p], count, hashes.data(), combine);
    combine = true;
  }
  std::vector<std::vector<sel_t>> rows(splits);
  for (idx_t r = 0; r < count; r++) rows[(MixHash(hashes[r]) >> 32) % splits].push_back(static_cast<sel_t>(r));
  hashes = {};
  std::atomic<idx_t> next{0};
  std::mutex heap_mutex;
  RunParallel(context, threads, [&](idx_t, ExecutionContext& local) {
    auto check = [&local] { local.CheckInterrupt(); };
    for (idx_t s = next++; s < splits; s = next++) {
      const std::vector<sel_t>& split = rows[s];
      const idx_t n = split.size();
      if (n == 0) continue;
      std::vector<Vector> split_inputs;
      split_inputs.reserve(inputs.size());
      for (auto& input : inputs) {
        split_inputs.emplace_back(input.GetType(), n);
        split_inputs.back().Copy(input, split.data(), n, 0, 0);
      }
      // Windows with the same PARTITION BY and ORDER BY share one sort (as PhysicalWindow).
      std::map<std::string, std::unique_ptr<WindowSort>> sorts;
      for (idx_t w = 0; w < windows.size(); w++) {
        auto& sort = sorts[WindowSortKey(windows[w])];
        if (!sort) sort = std::make_unique<WindowSort>(split_inputs, n, windows[w]);
        local.CheckInterrupt();
        Vector result(windows[w].return_type, n);
        EvaluateWindow(windows[w], split_inputs, *sort, result, check);
        Scatter(result, split, results[w], heap_mutex);
      }
    }
  });
}

}  // namespace lakestream
