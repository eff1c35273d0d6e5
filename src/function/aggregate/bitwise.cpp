// bit_and, bit_or and bit_xor over INTEGER or BIGINT (DuckDB): the result
// has the argument's type, NULLs are skipped and a group without values
// gives NULL. The operations are exact, so thread-local states merge.
#include <cstdint>

#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

template <class T>
class BitwiseState : public AggregateState {
 public:
  explicit BitwiseState(AggregateKind kind) : kind_(kind) {}
  void Resize(idx_t n) override {
    values_.resize(n, Identity());
    has_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const T* data = input->GetData<T>();
    const uint8_t* valid = input->Validity();
    for (idx_t i = 0; i < count; i++) {
      if (!valid[i]) continue;
      has_[gids[i]] = 1;
      Fold(values_[gids[i]], data[i]);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    T* out = result.GetData<T>();
    for (idx_t i = 0; i < count; i++) {
      result.SetValid(i, has_[first + i] != 0);
      out[i] = values_[first + i];
    }
  }
  bool CombinesSelected() const override { return true; }
  void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources) override {
    auto& from = static_cast<BitwiseState&>(other);
    for (idx_t g = 0; g < count; g++) {
      const uint32_t source = CombineSource(sources, g);
      if (!from.has_[source]) continue;
      has_[targets[g]] = 1;
      Fold(values_[targets[g]], from.values_[source]);
    }
  }

 private:
  T Identity() const { return kind_ == AggregateKind::BIT_AND ? static_cast<T>(~T(0)) : T(0); }
  void Fold(T& into, T v) const {
    if (kind_ == AggregateKind::BIT_AND) into &= v;
    else if (kind_ == AggregateKind::BIT_OR) into |= v;
    else into ^= v;
  }

  AggregateKind kind_;
  std::vector<T> values_;
  std::vector<uint8_t> has_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateBitwiseState(const AggregateSignature& signature) {
  if (signature.input_type.id() == TypeId::INTEGER) return std::make_unique<BitwiseState<int32_t>>(signature.kind);
  return std::make_unique<BitwiseState<int64_t>>(signature.kind);
}

}  // namespace lakestream
