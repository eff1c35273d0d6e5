#include "execution/operator/physical_nested_loop_join.hpp"

namespace lakestream {

static std::vector<LogicalType> ConcatTypes(const PhysicalOperator& left, const PhysicalOperator& right) {
  auto types = left.types;
  types.insert(types.end(), right.types.begin(), right.types.end());
  return types;
}

PhysicalNestedLoopJoin::PhysicalNestedLoopJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, BoundExprPtr condition,
                                               bool left_join)
    : PhysicalOperator(ConcatTypes(*left, *right)), condition_(std::move(condition)), left_join_(left_join) {
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  children[0]->InitializeChunk(probe_);
  pending_.SetTypes(types);
}

void PhysicalNestedLoopJoin::JoinRow(ExecutionContext& context, idx_t l, const DataChunk& right_chunk) {
  idx_t left_width = children[0]->types.size();
  idx_t right_width = children[1]->types.size();
  // One left row against one right chunk.
  DataChunk joined;
  joined.Initialize(types, right_chunk.size());
  for (idx_t col = 0; col < left_width; col++) {
    for (idx_t r = 0; r < right_chunk.size(); r++) joined.data[col].Copy(probe_.data[col], nullptr, 1, l, r);
  }
  for (idx_t col = 0; col < right_width; col++) {
    joined.data[left_width + col].Copy(right_chunk.data[col], nullptr, right_chunk.size(), 0, 0);
  }
  joined.SetCardinality(right_chunk.size());
  if (!condition_) {
    matched_[l] = true;
    pending_.Append(joined);
    return;
  }
  idx_t n = Executor(context).Select(*condition_, joined, selection_);
  if (n == 0) return;
  matched_[l] = true;
  DataChunk kept;
  kept.Initialize(types, n);
  kept.Append(joined, selection_.data(), n);
  pending_.Append(kept);
}

void PhysicalNestedLoopJoin::PadUnmatchedLeftRows() {
  idx_t left_width = children[0]->types.size();
  idx_t right_width = children[1]->types.size();
  for (idx_t l = 0; l < probe_.size(); l++) {
    if (matched_[l]) continue;
    DataChunk padded;
    padded.Initialize(types, 1);
    for (idx_t col = 0; col < left_width; col++) padded.data[col].Copy(probe_.data[col], nullptr, 1, l, 0);
    for (idx_t col = 0; col < right_width; col++) padded.data[left_width + col].SetValid(0, false);
    padded.SetCardinality(1);
    pending_.Append(padded);
  }
}

void PhysicalNestedLoopJoin::JoinSome(ExecutionContext& context) {
  while (right_chunk_ < right_.ChunkCount()) {
    if (pending_.Count() >= STANDARD_VECTOR_SIZE) return;  // enough for now; the cursor resumes here
    JoinRow(context, left_row_, right_.Chunk(right_chunk_));
    if (++left_row_ == probe_.size()) {
      left_row_ = 0;
      right_chunk_++;
    }
  }
  if (left_join_) PadUnmatchedLeftRows();
  probe_active_ = false;
}

bool PhysicalNestedLoopJoin::Next(ExecutionContext& context, DataChunk& out) {
  if (!built_) {
    DrainOperator(context, *children[1], right_);
    built_ = true;
  }
  while (pending_position_ >= pending_.ChunkCount()) {
    pending_.Clear();
    pending_position_ = 0;
    if (!probe_active_) {
      if (!children[0]->Next(context, probe_)) return false;
      if (probe_.size() == 0) continue;
      probe_active_ = true;
      right_chunk_ = 0;
      left_row_ = 0;
      matched_.assign(probe_.size(), false);
    }
    JoinSome(context);
  }
  DataChunk& chunk = pending_.Chunk(pending_position_++);
  out.Reset();
  for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(chunk.data[c], nullptr, chunk.size(), 0, 0);
  out.SetCardinality(chunk.size());
  return true;
}

}  // namespace lakestream
