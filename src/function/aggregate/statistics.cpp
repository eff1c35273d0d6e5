// stddev/stddev_samp/stddev_pop/variance/var_samp/var_pop over DOUBLE.
//
// Welford's update keeps (count, mean, M2) per group, so a large mean does
// not cancel the small deviations the way sum(x^2) - sum(x)^2 does. The
// sample forms are NULL for fewer than two rows (Spark 3+, DuckDB).
#include <cmath>

#include "common/exception.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

class WelfordState : public AggregateState {
 public:
  explicit WelfordState(AggregateKind kind) : kind_(kind) {}
  void Resize(idx_t n) override {
    counts_.resize(n, 0);
    means_.resize(n, 0);
    m2_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const double* data = input->GetData<double>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!valid[i]) continue;
      uint32_t g = gids[i];
      double n = static_cast<double>(++counts_[g]);
      double delta = data[i] - means_[g];
      means_[g] += delta / n;
      m2_[g] += delta * (data[i] - means_[g]);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<double>();
    bool sample = kind_ == AggregateKind::VAR_SAMP || kind_ == AggregateKind::STDDEV_SAMP;
    bool root = kind_ == AggregateKind::STDDEV_SAMP || kind_ == AggregateKind::STDDEV_POP;
    for (idx_t i = 0; i < count; i++) {
      idx_t g = first + i;
      int64_t n = counts_[g];
      bool valid = sample ? n > 1 : n > 0;
      result.SetValid(i, valid);
      if (!valid) continue;
      double variance = m2_[g] / static_cast<double>(sample ? n - 1 : n);
      // Rounding can leave a tiny negative M2 for equal values.
      if (variance < 0) variance = 0;
      out[i] = root ? std::sqrt(variance) : variance;
    }
  }

 private:
  AggregateKind kind_;
  std::vector<int64_t> counts_;
  std::vector<double> means_;
  std::vector<double> m2_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateStatisticsState(const AggregateSignature& signature) {
  return std::make_unique<WelfordState>(signature.kind);
}

}  // namespace lakestream
