// Window functions evaluated one hash partition of the rows at a time, on
// several threads (DuckDB's partitioned window evaluation): every window of
// a WINDOW operator computes over the rows of one PARTITION BY group only,
// so the rows can be split by a hash of the PARTITION BY keys all the
// windows share, and each split evaluated on its own (function/window/
// window_executor.hpp). A split keeps its rows in input order, and
// WindowSort breaks ties by input order, so every row gets the value a
// single evaluation over all rows gives it.
#pragma once

#include <vector>

#include "execution/operator/physical_operator.hpp"
#include "function/window/window_function.hpp"

namespace lakestream {

// Whether `windows` can be evaluated split (EvaluateWindowsSplit): they share
// a PARTITION BY key, none is a frame aggregate of DOUBLE values (its
// rounding follows the rows' places in the whole sort: a segment tree, a
// sliding sum), and none returns a nested type (STRUCT, LIST, MAP) or one
// without a fixed width.
bool WindowsSplittable(const std::vector<BoundWindow>& windows);

// Fills results[w] (allocated for `count` rows, indexed by input row) with
// windows[w]'s values over `inputs` (count rows each), the rows split by the
// shared PARTITION BY keys and the splits evaluated on up to `threads`
// threads (RunParallel). Requires WindowsSplittable(windows).
void EvaluateWindowsSplit(ExecutionContext& context, const std::vector<BoundWindow>& windows,
                          const std::vector<Vector>& inputs, idx_t count, std::vector<Vector>& results, idx_t threads);

}  // namespace lakestream
