// approx_count_distinct(x [, rsd]): HyperLogLog (Flajolet et al. 2007) with
// 2^p one-byte registers per group and a 64-bit hash of each value's key
// encoding, so the answer is the same on every run and platform.
//
// p is the smallest precision whose relative standard error 1.04 / sqrt(2^p)
// is at most the rsd asked for (Spark's rule), but at least 12 (error 1.6%)
// and at most 16 (0.41%). A group holds its exact hashes until it has 2^p / 16
// of them, so small groups are exact and cost little memory; then it
// switches to registers, with linear counting for the low range.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

uint64_t HashBytes(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return MixHash(h);
}

class HyperLogLogState : public AggregateState {
 public:
  explicit HyperLogLogState(double rsd) {
    double wanted = std::ceil(2.0 * std::log2(1.04 / rsd));
    precision_ = static_cast<int>(std::clamp(wanted, 12.0, 16.0));
    registers_count_ = idx_t(1) << precision_;
  }
  void Resize(idx_t n) override { groups_.resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    std::string key;
    for (idx_t i = 0; i < count; i++) {
      if (!input->IsValid(i)) continue;
      key.clear();
      EncodeKey(*input, i, key);
      Add(groups_[gids[i]], HashBytes(key));
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<int64_t>();
    for (idx_t i = 0; i < count; i++) out[i] = Estimate(groups_[first + i]);
    result.SetAllValid(count);
  }

 private:
  struct Group {
    std::vector<uint64_t> exact;      // sorted distinct hashes, while small
    std::vector<uint8_t> registers;  // empty until the group switches
  };

  void AddToRegisters(Group& g, uint64_t hash) const {
    idx_t index = hash >> (64 - precision_);
    uint64_t rest = hash << precision_;
    auto rank = static_cast<uint8_t>(rest == 0 ? 64 - precision_ + 1 : std::countl_zero(rest) + 1);
    g.registers[index] = std::max(g.registers[index], rank);
  }

  void Add(Group& g, uint64_t hash) {
    if (!g.registers.empty()) {
      AddToRegisters(g, hash);
      return;
    }
    auto it = std::lower_bound(g.exact.begin(), g.exact.end(), hash);
    if (it != g.exact.end() && *it == hash) return;
    g.exact.insert(it, hash);
    if (g.exact.size() <= registers_count_ / 16) return;
    g.registers.assign(registers_count_, 0);
    for (uint64_t h : g.exact) AddToRegisters(g, h);
    std::vector<uint64_t>().swap(g.exact);
  }

  int64_t Estimate(const Group& g) const {
    if (g.registers.empty()) return static_cast<int64_t>(g.exact.size());
    auto m = static_cast<double>(registers_count_);
    double sum = 0;
    idx_t zeros = 0;
    for (uint8_t r : g.registers) {
      sum += std::ldexp(1.0, -r);
      zeros += r == 0;
    }
    double alpha = 0.7213 / (1.0 + 1.079 / m);
    double estimate = alpha * m * m / sum;
    if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / static_cast<double>(zeros));
    return std::llround(estimate);
  }

  int precision_;
  idx_t registers_count_;
  std::vector<Group> groups_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateHyperLogLogState(const AggregateSignature& signature) {
  return std::make_unique<HyperLogLogState>(signature.parameter);
}

}  // namespace lakestream
