// max_by/arg_max and min_by/arg_min (the x of the row with the largest or
// smallest y), and last (the last non-NULL x to arrive).
//
// Rows whose y is NULL are skipped (Spark, DuckDB); x may be NULL. On ties
// of y the first row to arrive wins, as in Spark's strict comparison.
#include <algorithm>

#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

namespace {

// dst[drow] = src[srow], strings copied into dst's heap so no input chunk
// stays pinned by one kept value.
void CopyOwned(Vector& dst, idx_t drow, const Vector& src, idx_t srow) {
  if (dst.GetType().id() == TypeId::VARCHAR) {
    bool valid = src.IsValid(srow);
    dst.SetValid(drow, valid);
    if (valid) dst.GetData<string_t>()[drow] = dst.AddString(src.GetData<string_t>()[srow]);
    return;
  }
  auto row = static_cast<sel_t>(srow);
  dst.Copy(src, &row, 1, 0, drow);
}

class ArgExtremeState : public AggregateState {
 public:
  explicit ArgExtremeState(const AggregateSignature& signature)
      : direction_(signature.kind == AggregateKind::MAX_BY ? 1 : signature.kind == AggregateKind::MIN_BY ? -1 : 0),
        values_(signature.input_type, 64),
        keys_(direction_ ? signature.second_type : LogicalType(TypeId::BOOLEAN), 64),
        compare_(direction_ ? GetRowCompareFunction(signature.second_type) : nullptr) {}
  void Resize(idx_t n) override {
    if (n > values_.Capacity()) {
      values_.Resize(std::max(n, values_.Capacity() * 2));
      keys_.Resize(std::max(n, keys_.Capacity() * 2));
    }
    has_.resize(n, 0);
  }
  // last(x): every non-NULL row replaces the value.
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    for (idx_t i = 0; i < count; i++) {
      if (!input->IsValid(i)) continue;
      has_[gids[i]] = 1;
      CopyOwned(values_, gids[i], *input, i);
    }
  }
  void UpdateBinary(const Vector* input, const Vector* second, const uint32_t* gids, idx_t count) override {
    for (idx_t i = 0; i < count; i++) {
      if (!second->IsValid(i)) continue;
      uint32_t g = gids[i];
      if (has_[g] && direction_ * compare_(*second, i, keys_, g) <= 0) continue;
      has_[g] = 1;
      CopyOwned(keys_, g, *second, i);
      CopyOwned(values_, g, *input, i);
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    result.Copy(values_, nullptr, count, first, 0);
    for (idx_t i = 0; i < count; i++) {
      if (!has_[first + i]) result.SetValid(i, false);
    }
  }

 private:
  int direction_;  // +1 max_by, -1 min_by, 0 last
  Vector values_;
  Vector keys_;
  row_compare_t compare_;
  std::vector<uint8_t> has_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateArgExtremeState(const AggregateSignature& signature) {
  return std::make_unique<ArgExtremeState>(signature);
}

}  // namespace lakestream
