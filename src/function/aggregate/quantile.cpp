// median, quantile_cont/percentile_cont/percentile, quantile_disc/
// percentile_disc, percentile_approx/approx_percentile.
//
// Holistic: each group keeps its non-NULL values (GroupedRows) and selects
// the order statistics at the end (nth_element, linear on average).
//  * continuous: position p * (n - 1), interpolated between its neighbours
//    (DOUBLE result; Spark's percentile and DuckDB's quantile_cont agree);
//  * discrete: the value at 1-based rank max(1, ceil(p * n)), the first whose
//    cumulative distribution reaches p (Spark 3.5+, Postgres, DuckDB);
//  * percentile_approx: Spark's definition, the smallest value with at least
//    p of the values at or below it, i.e. the discrete rank, in the value's
//    own type. It is computed exactly (error 0, inside any accuracy asked
//    for), at the memory cost of the values themselves.
// A group without non-NULL values gives NULL.
#include <algorithm>
#include <cmath>

#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

class QuantileState : public AggregateState {
 public:
  explicit QuantileState(const AggregateSignature& signature)
      : continuous_(signature.kind == AggregateKind::QUANTILE_CONT),
        descending_(signature.descending),
        fraction_(signature.parameter),
        rows_(signature.input_type),
        compare_(GetRowCompareFunction(signature.input_type)) {}
  void Resize(idx_t n) override { rows_.Resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    rows_.Append(*input, gids, count, true);
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    const Vector& values = rows_.Values();
    auto less = [&](uint32_t a, uint32_t b) { return compare_(values, a, values, b) < 0; };
    for (idx_t i = 0; i < count; i++) {
      auto& group = rows_.Rows(first + i);
      idx_t n = group.size();
      if (n == 0) {
        result.SetValid(i, false);
        continue;
      }
      if (continuous_) {
        double position = (descending_ ? 1 - fraction_ : fraction_) * static_cast<double>(n - 1);
        auto lower = static_cast<idx_t>(std::floor(position));
        std::nth_element(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(lower), group.end(), less);
        const double* data = values.GetData<double>();
        double low = data[group[lower]];
        double value = low;
        if (static_cast<double>(lower) < position) {
          double high = data[*std::min_element(group.begin() + static_cast<std::ptrdiff_t>(lower) + 1, group.end(), less)];
          value = low + (position - static_cast<double>(lower)) * (high - low);
        }
        result.GetData<double>()[i] = value;
        result.SetValid(i, true);
        continue;
      }
      auto rank = static_cast<idx_t>(std::ceil(fraction_ * static_cast<double>(n)));
      rank = std::clamp<idx_t>(rank, 1, n);
      idx_t index = descending_ ? n - rank : rank - 1;
      std::nth_element(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(index), group.end(), less);
      sel_t row = group[index];
      result.Copy(values, &row, 1, 0, i);
    }
  }

 private:
  bool continuous_;
  bool descending_;  // WITHIN GROUP (ORDER BY x DESC): ranks count from the largest
  double fraction_;
  GroupedRows rows_;
  row_compare_t compare_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateQuantileState(const AggregateSignature& signature) {
  return std::make_unique<QuantileState>(signature);
}

}  // namespace lakestream
