// corr, covar_pop, covar_samp and the regr_* family over (y, x), both
// DOUBLE, as DuckDB and Postgres define them: only rows where both y and x
// are non-NULL count.
//
// One state serves all of them: per group the row count, the sums of x and
// y, Welford running means and second moments of x and of y, and the
// co-moment sum((x - mean x) * (y - mean y)), updated the way DuckDB's are
// so the answers round as DuckDB's do. Results for a group without rows are
// NULL, except regr_count (0). Constant x gives regr_slope NaN (0 / 0) and
// regr_r2 NULL; constant y gives regr_r2 1; corr of a constant is NaN.
#include <cmath>

#include "common/exception.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

class RegressionState : public AggregateState {
 public:
  explicit RegressionState(AggregateKind kind) : kind_(kind) {}
  void Resize(idx_t n) override { moments_.resize(n); }
  void Update(const Vector*, const uint32_t*, idx_t) override {
    throw InternalError("a two-argument regression aggregate was given one argument");
  }
  void UpdateBinary(const Vector* input, const Vector* second, const uint32_t* gids, idx_t count) override {
    const double* ys = input->GetData<double>();
    const double* xs = second->GetData<double>();
    const uint8_t* y_valid = input->Validity();
    const uint8_t* x_valid = second->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!y_valid[i] || !x_valid[i]) continue;
      Moments& m = moments_[gids[i]];
      double x = xs[i], y = ys[i];
      auto n = static_cast<double>(++m.count);
      m.sum_x += x;
      m.sum_y += y;
      // Co-moment: the x deviation from the old mean times the y deviation
      // from the new one.
      double dx = x - m.cov_mean_x;
      double cov_mean_y = m.cov_mean_y + (y - m.cov_mean_y) / n;
      m.co_moment += dx * (y - cov_mean_y);
      m.cov_mean_x += dx / n;
      m.cov_mean_y = cov_mean_y;
      Welford(m.mean_x, m.m2_x, x, n);
      Welford(m.mean_y, m.m2_y, y, n);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    if (kind_ == AggregateKind::REGR_COUNT) {
      auto* out = result.GetData<int64_t>();
      for (idx_t i = 0; i < count; i++) out[i] = moments_[first + i].count;
      result.SetAllValid(count);
      return;
    }
    auto* out = result.GetData<double>();
    for (idx_t i = 0; i < count; i++) {
      double value = 0;
      bool valid = Result(moments_[first + i], value);
      result.SetValid(i, valid);
      if (valid) out[i] = value;
    }
  }

 private:
  struct Moments {
    int64_t count = 0;
    double sum_x = 0, sum_y = 0;
    double cov_mean_x = 0, cov_mean_y = 0, co_moment = 0;
    double mean_x = 0, m2_x = 0, mean_y = 0, m2_y = 0;
  };
  static void Welford(double& mean, double& m2, double v, double n) {
    double next = mean + (v - mean) / n;
    m2 += (v - next) * (v - mean);
    mean = next;
  }
  static double PopulationVariance(double m2, int64_t n) { return n > 1 ? m2 / static_cast<double>(n) : 0; }
  static double Corr(const Moments& m) {
    double cov = m.co_moment / static_cast<double>(m.count);
    double sx = m.count > 1 ? std::sqrt(m.m2_x / static_cast<double>(m.count)) : 0;
    double sy = m.count > 1 ? std::sqrt(m.m2_y / static_cast<double>(m.count)) : 0;
    return cov / (sx * sy);
  }
  static double Slope(const Moments& m) {
    return m.co_moment / static_cast<double>(m.count) / PopulationVariance(m.m2_x, m.count);
  }
  bool Result(const Moments& m, double& out) const {
    if (m.count == 0) return false;
    auto n = static_cast<double>(m.count);
    switch (kind_) {
      case AggregateKind::CORR: out = Corr(m); return true;
      case AggregateKind::COVAR_POP: out = m.co_moment / n; return true;
      case AggregateKind::COVAR_SAMP:
        if (m.count < 2) return false;
        out = m.co_moment / (n - 1);
        return true;
      case AggregateKind::REGR_SLOPE: out = Slope(m); return true;
      case AggregateKind::REGR_INTERCEPT: out = m.sum_y / n - Slope(m) * (m.sum_x / n); return true;
      case AggregateKind::REGR_R2: {
        if (PopulationVariance(m.m2_x, m.count) == 0) return false;
        if (PopulationVariance(m.m2_y, m.count) == 0) {
          out = 1;
          return true;
        }
        double r = Corr(m);
        out = r * r;
        return true;
      }
      case AggregateKind::REGR_AVGX: out = m.sum_x / n; return true;
      case AggregateKind::REGR_AVGY: out = m.sum_y / n; return true;
      case AggregateKind::REGR_SXX: out = PopulationVariance(m.m2_x, m.count) * n; return true;
      case AggregateKind::REGR_SYY: out = PopulationVariance(m.m2_y, m.count) * n; return true;
      case AggregateKind::REGR_SXY: out = m.co_moment / n * n; return true;
      default: throw InternalError("not a regression aggregate");
    }
  }

  AggregateKind kind_;
  std::vector<Moments> moments_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateRegressionState(const AggregateSignature& signature) {
  return std::make_unique<RegressionState>(signature.kind);
}

}  // namespace lakestream
