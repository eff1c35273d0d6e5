// A HyperLogLog sketch (Flajolet et al. 2007) of 64-bit hashes: an estimate
// of how many distinct values were added, in 2^precision one-byte registers.
// It holds the exact hashes until it has 2^precision / 16 of them, so a
// small set is counted exactly; then it switches to registers, with linear
// counting for the low range. Relative standard error 1.04 / sqrt(2^p).
// Used by approx_count_distinct and by the planner's distinct-value
// statistics of a table (storage/in_memory_table.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

class HyperLogLog {
 public:
  // precision: 4 to 18.
  explicit HyperLogLog(int precision = 12);
  // `hash` must be well mixed in its high bits (MixHash of a weak hash).
  void Add(uint64_t hash);
  int64_t Estimate() const;

 private:
  void AddToRegisters(uint64_t hash);

  int precision_;
  idx_t registers_count_;
  std::vector<uint64_t> exact_;     // sorted distinct hashes, while small
  std::vector<uint8_t> registers_;  // empty until the sketch switches
};

}  // namespace lakestream
