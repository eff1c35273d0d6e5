// collect_list/array_agg, collect_set and string_agg/listagg, plus the
// GroupedRows store the holistic aggregates share.
//
// Spark semantics (see docs/sql-aggregates.md): NULL inputs are skipped, a
// group without a non-NULL value collects an empty list (DuckDB: NULL, and
// array_agg keeps NULLs); collect_set keeps the first occurrence of each
// value in arrival order; string_agg joins with no separator by default.
#include <string>
#include <unordered_set>

#include "common/vector_operations.hpp"
#include "function/aggregate/aggregate_families.hpp"

namespace lakestream {

void GroupedRows::Append(const Vector& input, const uint32_t* group_ids, idx_t count, bool skip_nulls) {
  sel_.clear();
  for (idx_t i = 0; i < count; i++) {
    if (!skip_nulls || input.IsValid(i)) sel_.push_back(static_cast<sel_t>(i));
  }
  std::vector<uint32_t> groups;
  groups.reserve(sel_.size());
  for (sel_t r : sel_) groups.push_back(group_ids[r]);
  std::vector<sel_t> sel = std::move(sel_);
  AppendSelected(input, sel.data(), groups.data(), sel.size());
  sel_ = std::move(sel);
}

void GroupedRows::AppendSelected(const Vector& input, const sel_t* sel, const uint32_t* group_ids, idx_t count) {
  if (count == 0) return;
  values_.Copy(input, sel, count, 0, size_);
  for (idx_t i = 0; i < count; i++) rows_[group_ids[i]].push_back(static_cast<uint32_t>(size_ + i));
  size_ += count;
}

namespace {

// Writes each group's rows of `rows` as one list of result.
void WriteLists(GroupedRows& rows, idx_t first, idx_t count, Vector& result) {
  auto* entries = result.GetData<list_entry_t>();
  Vector& child = result.Child(0);
  idx_t offset = result.ListSize();
  for (idx_t i = 0; i < count; i++) {
    auto& group = rows.Rows(first + i);
    entries[i] = {offset, group.size()};
    child.Copy(rows.Values(), group.data(), group.size(), 0, offset);
    offset += group.size();
    result.SetValid(i, true);
  }
  result.SetListSize(offset);
}

class CollectListState : public AggregateState {
 public:
  explicit CollectListState(const LogicalType& type) : rows_(type) {}
  void Resize(idx_t n) override { rows_.Resize(n); }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    rows_.Append(*input, gids, count, true);
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override { WriteLists(rows_, first, count, result); }

 private:
  GroupedRows rows_;
};

class CollectSetState : public AggregateState {
 public:
  explicit CollectSetState(const LogicalType& type) : rows_(type) {}
  void Resize(idx_t n) override {
    rows_.Resize(n);
    seen_.resize(n);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    sel_.clear();
    groups_.clear();
    std::string key;
    for (idx_t i = 0; i < count; i++) {
      if (!input->IsValid(i)) continue;
      key.clear();
      EncodeKey(*input, i, key);
      if (!seen_[gids[i]].insert(key).second) continue;
      sel_.push_back(static_cast<sel_t>(i));
      groups_.push_back(gids[i]);
    }
    rows_.AppendSelected(*input, sel_.data(), groups_.data(), sel_.size());
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override { WriteLists(rows_, first, count, result); }

 private:
  GroupedRows rows_;
  std::vector<std::unordered_set<std::string>> seen_;
  std::vector<sel_t> sel_;
  std::vector<uint32_t> groups_;
};

class StringAggState : public AggregateState {
 public:
  explicit StringAggState(std::string separator) : separator_(std::move(separator)) {}
  void Resize(idx_t n) override {
    values_.resize(n);
    has_.resize(n, 0);
  }
  void Update(const Vector* input, const uint32_t* gids, idx_t count) override {
    const auto* data = input->GetData<string_t>();
    for (idx_t i = 0; i < count; i++) {
      if (!input->IsValid(i)) continue;
      uint32_t g = gids[i];
      if (has_[g]) values_[g] += separator_;
      has_[g] = 1;
      values_[g].append(data[i].data(), data[i].size());
    }
  }
  void Finalize(idx_t first, idx_t count, Vector& result) override {
    auto* out = result.GetData<string_t>();
    for (idx_t i = 0; i < count; i++) {
      bool valid = has_[first + i] != 0;
      result.SetValid(i, valid);
      if (valid) out[i] = result.AddString(values_[first + i]);
    }
  }

 private:
  std::string separator_;
  std::vector<std::string> values_;
  std::vector<uint8_t> has_;
};

}  // namespace

std::unique_ptr<AggregateState> CreateListState(const AggregateSignature& signature) {
  switch (signature.kind) {
    case AggregateKind::COLLECT_SET: return std::make_unique<CollectSetState>(signature.input_type);
    case AggregateKind::STRING_AGG: return std::make_unique<StringAggState>(signature.separator);
    default: return std::make_unique<CollectListState>(signature.input_type);
  }
}

}  // namespace lakestream
