// Aggregates over window frames (see window_executor.hpp for the costs).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/vector_operations.hpp"
#include "function/window/window_internal.hpp"

namespace lakestream {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Writes a sum (or average) of `count` values totalling `sum` to result[row],
// as the hash aggregate would (same result types, same overflow errors).
class SumWriter {
 public:
  SumWriter(const AggregateSignature& signature, Vector& result) : signature_(signature), result_(result) {
    if (signature.input_type.id() == TypeId::DECIMAL) scale_ = std::pow(10.0, signature.input_type.scale());
  }
  void Write(uint32_t row, hugeint_t sum, int64_t count) {
    if (count == 0) {
      result_.SetValid(row, false);
      return;
    }
    if (signature_.kind == AggregateKind::AVG) {
      result_.GetData<double>()[row] = static_cast<double>(sum) / static_cast<double>(count) / scale_;
    } else if (signature_.return_type.id() == TypeId::BIGINT) {
      if (sum > std::numeric_limits<int64_t>::max() || sum < std::numeric_limits<int64_t>::min()) {
        throw ConversionError("Overflow in sum() OVER (...): the total " + Decimal::HugeintToString(sum) +
                              " does not fit in BIGINT; cast the argument to DECIMAL(38,0) or DOUBLE");
      }
      result_.GetData<int64_t>()[row] = static_cast<int64_t>(sum);
    } else {
      if (!Decimal::FitsWidth(sum, signature_.return_type.width())) {
        throw ConversionError("Overflow in sum() OVER (...): the total does not fit in " + signature_.return_type.ToString());
      }
      result_.GetData<hugeint_t>()[row] = sum;
    }
  }
  void WriteDouble(uint32_t row, double sum, int64_t count) {
    if (count == 0) {
      result_.SetValid(row, false);
      return;
    }
    result_.GetData<double>()[row] = signature_.kind == AggregateKind::AVG ? sum / static_cast<double>(count) : sum;
  }

 private:
  const AggregateSignature& signature_;
  Vector& result_;
  double scale_ = 1.0;
};

hugeint_t ExactValue(const Vector& v, uint32_t row) {
  return v.GetType().id() == TypeId::DECIMAL ? v.GetData<hugeint_t>()[row] : static_cast<hugeint_t>(v.GetData<int64_t>()[row]);
}

// A bottom-up segment tree over sorted positions [0, n): Query(l, r) folds
// the leaves of [l, r) with `combine` in O(log n). `combine` must be
// commutative and associative (sums, min, max).
template <class T, class Combine>
class SegmentTree {
 public:
  SegmentTree(std::vector<T> leaves, T identity, Combine combine)
      : n_(leaves.size()), identity_(identity), combine_(combine), tree_(2 * leaves.size(), identity) {
    std::copy(leaves.begin(), leaves.end(), tree_.begin() + static_cast<std::ptrdiff_t>(n_));
    for (idx_t i = n_; i-- > 1;) tree_[i] = combine_(tree_[2 * i], tree_[2 * i + 1]);
  }
  T Query(idx_t l, idx_t r) const {
    T acc = identity_;
    for (l += n_, r += n_; l < r; l /= 2, r /= 2) {
      if (l & 1) acc = combine_(acc, tree_[l++]);
      if (r & 1) acc = combine_(acc, tree_[--r]);
    }
    return acc;
  }

 private:
  idx_t n_;
  T identity_;
  Combine combine_;
  std::vector<T> tree_;
};

// count/sum/avg(DISTINCT x): a multiset of the frame's values, moved along
// with the frame (restarted when a frame starts before the previous one).
void EvaluateDistinct(const BoundWindow& window, const Vector& value, const std::vector<uint32_t>& order,
                      const std::vector<uint32_t>& begin, const std::vector<uint32_t>& end, Vector& result,
                      const std::function<void()>& check_interrupt) {
  const AggregateSignature& sig = window.aggregate;
  bool floating = sig.input_type.id() == TypeId::DOUBLE;
  SumWriter writer(sig, result);
  std::unordered_map<std::string, uint32_t> counts;
  std::string key;
  hugeint_t sum = 0;
  double dsum = 0;
  uint32_t cb = 0, ce = 0;
  auto add = [&](uint32_t pos, int delta) {
    uint32_t row = order[pos];
    if (!value.IsValid(row)) return;
    key.clear();
    EncodeKey(value, row, key);
    uint32_t& c = counts[key];
    bool changes = delta > 0 ? c == 0 : c == 1;
    c += delta;
    if (c == 0) counts.erase(key);
    if (!changes || sig.kind == AggregateKind::COUNT_DISTINCT) return;
    if (floating) {
      dsum += delta * value.GetData<double>()[row];
    } else {
      sum += delta * ExactValue(value, row);
    }
  };
  for (idx_t pos = 0; pos < order.size(); pos++) {
    if (pos % STANDARD_VECTOR_SIZE == 0) check_interrupt();
    uint32_t b = begin[pos], e = end[pos];
    if (b < cb || e < ce || b >= ce) {
      counts.clear();
      sum = 0;
      dsum = 0;
      cb = ce = b;
    }
    while (ce < e) add(ce++, 1);
    while (cb < b) add(cb++, -1);
    uint32_t row = order[pos];
    auto distinct = static_cast<int64_t>(counts.size());
    if (sig.kind == AggregateKind::COUNT_DISTINCT) {
      result.GetData<int64_t>()[row] = distinct;
    } else if (floating) {
      writer.WriteDouble(row, dsum, distinct);
    } else {
      writer.Write(row, sum, distinct);
    }
  }
}

// Every other aggregate (statistics, regression, bitwise, frequency, lists,
// quantiles, ...): one aggregate state holds the frame, fed the rows that
// enter it in the window's order; when a frame starts elsewhere than the
// previous one, or ends before it, the state is rebuilt from the frame's rows.
// Running frames (UNBOUNDED PRECEDING to the current row) and whole
// partitions cost O(n) updates; a frame whose start moves costs its size per
// row.
void EvaluateByState(const BoundWindow& window, const std::vector<Vector>& inputs, const std::vector<uint32_t>& order,
                     const std::vector<uint32_t>& begin, const std::vector<uint32_t>& end, Vector& result,
                     const std::function<void()>& check_interrupt) {
  const AggregateSignature& sig = window.aggregate;
  const Vector& value = inputs[window.arguments[0]];
  const Vector* second = sig.second_type.id() != TypeId::INVALID ? &inputs[window.arguments[1]] : nullptr;
  Vector batch(value.GetType(), STANDARD_VECTOR_SIZE);
  std::unique_ptr<Vector> second_batch;
  if (second) second_batch = std::make_unique<Vector>(second->GetType(), STANDARD_VECTOR_SIZE);
  Vector one(sig.return_type, 1);
  std::vector<uint32_t> zeros(STANDARD_VECTOR_SIZE, 0);
  std::vector<sel_t> sel;
  std::unique_ptr<AggregateState> state;
  uint32_t cb = 0, ce = 0;
  auto feed = [&](uint32_t from, uint32_t to) {
    while (from < to) {
      auto k = static_cast<uint32_t>(std::min<idx_t>(to - from, STANDARD_VECTOR_SIZE));
      sel.assign(order.begin() + from, order.begin() + from + k);
      batch.Reset();
      batch.Copy(value, sel.data(), k, 0, 0);
      if (second) {
        second_batch->Reset();
        second_batch->Copy(*second, sel.data(), k, 0, 0);
        state->UpdateBinary(&batch, second_batch.get(), zeros.data(), k);
      } else {
        state->Update(&batch, zeros.data(), k);
      }
      from += k;
    }
  };
  for (idx_t pos = 0; pos < order.size(); pos++) {
    if (pos % STANDARD_VECTOR_SIZE == 0) check_interrupt();
    uint32_t b = begin[pos], e = end[pos];
    if (!state || b != cb || e < ce) {
      state = CreateAggregateState(sig);
      state->Resize(1);
      cb = ce = b;
    }
    feed(ce, e);
    ce = std::max(ce, e);
    one.Reset();
    state->Finalize(0, 1, one);
    result.Copy(one, nullptr, 1, 0, order[pos]);
  }
}

}  // namespace

void EvaluateWindowAggregate(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort,
                             Vector& result, const std::function<void()>& check_interrupt) {
  std::vector<uint32_t> begin, end;
  ComputeFrames(window, inputs, sort, begin, end);
  check_interrupt();
  const AggregateSignature& sig = window.aggregate;
  const auto& order = sort.Order();
  idx_t n = order.size();
  if (sig.kind == AggregateKind::COUNT_STAR) {
    for (idx_t pos = 0; pos < n; pos++) result.GetData<int64_t>()[order[pos]] = end[pos] - begin[pos];
    return;
  }
  const Vector& value = inputs[window.arguments[0]];
  bool dedicated = sig.kind == AggregateKind::COUNT || sig.kind == AggregateKind::SUM || sig.kind == AggregateKind::AVG ||
                   sig.kind == AggregateKind::MIN || sig.kind == AggregateKind::MAX ||
                   sig.kind == AggregateKind::COUNT_DISTINCT;
  if (!dedicated || (sig.distinct && sig.kind != AggregateKind::SUM && sig.kind != AggregateKind::AVG)) {
    EvaluateByState(window, inputs, order, begin, end, result, check_interrupt);
    return;
  }
  if (sig.kind == AggregateKind::COUNT_DISTINCT || sig.distinct) {
    EvaluateDistinct(window, value, order, begin, end, result, check_interrupt);
    return;
  }
  // Non-NULL values before each position: count() and the divisor of avg().
  std::vector<int64_t> valid(n + 1, 0);
  for (idx_t pos = 0; pos < n; pos++) valid[pos + 1] = valid[pos] + (value.IsValid(order[pos]) ? 1 : 0);
  auto count_in = [&](idx_t pos) { return valid[end[pos]] - valid[begin[pos]]; };
  switch (sig.kind) {
    case AggregateKind::COUNT:
      for (idx_t pos = 0; pos < n; pos++) result.GetData<int64_t>()[order[pos]] = count_in(pos);
      return;
    case AggregateKind::SUM:
    case AggregateKind::AVG: {
      SumWriter writer(sig, result);
      if (sig.input_type.id() == TypeId::DOUBLE) {
        std::vector<double> leaves(n, 0.0);
        for (idx_t pos = 0; pos < n; pos++) {
          if (value.IsValid(order[pos])) leaves[pos] = value.GetData<double>()[order[pos]];
        }
        SegmentTree tree(std::move(leaves), 0.0, [](double a, double b) { return a + b; });
        for (idx_t pos = 0; pos < n; pos++) {
          if (pos % STANDARD_VECTOR_SIZE == 0) check_interrupt();
          writer.WriteDouble(order[pos], tree.Query(begin[pos], end[pos]), count_in(pos));
        }
        return;
      }
      // Integers and decimals: exact 128-bit prefix sums, O(1) per frame.
      std::vector<hugeint_t> prefix(n + 1, 0);
      for (idx_t pos = 0; pos < n; pos++) {
        prefix[pos + 1] = prefix[pos] + (value.IsValid(order[pos]) ? ExactValue(value, order[pos]) : 0);
      }
      for (idx_t pos = 0; pos < n; pos++) writer.Write(order[pos], prefix[end[pos]] - prefix[begin[pos]], count_in(pos));
      return;
    }
    case AggregateKind::MIN:
    case AggregateKind::MAX: {
      // The tree holds positions; kNone (a NULL or an empty range) loses to any value.
      row_compare_t compare = GetRowCompareFunction(value.GetType());
      bool is_min = sig.kind == AggregateKind::MIN;
      std::vector<uint32_t> leaves(n, kNone);
      for (idx_t pos = 0; pos < n; pos++) {
        if (value.IsValid(order[pos])) leaves[pos] = order[pos];
      }
      auto better = [&value, compare, is_min](uint32_t a, uint32_t b) {
        if (a == kNone) return b;
        if (b == kNone) return a;
        int c = compare(value, a, value, b);
        return (is_min ? c <= 0 : c >= 0) ? a : b;
      };
      SegmentTree tree(std::move(leaves), kNone, better);
      std::vector<int64_t> source(n);
      std::vector<sel_t> sel(n);
      for (idx_t pos = 0; pos < n; pos++) {
        if (pos % STANDARD_VECTOR_SIZE == 0) check_interrupt();
        uint32_t best = tree.Query(begin[pos], end[pos]);
        sel[order[pos]] = best == kNone ? 0 : best;
        source[order[pos]] = best == kNone ? int64_t{-1} : static_cast<int64_t>(best);
      }
      result.Copy(value, sel.data(), n, 0, 0);
      for (idx_t row = 0; row < n; row++) {
        if (source[row] < 0) result.SetValid(row, false);
      }
      return;
    }
    default: throw InternalError("window aggregate " + sig.name + " has no evaluator");
  }
}

}  // namespace lakestream
