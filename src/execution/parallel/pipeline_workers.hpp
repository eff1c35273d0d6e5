// The workers of a parallel sink (a sort, a window's input): RunParallel of
// `work` on `count` workers, with the time EXPLAIN ANALYZE gives `sink`
// being thread time, as for every operator under it (OperatorProfile sums
// time over threads; the sink's own GetChunk counts only the wall time of
// this call).
#pragma once

#include <functional>

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

void RunPipelineWorkers(ExecutionContext& context, PhysicalOperator& sink, idx_t count,
                        const std::function<void(idx_t worker, ExecutionContext&)>& work,
                        const std::function<void()>& on_error);

}  // namespace lakestream
