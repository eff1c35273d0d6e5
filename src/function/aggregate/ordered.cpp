// ORDER BY inside an aggregate call: string_agg(x, ',' ORDER BY y),
// collect_list(x ORDER BY y DESC), listagg(x) WITHIN GROUP (ORDER BY y).
// The rows are kept until the end, then sorted per group and replayed into
// the aggregate's own state, which then sees them in that order.
#include <algorithm>
#include <numeric>

#include "common/exception.hpp"
#include "common/vector_operations.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

OrderedAggregateState::OrderedAggregateState(std::unique_ptr<AggregateState> inner, const AggregateSignature& signature,
                                             std::vector<AggregateOrderKey> keys)
    : inner_(std::move(inner)), order_(std::move(keys)) {
  if (signature.input_type.id() != TypeId::INVALID) inputs_ = std::make_unique<Vector>(signature.input_type, 64);
  if (signature.second_type.id() != TypeId::INVALID) seconds_ = std::make_unique<Vector>(signature.second_type, 64);
  for (auto& k : order_) keys_.push_back(std::make_unique<Vector>(k.type, 64));
}

void OrderedAggregateState::Resize(idx_t group_count) { inner_->Resize(group_count); }

void OrderedAggregateState::Update(const Vector*, const uint32_t*, idx_t) {
  throw InternalError("an ordered aggregate must be updated with its order keys");
}

void OrderedAggregateState::UpdateOrdered(const Vector* input, const Vector* second,
                                          const std::vector<const Vector*>& keys, const uint32_t* group_ids,
                                          idx_t count) {
  idx_t at = group_ids_.size();
  if (inputs_ && input) inputs_->Copy(*input, nullptr, count, 0, at);
  if (seconds_ && second) seconds_->Copy(*second, nullptr, count, 0, at);
  for (idx_t k = 0; k < keys_.size(); k++) keys_[k]->Copy(*keys[k], nullptr, count, 0, at);
  group_ids_.insert(group_ids_.end(), group_ids, group_ids + count);
}

void OrderedAggregateState::Feed() {
  std::vector<row_compare_t> compare;
  for (auto& k : order_) compare.push_back(GetRowCompareFunction(k.type));
  std::vector<sel_t> perm(group_ids_.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](sel_t a, sel_t b) {
    if (group_ids_[a] != group_ids_[b]) return group_ids_[a] < group_ids_[b];
    for (idx_t k = 0; k < order_.size(); k++) {
      const Vector& v = *keys_[k];
      bool va = v.IsValid(a);
      bool vb = v.IsValid(b);
      if (!va || !vb) {
        if (va == vb) continue;
        return order_[k].nulls_first ? !va : va;
      }
      int c = compare[k](v, a, v, b);
      if (c != 0) return order_[k].descending ? c > 0 : c < 0;
    }
    return false;
  });
  std::unique_ptr<Vector> input = inputs_ ? std::make_unique<Vector>(inputs_->GetType()) : nullptr;
  std::unique_ptr<Vector> second = seconds_ ? std::make_unique<Vector>(seconds_->GetType()) : nullptr;
  std::vector<uint32_t> groups(STANDARD_VECTOR_SIZE);
  for (idx_t start = 0; start < perm.size(); start += STANDARD_VECTOR_SIZE) {
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, perm.size() - start);
    for (idx_t i = 0; i < n; i++) groups[i] = group_ids_[perm[start + i]];
    if (input) {
      input->Reset();
      input->Copy(*inputs_, perm.data() + start, n, 0, 0);
    }
    if (second) {
      second->Reset();
      second->Copy(*seconds_, perm.data() + start, n, 0, 0);
      inner_->UpdateBinary(input.get(), second.get(), groups.data(), n);
    } else {
      inner_->Update(input.get(), groups.data(), n);
    }
  }
}

void OrderedAggregateState::Finalize(idx_t first, idx_t count, Vector& result) {
  if (!fed_) {
    fed_ = true;
    Feed();
  }
  inner_->Finalize(first, count, result);
}

}  // namespace lakestream
