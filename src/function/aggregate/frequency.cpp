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
// Each state counts (group, value) pairs in one hash table keyed by the
// group and the value's encoded key bytes (EncodeKey), keeping each distinct
// value once (in `values_`) with its count and its first arrival: memory is
// per distinct value, not per row. Finalize sorts a group's distinct values
// (histogram keys ascending; entropy adds its terms in that order, so its
// rounding does not depend on hashing). histogram and entropy merge
// per-thread states (counts add up exactly); mode does not (its ties follow
// arrival order).
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

class FrequencyState : public AggregateState {
 public:
  explicit FrequencyState(const AggregateSignature& signature)
      : kind_(signature.kind),
        result_type_(signature.return_type),
        values_(signature.input_type, 64),
        compare_(GetRowCompareFunction(signature.input_type)) {}
  void Resize(idx_t n) override { groups_.resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    for (idx_t i = 0; i < count; i++) {
      if (!input->IsValid(i)) continue;
      Count(gids[i], *input, i, 1, sequence_++);
    }
  }
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    auto& from = static_cast<FrequencyState&>(other);
    for (idx_t g = 0; g < count; g++) {
      const uint32_t source = CombineSource(sources, g);
      if (source >= from.groups_.size()) continue;
      for (uint32_t e : from.groups_[source]) {
        const Entry& entry = from.entries_[e];
        Count(targets[g], from.values_, entry.row, entry.count, sequence_++);
      }
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    for (idx_t i = 0; i < count; i++) {
      auto& ids = groups_[first + i];
      if (kind_ == AggregateKind::MODE) {
        WriteMode(ids, i, result);
        continue;
      }
      std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        return compare_(values_, entries_[a].row, values_, entries_[b].row) < 0;
      });
      if (kind_ == AggregateKind::HISTOGRAM) WriteHistogram(ids, i, result);
      else WriteEntropy(ids, i, result);
    }
  }

 private:
  struct Entry {
    uint32_t row;     // in values_
    int64_t count;
    uint64_t first;   // arrival sequence of the value's first row
  };

  void Count(uint32_t group, const Vector& input, idx_t row, int64_t n, uint64_t sequence) {
    key_.assign(reinterpret_cast<const char*>(&group), sizeof(group));
    EncodeKey(input, row, key_);
    auto [it, fresh] = index_.try_emplace(key_, static_cast<uint32_t>(entries_.size()));
    if (fresh) {
      auto at = static_cast<uint32_t>(entries_.size());
      if (at >= values_.Capacity()) values_.Resize(std::max<idx_t>(at + 1, values_.Capacity() * 2));
      if (values_.GetType().id() == TypeId::VARCHAR) {
        // Into the state's own heap: a kept value must not pin its input chunk.
        values_.SetValid(at, true);
        values_.GetData<string_t>()[at] = values_.AddString(input.GetData<string_t>()[row]);
      } else {
        auto source = static_cast<sel_t>(row);
        values_.Copy(input, &source, 1, 0, at);
      }
      entries_.push_back({at, 0, sequence});
      groups_[group].push_back(at);
    }
    entries_[it->second].count += n;
  }
  void WriteMode(const std::vector<uint32_t>& ids, idx_t i, Vector& result) const {
    if (ids.empty()) {
      result.SetValid(i, false);
      return;
    }
    uint32_t best = ids[0];
    for (uint32_t e : ids) {
      const Entry& a = entries_[e];
      const Entry& b = entries_[best];
      if (a.count > b.count || (a.count == b.count && a.first < b.first)) best = e;
    }
    sel_t row = entries_[best].row;
    result.Copy(values_, &row, 1, 0, i);
  }
  void WriteHistogram(const std::vector<uint32_t>& ids, idx_t i, Vector& result) const {
    if (ids.empty()) {
      result.SetValid(i, false);
      return;
    }
    const LogicalType& entry_type = result_type_.ListChild();
    std::vector<Value> entries;
    entries.reserve(ids.size());
    for (uint32_t e : ids) {
      entries.push_back(Value::STRUCT(entry_type, {values_.GetValue(entries_[e].row), Value::BIGINT(entries_[e].count)}));
    }
    result.SetValue(i, Value::LIST(result_type_, std::move(entries)));
  }
  void WriteEntropy(const std::vector<uint32_t>& ids, idx_t i, Vector& result) const {
    int64_t total = 0;
    for (uint32_t e : ids) total += entries_[e].count;
    double entropy = 0;
    auto n = static_cast<double>(total);
    for (uint32_t e : ids) {
      auto c = static_cast<double>(entries_[e].count);
      entropy += (c / n) * std::log2(n / c);
    }
    result.GetData<double>()[i] = entropy;
    result.SetValid(i, true);
  }

  AggregateKind kind_;
  LogicalType result_type_;
  Vector values_;                 // each distinct (group, value) once
  std::vector<Entry> entries_;    // parallel to values_
  std::vector<std::vector<uint32_t>> groups_;  // a group's entries
  std::unordered_map<std::string, uint32_t> index_;  // group bytes + EncodeKey -> entry
  std::string key_;
  uint64_t sequence_ = 0;
  row_compare_t compare_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateFrequencyState(const AggregateSignature& signature) {
  return std::make_unique<FrequencyState>(signature);
}

}  // namespace lakestream
