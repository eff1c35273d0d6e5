#include "execution/operator/physical_hash_join.hpp"

#include <algorithm>

#include "common/exception.hpp"

namespace lakestream {

static std::vector<LogicalType> JoinTypes(const PhysicalOperator& left, const PhysicalOperator& right) {
  auto types = left.types;
  types.insert(types.end(), right.types.begin(), right.types.end());
  return types;
}

PhysicalHashJoin::PhysicalHashJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, std::vector<BoundExprPtr> left_keys,
                                   std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, bool left_join)
    : PhysicalOperator(JoinTypes(*left, *right)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      residual_(std::move(residual)),
      left_join_(left_join),
      left_width_(left->types.size()),
      right_width_(right->types.size()) {
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  for (auto& k : left_keys_) key_equal_.push_back(GetRowEqualFunction(k->return_type));
  children[0]->InitializeChunk(probe_);
  std::vector<LogicalType> key_types;
  for (auto& k : left_keys_) key_types.push_back(k->return_type);
  probe_keys_.Initialize(key_types);
  pending_.SetTypes(types);
}

std::string PhysicalHashJoin::Details() const {
  std::string d;
  for (idx_t i = 0; i < left_keys_.size(); i++) {
    d += (i ? " AND " : "") + left_keys_[i]->ToString() + " = " + right_keys_[i]->ToString();
  }
  if (residual_) d += " AND " + residual_->ToString();
  return d;
}

void PhysicalHashJoin::Build(ExecutionContext& context) {
  ExpressionExecutor executor(context.function_context);
  auto build_types = children[1]->types;
  for (auto& k : right_keys_) build_types.push_back(k->return_type);
  build_.SetTypes(build_types);
  DataChunk input, combined;
  children[1]->InitializeChunk(input);
  combined.Initialize(build_types);
  while (children[1]->Next(context, input)) {
    if (input.size() == 0) continue;
    combined.Reset();
    for (idx_t c = 0; c < right_width_; c++) combined.data[c].Copy(input.data[c], nullptr, input.size(), 0, 0);
    for (idx_t k = 0; k < right_keys_.size(); k++) executor.Execute(*right_keys_[k], input, combined.data[right_width_ + k]);
    combined.SetCardinality(input.size());
    build_.Append(combined);
  }
  idx_t rows = build_.Count();
  if (rows >= UINT32_MAX) throw NotImplementedError("hash join build side with more than 4 billion rows");
  idx_t buckets = 1;
  while (buckets < rows * 2) buckets <<= 1;
  mask_ = buckets - 1;
  heads_.assign(buckets, 0);
  next_.assign(rows, 0);
  build_hashes_.assign(rows, 0);
  for (idx_t c = 0; c < build_.ChunkCount(); c++) {
    DataChunk& chunk = build_.Chunk(c);
    uint64_t* hashes = build_hashes_.data() + c * STANDARD_VECTOR_SIZE;
    for (idx_t k = 0; k < right_keys_.size(); k++) HashVector(chunk.data[right_width_ + k], chunk.size(), hashes, k > 0);
    for (idx_t r = 0; r < chunk.size(); r++) {
      bool has_null = false;
      for (idx_t k = 0; k < right_keys_.size(); k++) has_null |= !chunk.data[right_width_ + k].IsValid(r);
      if (has_null) continue;  // NULL never equals anything
      idx_t row = c * STANDARD_VECTOR_SIZE + r;
      uint64_t bucket = hashes[r] & mask_;
      next_[row] = heads_[bucket];
      heads_[bucket] = static_cast<uint32_t>(row + 1);
    }
  }
}

void PhysicalHashJoin::EmitPairs(ExecutionContext& context, const std::vector<sel_t>& probe_rows,
                                 const std::vector<uint32_t>& build_rows, std::vector<bool>& matched) {
  idx_t n = probe_rows.size();
  if (n == 0) return;
  DataChunk joined;
  joined.Initialize(types, n);
  for (idx_t c = 0; c < left_width_; c++) joined.data[c].Copy(probe_.data[c], probe_rows.data(), n, 0, 0);
  for (idx_t i = 0; i < n; i++) {
    uint32_t row = build_rows[i];
    const DataChunk& chunk = build_.Chunk(row / STANDARD_VECTOR_SIZE);
    for (idx_t c = 0; c < right_width_; c++) joined.data[left_width_ + c].Copy(chunk.data[c], nullptr, 1, row % STANDARD_VECTOR_SIZE, i);
  }
  joined.SetCardinality(n);
  if (!residual_) {
    for (auto r : probe_rows) matched[r] = true;
    pending_.Append(joined);
    return;
  }
  ExpressionExecutor executor(context.function_context);
  std::vector<sel_t> sel;
  idx_t kept = executor.Select(*residual_, joined, sel);
  if (kept == 0) return;
  DataChunk filtered;
  filtered.Initialize(types, kept);
  filtered.Append(joined, sel.data(), kept);
  for (idx_t i = 0; i < kept; i++) matched[probe_rows[sel[i]]] = true;
  pending_.Append(filtered);
}

void PhysicalHashJoin::Probe(ExecutionContext& context) {
  ExpressionExecutor executor(context.function_context);
  idx_t count = probe_.size();
  probe_keys_.Reset();
  for (idx_t k = 0; k < left_keys_.size(); k++) executor.Execute(*left_keys_[k], probe_, probe_keys_.data[k]);
  probe_keys_.SetCardinality(count);
  std::vector<uint64_t> hashes(count);
  for (idx_t k = 0; k < left_keys_.size(); k++) HashVector(probe_keys_.data[k], count, hashes.data(), k > 0);
  std::vector<bool> matched(count, false);
  std::vector<sel_t> probe_rows;
  std::vector<uint32_t> build_rows;
  probe_rows.reserve(STANDARD_VECTOR_SIZE);
  build_rows.reserve(STANDARD_VECTOR_SIZE);
  idx_t key_count = left_keys_.size();
  for (idx_t i = 0; i < count; i++) {
    bool has_null = false;
    for (idx_t k = 0; k < key_count; k++) has_null |= !probe_keys_.data[k].IsValid(i);
    if (has_null) continue;
    for (uint32_t entry = heads_[hashes[i] & mask_]; entry; entry = next_[entry - 1]) {
      uint32_t row = entry - 1;
      if (build_hashes_[row] != hashes[i]) continue;
      const DataChunk& chunk = build_.Chunk(row / STANDARD_VECTOR_SIZE);
      idx_t offset = row % STANDARD_VECTOR_SIZE;
      bool equal = true;
      for (idx_t k = 0; k < key_count && equal; k++) {
        equal = key_equal_[k](probe_keys_.data[k], i, chunk.data[right_width_ + k], offset);
      }
      if (!equal) continue;
      probe_rows.push_back(static_cast<sel_t>(i));
      build_rows.push_back(row);
      if (probe_rows.size() == STANDARD_VECTOR_SIZE) {
        EmitPairs(context, probe_rows, build_rows, matched);
        probe_rows.clear();
        build_rows.clear();
      }
    }
  }
  EmitPairs(context, probe_rows, build_rows, matched);
  if (left_join_) {
    std::vector<sel_t> unmatched;
    for (idx_t i = 0; i < count; i++) {
      if (!matched[i]) unmatched.push_back(static_cast<sel_t>(i));
    }
    if (!unmatched.empty()) {
      DataChunk padded;
      padded.Initialize(types, unmatched.size());
      for (idx_t c = 0; c < left_width_; c++) padded.data[c].Copy(probe_.data[c], unmatched.data(), unmatched.size(), 0, 0);
      for (idx_t c = 0; c < right_width_; c++) {
        for (idx_t i = 0; i < unmatched.size(); i++) padded.data[left_width_ + c].SetValid(i, false);
      }
      padded.SetCardinality(unmatched.size());
      pending_.Append(padded);
    }
  }
}

bool PhysicalHashJoin::Next(ExecutionContext& context, DataChunk& out) {
  if (!built_) {
    Build(context);
    built_ = true;
  }
  while (pending_position_ >= pending_.ChunkCount()) {
    pending_.Clear();
    pending_position_ = 0;
    if (!children[0]->Next(context, probe_)) return false;
    if (probe_.size() == 0) continue;
    Probe(context);
  }
  DataChunk& chunk = pending_.Chunk(pending_position_++);
  out.Reset();
  for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(chunk.data[c], nullptr, chunk.size(), 0, 0);
  out.SetCardinality(chunk.size());
  return true;
}

}  // namespace lakestream
