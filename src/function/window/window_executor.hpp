// Evaluation of window functions (window_function.hpp) over materialised
// rows: every input expression of the WINDOW operator evaluated into one
// Vector over all `count` rows. The operator (physical_window.*) sorts once
// per distinct PARTITION BY/ORDER BY (WindowSort) and fills one result
// Vector per window, indexed by input row.
//
// Costs: ranking functions, lag/lead and value functions are linear in the
// rows after the sort. Frame aggregates never recompute a frame from scratch:
// sum/count/avg of integers and decimals use exact 128-bit prefix sums,
// sum/avg of DOUBLE and min/max a segment tree (O(log frame) per row), and
// DISTINCT aggregates slide a hash multiset along the frame, whose bounds
// only move forward. Other aggregates (statistics, regression, bitwise,
// mode/histogram, lists, quantiles) keep one aggregate state fed the rows
// entering the frame: linear for running frames and whole partitions, the
// frame's size per row when its start moves (window_aggregate.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/vector.hpp"
#include "function/window/window_function.hpp"

namespace lakestream {

// The rows sorted by (PARTITION BY keys, ORDER BY keys), ties in input order.
class WindowSort {
 public:
  WindowSort(const std::vector<Vector>& inputs, idx_t count, const BoundWindow& window);

  idx_t Count() const { return order_.size(); }
  // Input row at sorted position `pos`.
  const std::vector<uint32_t>& Order() const { return order_; }
  // Sorted positions where partitions start, then Count().
  const std::vector<uint32_t>& PartitionStarts() const { return partition_starts_; }
  // Peer groups (rows equal on every ORDER BY key within a partition): the
  // first position of the group of position `pos`, and one past its last.
  const std::vector<uint32_t>& PeerBegin();
  const std::vector<uint32_t>& PeerEnd();

 private:
  const std::vector<Vector>& inputs_;
  std::vector<idx_t> order_inputs_;
  std::vector<uint32_t> order_;
  std::vector<uint32_t> partition_starts_;
  std::vector<uint32_t> peer_begin_;
  std::vector<uint32_t> peer_end_;
};

// A key that is equal for two windows that sort the same way (they share a WindowSort).
std::string WindowSortKey(const BoundWindow& window);

// Fills `result` (count rows, indexed by input row) with `window`'s values.
// `check_interrupt` is called every few thousand rows.
void EvaluateWindow(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort, Vector& result,
                    const std::function<void()>& check_interrupt);

}  // namespace lakestream
