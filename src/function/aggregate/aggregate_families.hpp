// The aggregate states of each family, created by CreateAggregateState
// (aggregate_states.cpp) from a bound signature. Internal to
// src/function/aggregate/; semantics are in docs/sql-aggregates.md.
#pragma once

#include <memory>
#include <vector>

#include "function/aggregate_function.hpp"

namespace lakestream {

// statistics.cpp: VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP, KURTOSIS,
// KURTOSIS_POP, SKEWNESS, PRODUCT, KAHAN_SUM over DOUBLE.
std::unique_ptr<AggregateState> CreateStatisticsState(const AggregateSignature& signature);
// regression.cpp: CORR, COVAR_POP/SAMP, REGR_* over (y DOUBLE, x DOUBLE).
std::unique_ptr<AggregateState> CreateRegressionState(const AggregateSignature& signature);
// bitwise.cpp: BIT_AND, BIT_OR, BIT_XOR over INTEGER or BIGINT.
std::unique_ptr<AggregateState> CreateBitwiseState(const AggregateSignature& signature);
// frequency.cpp: MODE, HISTOGRAM, ENTROPY over any comparable type.
std::unique_ptr<AggregateState> CreateFrequencyState(const AggregateSignature& signature);
// boolean.cpp: BOOL_AND, BOOL_OR, COUNT_IF.
std::unique_ptr<AggregateState> CreateBooleanState(const AggregateSignature& signature);
// quantile.cpp: QUANTILE_CONT, QUANTILE_DISC, PERCENTILE_APPROX.
std::unique_ptr<AggregateState> CreateQuantileState(const AggregateSignature& signature);
// list.cpp: COLLECT_LIST, COLLECT_SET, STRING_AGG.
std::unique_ptr<AggregateState> CreateListState(const AggregateSignature& signature);
// arg_extreme.cpp: MAX_BY, MIN_BY, LAST.
std::unique_ptr<AggregateState> CreateArgExtremeState(const AggregateSignature& signature);
// hyperloglog.cpp: APPROX_COUNT_DISTINCT.
std::unique_ptr<AggregateState> CreateHyperLogLogState(const AggregateSignature& signature);

// Rows of one input column kept per group, in arrival order: the holistic
// aggregates (quantiles, lists) and the ORDER BY wrapper build on it.
class GroupedRows {
 public:
  explicit GroupedRows(const LogicalType& type) : values_(type, 64) {}
  void Resize(idx_t group_count) { rows_.resize(group_count); }
  // Appends rows [0, count) of `input` (all rows, or only the non-NULL ones).
  void Append(const Vector& input, const uint32_t* group_ids, idx_t count, bool skip_nulls);
  // Appends the rows named by `sel` for the groups `group_ids[i]`.
  void AppendSelected(const Vector& input, const sel_t* sel, const uint32_t* group_ids, idx_t count);
  std::vector<uint32_t>& Rows(idx_t group) { return rows_[group]; }
  const Vector& Values() const { return values_; }
  idx_t Size() const { return size_; }

 private:
  Vector values_;
  idx_t size_ = 0;
  std::vector<std::vector<uint32_t>> rows_;
  std::vector<sel_t> sel_;
};

}  // namespace lakestream
