#include <cmath>
#include <limits>
#include <type_traits>
#include <string>

#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/interval.hpp"
#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"
#include "function/aggregate/distinct_pairs.hpp"
#include "function/aggregate/selected_update.hpp"
#include "function/aggregate/shared_totals.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

namespace {

class CountStarState : public AggregateState, public SelectedUpdate {
 public:
  void Resize(idx_t n) override { counts_.resize(n, 0); }
  void Update(const Vector*, const uint32_t* gids, idx_t count) override {
    for (idx_t i = 0; i < count; i++) counts_[gids[i]]++;
  }
  void UpdateSingle(const Vector*, const uint32_t*, idx_t count) override { counts_[0] += count; }
  void UpdateSelected(const Vector*, const sel_t*, const uint32_t* gids, idx_t count) override {
    CountStarState::Update(nullptr, gids, count);
  }
  void UpdateSingleSelected(const Vector*, const sel_t*, const uint32_t*, idx_t count) override { counts_[0] += count; }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<int64_t>();
    for (idx_t i = 0; i < count; i++) out[i] = counts_[first + i];
    result.SetAllValid(count);
  }
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    auto& from = static_cast<CountStarState&>(other).counts_;
    for (idx_t g = 0; g < count; g++) counts_[targets[g]] += from[CombineSource(sources, g)];
  }

 protected:
  std::vector<int64_t> counts_;
};

class CountState : public CountStarState {
 public:
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override { UpdateRows<false>(input, nullptr, gids, count); }
  void UpdateSelected(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) override {
    UpdateRows<true>(input, sel, gids, count);
  }
  void UpdateSingle(const Vector* input, const uint32_t*, idx_t count) override { UpdateSingleRows<false>(input, nullptr, count); }
  void UpdateSingleSelected(const Vector* input, const sel_t* sel, const uint32_t*, idx_t count) override {
    UpdateSingleRows<true>(input, sel, count);
  }
  // SEL: row i of the update is row sel[i] of `input`.
  template <bool SEL>
  void UpdateRows(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) {
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) counts_[gids[i]] += valid[SEL ? sel[i] : i];
  }
  template <bool SEL>
  void UpdateSingleRows(const Vector* input, const sel_t* sel, idx_t count) {
    const uint8_t* valid = input->Validity();
    int64_t n = 0;
    for (idx_t i = 0; i < count; i++) n += valid[SEL ? sel[i] : i];
    counts_[0] += n;
  }
};

class CountDistinctState : public AggregateState {
 public:
  explicit CountDistinctState(const LogicalType& type) : seen_(type) {}
  void Resize(idx_t n) override { counts_.resize(n, 0); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (valid[i] && seen_.Insert(gids[i], *input, i)) counts_[gids[i]]++;
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<int64_t>();
    for (idx_t i = 0; i < count; i++) out[i] = counts_[first + i];
    result.SetAllValid(count);
  }
  // Merges every pair of `other`: no `sources` (CombinesSelected() is false).
  void Combine(AggregateState& other, const uint32_t* targets, idx_t, const uint32_t*) override {
    seen_.Merge(static_cast<CountDistinctState&>(other).seen_, targets, [&](uint32_t group) { counts_[group]++; });
  }

 private:
  DistinctPairs seen_;
  std::vector<int64_t> counts_;
};

// sum(DISTINCT x), avg(DISTINCT x): the first row of each value in a group
// reaches the wrapped state, later rows with that value are dropped.
class DistinctState : public AggregateState {
 public:
  DistinctState(std::unique_ptr<AggregateState> inner, const LogicalType& type)
      : inner_(std::move(inner)), seen_(type), firsts_(type) {}
  void Resize(idx_t n) override { inner_->Resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    sel_.clear();
    group_ids_.clear();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!valid[i] || !seen_.Insert(gids[i], *input, i)) continue;
      sel_.push_back(static_cast<sel_t>(i));
      group_ids_.push_back(gids[i]);
    }
    if (sel_.empty()) return;
    firsts_.Reset();
    firsts_.Copy(*input, sel_.data(), sel_.size(), 0, 0);
    inner_->Update(&firsts_, group_ids_.data(), sel_.size());
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override { inner_->Finalize(first, count, result); }

 private:
  std::unique_ptr<AggregateState> inner_;
  DistinctPairs seen_;
  Vector firsts_;  // scratch: the rows that reach inner_
  std::vector<sel_t> sel_;
  std::vector<uint32_t> group_ids_;
};

// SUM over BIGINT (inputs widened by the binder) and DECIMAL accumulate in
// 128 bits; overflow is reported when the result type cannot hold the total.
template <class INPUT>
class HugeSumState : public AggregateState, public SelectedUpdate, public SharedTotals {
 public:
  HugeSumState(LogicalType result_type, bool average) : result_type_(std::move(result_type)), average_(average) {}
  bool FinalizeFrom(AggregateState& source) override {
    auto* same = dynamic_cast<HugeSumState*>(&source);
    if (same) totals_ = same;
    return same != nullptr;
  }
  void Resize(idx_t n) override {
    if (totals_ != this) return;
    sums_.resize(n, 0);
    counts_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override { UpdateRows<false>(input, nullptr, gids, count); }
  void UpdateSelected(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) override {
    UpdateRows<true>(input, sel, gids, count);
  }
  void UpdateSingle(const Vector* input, const uint32_t*, idx_t count) override { UpdateSingleRows<false>(input, nullptr, count); }
  void UpdateSingleSelected(const Vector* input, const sel_t* sel, const uint32_t*, idx_t count) override {
    UpdateSingleRows<true>(input, sel, count);
  }
  // SEL: row i of the update is row sel[i] of `input`.
  template <bool SEL>
  void UpdateRows(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) {
    const INPUT* data = input->GetData<INPUT>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      const idx_t r = SEL ? sel[i] : i;
      if (!valid[r]) continue;
      sums_[gids[i]] += static_cast<hugeint_t>(data[r]);
      counts_[gids[i]]++;
    }
  }
  template <bool SEL>
  void UpdateSingleRows(const Vector* input, const sel_t* sel, idx_t count) {
    const INPUT* data = input->GetData<INPUT>();
    const uint8_t* valid = input->Validity();
    hugeint_t sum = 0;
    int64_t n = 0;
    for (idx_t i = 0; i < count; i++) {
      const idx_t r = SEL ? sel[i] : i;
      sum += valid[r] ? static_cast<hugeint_t>(data[r]) : 0;
      n += valid[r];
    }
    sums_[0] += sum;
    counts_[0] += n;
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    const std::vector<hugeint_t>& sums = totals_->sums_;
    const std::vector<int64_t>& counts = totals_->counts_;
    for (idx_t i = 0; i < count; i++) {
      idx_t g = first + i;
      if (counts[g] == 0) {
        result.SetValid(i, false);
        continue;
      }
      result.SetValid(i, true);
      if (average_) {
        result.GetData<double>()[i] = static_cast<double>(sums[g]) / static_cast<double>(counts[g]) / scale_divisor;
      } else if (result_type_.id() == TypeId::BIGINT) {
        if (sums[g] > std::numeric_limits<int64_t>::max() || sums[g] < std::numeric_limits<int64_t>::min()) {
          throw ConversionError("Overflow in sum(): the total " + Decimal::HugeintToString(sums[g]) +
                                " does not fit in BIGINT; cast the argument to DECIMAL(38,0) or DOUBLE");
        }
        result.GetData<int64_t>()[i] = static_cast<int64_t>(sums[g]);
      } else {
        if (!Decimal::FitsWidth(sums[g], result_type_.width())) {
          throw ConversionError("Overflow in sum(): the total does not fit in " + result_type_.ToString());
        }
        result.GetData<hugeint_t>()[i] = sums[g];
      }
    }
  }
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    if (totals_ != this) return;  // the state whose totals this one reads combines them
    // The other table's sum and avg of one argument may share one total
    // (ShareTotals) while this table's do not (a partition table of the
    // parallel merge): read the total the other state finalizes from.
    const HugeSumState& from = *static_cast<HugeSumState&>(other).totals_;
    for (idx_t g = 0; g < count; g++) {
      const uint32_t source = CombineSource(sources, g);
      sums_[targets[g]] += from.sums_[source];
      counts_[targets[g]] += from.counts_[source];
    }
  }
  double scale_divisor = 1.0;

 private:
  LogicalType result_type_;
  bool average_;
  std::vector<hugeint_t> sums_;
  std::vector<int64_t> counts_;
  const HugeSumState* totals_ = this;  // whose sums_ and counts_ Finalize reads
};

class DoubleSumState : public AggregateState, public SelectedUpdate, public SharedTotals {
 public:
  explicit DoubleSumState(bool average) : average_(average) {}
  bool FinalizeFrom(AggregateState& source) override {
    auto* same = dynamic_cast<DoubleSumState*>(&source);
    if (same) totals_ = same;
    return same != nullptr;
  }
  void Resize(idx_t n) override {
    if (totals_ != this) return;
    sums_.resize(n, 0);
    counts_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override { UpdateRows<false>(input, nullptr, gids, count); }
  void UpdateSelected(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) override {
    UpdateRows<true>(input, sel, gids, count);
  }
  void UpdateSingle(const Vector* input, const uint32_t*, idx_t count) override { UpdateSingleRows<false>(input, nullptr, count); }
  void UpdateSingleSelected(const Vector* input, const sel_t* sel, const uint32_t*, idx_t count) override {
    UpdateSingleRows<true>(input, sel, count);
  }
  // SEL: row i of the update is row sel[i] of `input`.
  template <bool SEL>
  void UpdateRows(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) {
    const double* data = input->GetData<double>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      const idx_t r = SEL ? sel[i] : i;
      if (!valid[r]) continue;
      sums_[gids[i]] += data[r];
      counts_[gids[i]]++;
    }
  }
  // Adds in row order, as Update does, so the rounding is the same.
  template <bool SEL>
  void UpdateSingleRows(const Vector* input, const sel_t* sel, idx_t count) {
    const double* data = input->GetData<double>();
    const uint8_t* valid = input->Validity();
    double sum = sums_[0];
    int64_t n = 0;
    for (idx_t i = 0; i < count; i++) {
      const idx_t r = SEL ? sel[i] : i;
      if (!valid[r]) continue;
      sum += data[r];
      n++;
    }
    sums_[0] = sum;
    counts_[0] += n;
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    const std::vector<double>& sums = totals_->sums_;
    const std::vector<int64_t>& counts = totals_->counts_;
    auto* out = result.GetData<double>();
    for (idx_t i = 0; i < count; i++) {
      idx_t g = first + i;
      result.SetValid(i, counts[g] > 0);
      if (counts[g] > 0) out[i] = average_ ? sums[g] / static_cast<double>(counts[g]) : sums[g];
    }
  }

 private:
  bool average_;
  std::vector<double> sums_;
  std::vector<int64_t> counts_;
  const DoubleSumState* totals_ = this;  // whose sums_ and counts_ Finalize reads
};

// MIN / MAX / ANY_VALUE keep the current value per group in a vector of the
// input type; strings are copied into the state's own heap.
template <class T, int MODE>  // MODE: -1 min, +1 max, 0 any_value
class ExtremeState : public AggregateState, public SelectedUpdate {
 public:
  explicit ExtremeState(const LogicalType& type) : values_(type, 1) {}
  void Resize(idx_t n) override {
    values_.Resize(n);
    has_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override { UpdateRows<false>(input, nullptr, gids, count); }
  void UpdateSelected(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) override {
    UpdateRows<true>(input, sel, gids, count);
  }
  void UpdateSingle(const Vector* input, const uint32_t* zero_ids, idx_t count) override {
    UpdateSingleRows<false>(input, nullptr, zero_ids, count);
  }
  void UpdateSingleSelected(const Vector* input, const sel_t* sel, const uint32_t* zero_ids, idx_t count) override {
    UpdateSingleRows<true>(input, sel, zero_ids, count);
  }
  // SEL: row i of the update is row sel[i] of `input`.
  template <bool SEL>
  void UpdateRows(const Vector* input, const sel_t* sel, const uint32_t* gids, idx_t count) {
    const T* data = input->GetData<T>();
    const uint8_t* valid = input->Validity();
    T* state = values_.GetData<T>();
    for (idx_t k = 0; k < count; k++) {
      const idx_t i = SEL ? sel[k] : k;
      if (!valid[i]) continue;
      uint32_t g = gids[k];
      bool take;
      if (!has_[g]) {
        take = true;
      } else if constexpr (MODE < 0) {
        take = Less(data[i], state[g]);
      } else if constexpr (MODE > 0) {
        take = Less(state[g], data[i]);
      } else {
        take = false;
      }
      if (!take) continue;
      has_[g] = 1;
      if constexpr (std::is_same_v<T, string_t>) {
        state[g] = values_.AddString(data[i]);
      } else {
        state[g] = data[i];
      }
    }
  }
  // Finds the chunk's extreme first, so a string is copied at most once per chunk.
  template <bool SEL>
  void UpdateSingleRows(const Vector* input, const sel_t* sel, const uint32_t* zero_ids, idx_t count) {
    if constexpr (MODE == 0) {
      UpdateRows<SEL>(input, sel, zero_ids, count);
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Branch-free so the compiler vectorizes it: a NULL row contributes the
      // identity of the fold (the type's max for MIN, its lowest for MAX).
      const T* data = input->GetData<T>();
      const uint8_t* valid = input->Validity();
      constexpr T kIdentity = MODE < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
      T best = kIdentity;
      uint8_t any = 0;
      for (idx_t k = 0; k < count; k++) {
        const idx_t i = SEL ? sel[k] : k;
        T x = valid[i] ? data[i] : kIdentity;
        best = MODE < 0 ? std::min(best, x) : std::max(best, x);
        any |= valid[i];
      }
      if (!any) return;
      T* state = values_.GetData<T>();
      if (!has_[0] || (MODE < 0 ? best < state[0] : state[0] < best)) state[0] = best;
      has_[0] = 1;
    } else {
      const T* data = input->GetData<T>();
      const uint8_t* valid = input->Validity();
      constexpr idx_t kNone = ~idx_t{0};
      idx_t best = kNone;
      for (idx_t k = 0; k < count; k++) {
        const idx_t i = SEL ? sel[k] : k;
        if (!valid[i]) continue;
        if (best == kNone || (MODE < 0 ? Less(data[i], data[best]) : Less(data[best], data[i]))) best = i;
      }
      if (best == kNone) return;
      T* state = values_.GetData<T>();
      if (has_[0] && !(MODE < 0 ? Less(data[best], state[0]) : Less(state[0], data[best]))) return;
      has_[0] = 1;
      if constexpr (std::is_same_v<T, string_t>) {
        state[0] = values_.AddString(data[best]);
      } else {
        state[0] = data[best];
      }
    }
  }
  // Every candidate goes through Update's comparison: min/max only (any_value is not Combinable).
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    auto& from = static_cast<ExtremeState&>(other);
    Vector one(from.values_.GetType(), 1);
    for (idx_t g = 0; g < count; g++) {
      const uint32_t source = CombineSource(sources, g);
      if (!from.has_[source]) continue;
      one.Copy(from.values_, nullptr, 1, source, 0);
      Update(&one, &targets[g], 1);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    for (idx_t i = 0; i < count; i++) {
      idx_t g = first + i;
      result.SetValid(i, has_[g]);
    }
    result.Copy(values_, nullptr, count, first, 0);
    for (idx_t i = 0; i < count; i++) result.SetValid(i, has_[first + i]);
  }

 private:
  static bool Less(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, double>) {
      if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    }
    return a < b;
  }
  Vector values_;
  std::vector<uint8_t> has_;
};

template <int MODE>
std::unique_ptr<AggregateState> MakeExtreme(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN: return std::make_unique<ExtremeState<bool, MODE>>(type);
    case TypeId::INTEGER:
    case TypeId::DATE: return std::make_unique<ExtremeState<int32_t, MODE>>(type);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return std::make_unique<ExtremeState<int64_t, MODE>>(type);
    case TypeId::DOUBLE: return std::make_unique<ExtremeState<double, MODE>>(type);
    case TypeId::DECIMAL: return std::make_unique<ExtremeState<hugeint_t, MODE>>(type);
    case TypeId::VARCHAR: return std::make_unique<ExtremeState<string_t, MODE>>(type);
    case TypeId::INTERVAL: return std::make_unique<ExtremeState<interval_t, MODE>>(type);
    default: throw NotImplementedError("min/max/any_value over " + type.ToString());
  }
}

}  // namespace

void AggregateState::Combine(AggregateState&, const uint32_t*, idx_t, const uint32_t*) {
  throw InternalError("an aggregate that cannot be combined was run on several threads");
}

bool AggregateSignature::Combinable() const {
  if (distinct) return false;
  switch (kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
    case AggregateKind::MIN:
    case AggregateKind::MAX:
    case AggregateKind::COUNT_DISTINCT:
    case AggregateKind::BOOL_AND:
    case AggregateKind::BOOL_OR:
    case AggregateKind::COUNT_IF:
    case AggregateKind::BIT_AND:
    case AggregateKind::BIT_OR:
    case AggregateKind::BIT_XOR:
    case AggregateKind::HISTOGRAM:
    case AggregateKind::ENTROPY: return true;
    case AggregateKind::SUM:
    case AggregateKind::AVG: return input_type.id() != TypeId::DOUBLE;
    default: return false;
  }
}

void AggregateState::UpdateBinary(const Vector*, const Vector*, const uint32_t*, idx_t) {
  throw InternalError("an aggregate of one argument was given two");
}


std::unique_ptr<AggregateState> CreateAggregateState(const AggregateSignature& sig) {
  if (sig.distinct) {
    AggregateSignature plain = sig;
    plain.distinct = false;
    return std::make_unique<DistinctState>(CreateAggregateState(plain), sig.input_type);
  }
  switch (sig.kind) {
    case AggregateKind::COUNT_STAR: return std::make_unique<CountStarState>();
    case AggregateKind::COUNT: return std::make_unique<CountState>();
    case AggregateKind::COUNT_DISTINCT: return std::make_unique<CountDistinctState>(sig.input_type);
    case AggregateKind::SUM:
    case AggregateKind::AVG: {
      bool average = sig.kind == AggregateKind::AVG;
      if (sig.input_type.id() == TypeId::DOUBLE) return std::make_unique<DoubleSumState>(average);
      if (sig.input_type.id() == TypeId::DECIMAL) {
        auto state = std::make_unique<HugeSumState<hugeint_t>>(sig.return_type, average);
        state->scale_divisor = static_cast<double>(Decimal::PowerOfTen(sig.input_type.scale()));
        return state;
      }
      return std::make_unique<HugeSumState<int64_t>>(sig.return_type, average);
    }
    case AggregateKind::MIN: return MakeExtreme<-1>(sig.input_type);
    case AggregateKind::MAX: return MakeExtreme<1>(sig.input_type);
    case AggregateKind::ANY_VALUE: return MakeExtreme<0>(sig.input_type);
    case AggregateKind::GROUPING: return MakeExtreme<0>(TypeId::BIGINT);
    case AggregateKind::VAR_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::STDDEV_POP: return CreateStatisticsState(sig);
    case AggregateKind::BOOL_AND:
    case AggregateKind::BOOL_OR:
    case AggregateKind::COUNT_IF: return CreateBooleanState(sig);
    case AggregateKind::QUANTILE_CONT:
    case AggregateKind::QUANTILE_DISC:
    case AggregateKind::PERCENTILE_APPROX: return CreateQuantileState(sig);
    case AggregateKind::COLLECT_LIST:
    case AggregateKind::COLLECT_SET:
    case AggregateKind::STRING_AGG: return CreateListState(sig);
    case AggregateKind::MAX_BY:
    case AggregateKind::MIN_BY:
    case AggregateKind::LAST: return CreateArgExtremeState(sig);
    case AggregateKind::APPROX_COUNT_DISTINCT: return CreateHyperLogLogState(sig);
    case AggregateKind::KURTOSIS:
    case AggregateKind::KURTOSIS_POP:
    case AggregateKind::SKEWNESS:
    case AggregateKind::PRODUCT:
    case AggregateKind::KAHAN_SUM: return CreateStatisticsState(sig);
    case AggregateKind::CORR:
    case AggregateKind::COVAR_POP:
    case AggregateKind::COVAR_SAMP:
    case AggregateKind::REGR_SLOPE:
    case AggregateKind::REGR_INTERCEPT:
    case AggregateKind::REGR_R2:
    case AggregateKind::REGR_COUNT:
    case AggregateKind::REGR_AVGX:
    case AggregateKind::REGR_AVGY:
    case AggregateKind::REGR_SXX:
    case AggregateKind::REGR_SYY:
    case AggregateKind::REGR_SXY: return CreateRegressionState(sig);
    case AggregateKind::BIT_AND:
    case AggregateKind::BIT_OR:
    case AggregateKind::BIT_XOR: return CreateBitwiseState(sig);
    case AggregateKind::MODE:
    case AggregateKind::HISTOGRAM:
    case AggregateKind::ENTROPY: return CreateFrequencyState(sig);
  }
  throw InternalError("unknown aggregate kind");
}

}  // namespace lakestream
