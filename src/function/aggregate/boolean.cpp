// bool_and/every, bool_or/some/any and count_if over BOOLEAN.
//
// NULLs are skipped; a group of only NULLs gives NULL for bool_and/bool_or
// and 0 for count_if (which counts the rows where the condition is true).
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

class BoolState : public AggregateState {
 public:
  explicit BoolState(bool is_and) : is_and_(is_and) {}
  void Resize(idx_t n) override {
    values_.resize(n, is_and_ ? 1 : 0);
    has_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const bool* data = input->GetData<bool>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!valid[i]) continue;
      uint32_t g = gids[i];
      has_[g] = 1;
      if (is_and_) values_[g] &= static_cast<uint8_t>(data[i]);
      else values_[g] |= static_cast<uint8_t>(data[i]);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<bool>();
    for (idx_t i = 0; i < count; i++) {
      result.SetValid(i, has_[first + i] != 0);
      out[i] = values_[first + i] != 0;
    }
  }
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    auto& from = static_cast<BoolState&>(other);
    for (idx_t g = 0; g < count; g++) {
      const uint32_t source = CombineSource(sources, g);
      if (!from.has_[source]) continue;
      uint32_t t = targets[g];
      has_[t] = 1;
      if (is_and_) values_[t] &= from.values_[source];
      else values_[t] |= from.values_[source];
    }
  }

 private:
  bool is_and_;
  std::vector<uint8_t> values_;
  std::vector<uint8_t> has_;
};

class CountIfState : public AggregateState {
 public:
  void Resize(idx_t n) override { counts_.resize(n, 0); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const bool* data = input->GetData<bool>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) counts_[gids[i]] += (valid[i] && data[i]) ? 1 : 0;
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<int64_t>();
    for (idx_t i = 0; i < count; i++) out[i] = counts_[first + i];
    result.SetAllValid(count);
  }
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    auto& from = static_cast<CountIfState&>(other).counts_;
    for (idx_t g = 0; g < count; g++) counts_[targets[g]] += from[CombineSource(sources, g)];
  }

 private:
  std::vector<int64_t> counts_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateBooleanState(const AggregateSignature& signature) {
  if (signature.kind == AggregateKind::COUNT_IF) return std::make_unique<CountIfState>();
  return std::make_unique<BoolState>(signature.kind == AggregateKind::BOOL_AND);
}

}  // namespace lakestream
