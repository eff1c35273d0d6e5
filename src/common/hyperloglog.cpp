#include "common/hyperloglog.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace lakestream {

HyperLogLog::HyperLogLog(int precision) : precision_(precision), registers_count_(idx_t(1) << precision) {}

void HyperLogLog::AddToRegisters(uint64_t hash) {
  idx_t index = hash >> (64 - precision_);
  uint64_t rest = hash << precision_;
  auto rank = static_cast<uint8_t>(rest == 0 ? 64 - precision_ + 1 : std::countl_zero(rest) + 1);
  registers_[index] = std::max(registers_[index], rank);
}

void HyperLogLog::Add(uint64_t hash) {
  if (!registers_.empty()) {
    AddToRegisters(hash);
    return;
  }
  auto it = std::lower_bound(exact_.begin(), exact_.end(), hash);
  if (it != exact_.end() && *it == hash) return;
  exact_.insert(it, hash);
  if (exact_.size() <= registers_count_ / 16) return;
  registers_.assign(registers_count_, 0);
  for (uint64_t h : exact_) AddToRegisters(h);
  std::vector<uint64_t>().swap(exact_);
}

int64_t HyperLogLog::Estimate() const {
  if (registers_.empty()) return static_cast<int64_t>(exact_.size());
  auto m = static_cast<double>(registers_count_);
  double sum = 0;
  idx_t zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  double alpha = 0.7213 / (1.0 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / static_cast<double>(zeros));
  return std::llround(estimate);
}

}  // namespace lakestream
