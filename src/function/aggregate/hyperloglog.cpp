// approx_count_distinct(x [, rsd]): HyperLogLog (Flajolet et al. 2007) with
// 2^p one-byte registers per group and a 64-bit hash of each value's key
// encoding, so the answer is the same on every run and platform.
//
// p is the smallest precision whose relative standard error 1.04 / sqrt(2^p)
// is at most the rsd asked for (Spark's rule), but at least 12 (error 1.6%)
// and at most 16 (0.41%); each group is one common/hyperloglog.hpp sketch.
#include <algorithm>
#include <cmath>
#include <string>

#include "common/hyperloglog.hpp"
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
  }
  void Resize(idx_t n) override { groups_.resize(n, HyperLogLog(precision_)); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    std::string key;
    for (idx_t i = 0; i < count; i++) {
      if (!input->IsValid(i)) continue;
      key.clear();
      EncodeKey(*input, i, key);
      groups_[gids[i]].Add(HashBytes(key));
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<int64_t>();
    for (idx_t i = 0; i < count; i++) out[i] = groups_[first + i].Estimate();
    result.SetAllValid(count);
  }

 private:
  int precision_;
  std::vector<HyperLogLog> groups_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateHyperLogLogState(const AggregateSignature& signature) {
  return std::make_unique<HyperLogLogState>(signature.parameter);
}

}  // namespace lakestream
