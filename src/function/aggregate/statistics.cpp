// stddev/stddev_samp/stddev_pop/variance/var_samp/var_pop, and DuckDB's
// kurtosis/kurtosis_pop/skewness, product and fsum/sumkahan, over DOUBLE.
//
// Welford's update keeps (count, mean, M2) per group, so a large mean does
// not cancel the small deviations the way sum(x^2) - sum(x)^2 does. The
// sample forms are NULL for fewer than two rows (Spark 3+, DuckDB).
//
// The higher moments are computed from power sums, the way DuckDB does, so
// the answers (rounding included) are DuckDB's: kurtosis (sample, excess) is
// NULL below four rows, kurtosis_pop below two, skewness below three; all
// three are NULL when the values do not vary (skewness: NaN, as DuckDB).
// product is NULL for a group without values; fsum adds with Kahan's
// compensation, so 1e20 + 1 - 1e20 gives 0 exactly as DuckDB's fsum does.
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

// Power sums for kurtosis, kurtosis_pop and skewness.
class MomentState : public AggregateState {
 public:
  explicit MomentState(AggregateKind kind) : kind_(kind) {}
  void Resize(idx_t n) override { sums_.resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const double* data = input->GetData<double>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!valid[i]) continue;
      Sums& s = sums_[gids[i]];
      double x = data[i];
      s.n++;
      s.sum += x;
      s.sum2 += std::pow(x, 2);
      s.sum3 += std::pow(x, 3);
      s.sum4 += std::pow(x, 4);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<double>();
    for (idx_t i = 0; i < count; i++) {
      double value = 0;
      bool valid = kind_ == AggregateKind::SKEWNESS ? Skewness(sums_[first + i], value) : Kurtosis(sums_[first + i], value);
      result.SetValid(i, valid);
      if (valid) out[i] = value;
    }
  }

 private:
  struct Sums {
    int64_t n = 0;
    double sum = 0, sum2 = 0, sum3 = 0, sum4 = 0;
  };
  bool Kurtosis(const Sums& s, double& out) const {
    bool sample = kind_ == AggregateKind::KURTOSIS;
    auto n = static_cast<double>(s.n);
    if (s.n <= 1 || (sample && s.n <= 3)) return false;
    double inv = 1 / n;
    double spread = s.sum2 - s.sum * s.sum * inv;
    if (spread == 0) return false;
    double m4 = inv * (s.sum4 - 4 * s.sum3 * s.sum * inv + 6 * s.sum2 * s.sum * s.sum * inv * inv -
                       3 * std::pow(s.sum, 4) * std::pow(inv, 3));
    double m2 = inv * spread;
    if (m2 <= 0) return false;
    out = sample ? (n - 1) * ((n + 1) * m4 / (m2 * m2) - 3 * (n - 1)) / ((n - 2) * (n - 3)) : m4 / (m2 * m2) - 3;
    if (!std::isfinite(out)) throw ConversionError("kurtosis(): the result is out of range of DOUBLE");
    return true;
  }
  static bool Skewness(const Sums& s, double& out) {
    if (s.n <= 2) return false;
    auto n = static_cast<double>(s.n);
    double inv = 1 / n;
    double p = std::pow(inv * (s.sum2 - s.sum * s.sum * inv), 3);
    if (p < 0) return false;
    double div = std::sqrt(p);
    if (div == 0) {
      out = std::nan("");
      return true;
    }
    double scale = std::sqrt(n * (n - 1)) / (n - 2);
    out = scale * inv * (s.sum3 - 3 * s.sum2 * s.sum * inv + 2 * std::pow(s.sum, 3) * inv * inv) / div;
    if (!std::isfinite(out)) throw ConversionError("skewness(): the result is out of range of DOUBLE");
    return true;
  }

  AggregateKind kind_;
  std::vector<Sums> sums_;
};

// product(x) and fsum(x) (Kahan-compensated sum).
class FoldState : public AggregateState {
 public:
  explicit FoldState(bool product) : product_(product) {}
  void Resize(idx_t n) override {
    values_.resize(n, product_ ? 1.0 : 0.0);
    errors_.resize(n, 0);
    has_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const double* data = input->GetData<double>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!valid[i]) continue;
      uint32_t g = gids[i];
      has_[g] = 1;
      if (product_) {
        values_[g] *= data[i];
        continue;
      }
      double corrected = data[i] - errors_[g];
      double total = values_[g] + corrected;
      errors_[g] = (total - values_[g]) - corrected;
      values_[g] = total;
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<double>();
    for (idx_t i = 0; i < count; i++) {
      result.SetValid(i, has_[first + i] != 0);
      out[i] = values_[first + i];
    }
  }

 private:
  bool product_;
  std::vector<double> values_;
  std::vector<double> errors_;  // Kahan: the low-order part lost by the last addition, negated
  std::vector<uint8_t> has_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateStatisticsState(const AggregateSignature& signature) {
  switch (signature.kind) {
    case AggregateKind::KURTOSIS:
    case AggregateKind::KURTOSIS_POP:
    case AggregateKind::SKEWNESS: return std::make_unique<MomentState>(signature.kind);
    case AggregateKind::PRODUCT: return std::make_unique<FoldState>(true);
    case AggregateKind::KAHAN_SUM: return std::make_unique<FoldState>(false);
    default: return std::make_unique<WelfordState>(signature.kind);
  }
}

}  // namespace lakestream
