// mode, histogram and entropy (DuckDB): functions of how often each distinct
// non-NULL value occurs in a group.
//
//  * mode(x): the most frequent value; on a tie the one that arrived first
//    (DuckDB's rule); NULL for a group without values.
//  * histogram(x): MAP(x's type, BIGINT) from each value to its count, keys
//    in ascending order; NULL for a group without values. (DuckDB's counts
//    are UBIGINT, which lakestream does not have.)
//  * entropy(x): -sum(p * log2(p)) over the values' frequencies p; 0 for a
//    group without values.
//
// Holistic: each group keeps its values (GroupedRows); Finalize sorts a
// group's rows stably by value, so equal values form runs whose first row is
// their first arrival. histogram and entropy merge per-thread states (their
// answers do not depend on the order rows arrive in; entropy adds its terms
// in key order).
#include <algorithm>
#include <cmath>

#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

class FrequencyState : public AggregateState {
 public:
  explicit FrequencyState(const AggregateSignature& signature)
      : kind_(signature.kind),
        result_type_(signature.return_type),
        rows_(signature.input_type),
        compare_(GetRowCompareFunction(signature.input_type)) {}
  void Resize(idx_t n) override { rows_.Resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    rows_.Append(*input, gids, count, true);
  }
  // histogram and entropy only (counts do not depend on arrival order; mode's
  // ties do, so mode is not Combinable): other's rows join the targets' groups.
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count) override {
    auto& from = static_cast<FrequencyState&>(other).rows_;
    std::vector<sel_t> sel;
    std::vector<uint32_t> groups;
    for (idx_t g = 0; g < count; g++) {
      for (uint32_t row : from.Rows(g)) {
        sel.push_back(static_cast<sel_t>(row));
        groups.push_back(targets[g]);
      }
    }
    rows_.AppendSelected(from.Values(), sel.data(), groups.data(), sel.size());
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    const Vector& values = rows_.Values();
    for (idx_t i = 0; i < count; i++) {
      auto& group = rows_.Rows(first + i);
      std::stable_sort(group.begin(), group.end(),
                       [&](uint32_t a, uint32_t b) { return compare_(values, a, values, b) < 0; });
      // Runs of equal values: [starts[k], starts[k + 1]).
      starts_.clear();
      for (idx_t r = 0; r < group.size(); r++) {
        if (r == 0 || compare_(values, group[r - 1], values, group[r]) != 0) starts_.push_back(r);
      }
      starts_.push_back(group.size());
      switch (kind_) {
        case AggregateKind::MODE: WriteMode(group, values, i, result); break;
        case AggregateKind::HISTOGRAM: WriteHistogram(group, values, i, result); break;
        default: WriteEntropy(group.size(), i, result); break;
      }
    }
  }

 private:
  void WriteMode(const std::vector<uint32_t>& group, const Vector& values, idx_t i, Vector& result) const {
    if (group.empty()) {
      result.SetValid(i, false);
      return;
    }
    idx_t best = 0;
    for (idx_t k = 1; k + 1 < starts_.size(); k++) {
      idx_t size = starts_[k + 1] - starts_[k], best_size = starts_[best + 1] - starts_[best];
      if (size > best_size || (size == best_size && group[starts_[k]] < group[starts_[best]])) best = k;
    }
    sel_t row = group[starts_[best]];
    result.Copy(values, &row, 1, 0, i);
  }
  void WriteHistogram(const std::vector<uint32_t>& group, const Vector& values, idx_t i, Vector& result) const {
    if (group.empty()) {
      result.SetValid(i, false);
      return;
    }
    const LogicalType& entry = result_type_.ListChild();
    std::vector<Value> entries;
    entries.reserve(starts_.size() - 1);
    for (idx_t k = 0; k + 1 < starts_.size(); k++) {
      auto n = static_cast<int64_t>(starts_[k + 1] - starts_[k]);
      entries.push_back(Value::STRUCT(entry, {values.GetValue(group[starts_[k]]), Value::BIGINT(n)}));
    }
    result.SetValue(i, Value::LIST(result_type_, std::move(entries)));
  }
  void WriteEntropy(idx_t total, idx_t i, Vector& result) const {
    double entropy = 0;
    auto n = static_cast<double>(total);
    for (idx_t k = 0; k + 1 < starts_.size(); k++) {
      auto c = static_cast<double>(starts_[k + 1] - starts_[k]);
      entropy += (c / n) * std::log2(n / c);
    }
    result.GetData<double>()[i] = entropy;
    result.SetValid(i, true);
  }

  AggregateKind kind_;
  LogicalType result_type_;
  GroupedRows rows_;
  row_compare_t compare_;
  std::vector<idx_t> starts_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateFrequencyState(const AggregateSignature& signature) {
  return std::make_unique<FrequencyState>(signature);
}

}  // namespace lakestream
