// Shared by the window evaluation files (window_executor.cpp,
// window_aggregate.cpp); not part of the engine's interface.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "function/window/window_executor.hpp"

namespace lakestream {

// Each sorted position's frame [begin, end) in sorted positions (empty when
// begin == end), always within its partition.
void ComputeFrames(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort,
                   std::vector<uint32_t>& begin, std::vector<uint32_t>& end);

// Aggregates over frames: sum, count, count(*), avg, min, max and
// count/sum/avg(DISTINCT) by prefix sums, segment trees and a sliding
// multiset; every other aggregate through its AggregateState.
void EvaluateWindowAggregate(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort,
                             Vector& result, const std::function<void()>& check_interrupt);

}  // namespace lakestream
