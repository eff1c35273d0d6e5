#include "execution/operator/physical_nested_loop_join.hpp"

#include "common/exception.hpp"

namespace lakestream {

PhysicalNestedLoopJoin::PhysicalNestedLoopJoin(PhysicalOperatorPtr left, PhysicalOperatorPtr right, BoundExprPtr condition,
                                               JoinKind kind)
    : PhysicalOperator(JoinOutputTypes(kind, left->types, right->types)),
      condition_(std::move(condition)),
      kind_(kind),
      left_width_(left->types.size()),
      right_width_(right->types.size()),
      pair_types_(JoinOutputTypes(JoinKind::INNER, left->types, right->types)) {
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  children[0]->InitializeChunk(probe_);
  pending_.SetTypes(types);
}

void PhysicalNestedLoopJoin::JoinRow(ExecutionContext& context, idx_t left_row, idx_t right_index) {
  idx_t l = left_row;
  const DataChunk& right_chunk = right_.Chunk(right_index);
  bool existence = kind_ == JoinKind::SEMI || kind_ == JoinKind::ANTI || kind_ == JoinKind::MARK;
  if (existence && matched_[l] && !(kind_ == JoinKind::MARK && mark_condition_)) return;  // already decided
  // One left row against one right chunk.
  idx_t n = right_chunk.size();
  DataChunk joined;
  joined.Initialize(pair_types_, n);
  for (idx_t col = 0; col < left_width_; col++) {
    for (idx_t r = 0; r < n; r++) joined.data[col].Copy(probe_.data[col], nullptr, 1, l, r);
  }
  for (idx_t col = 0; col < right_width_; col++) joined.data[left_width_ + col].Copy(right_chunk.data[col], nullptr, n, 0, 0);
  joined.SetCardinality(n);
  idx_t kept = n;
  if (condition_) {
    kept = Executor(context).Select(*condition_, joined, selection_);
  } else {
    selection_.resize(n);
    for (idx_t i = 0; i < n; i++) selection_[i] = static_cast<sel_t>(i);
  }
  if (kept == 0) return;
  if (kind_ == JoinKind::MARK && mark_condition_) {
    Vector mark(TypeId::BOOLEAN, std::max<idx_t>(n, 1));
    Executor(context).Execute(*mark_condition_, joined, mark);
    for (idx_t i = 0; i < kept; i++) {
      sel_t p = selection_[i];
      if (!mark.IsValid(p)) {
        mark_null_[l] = 1;
      } else if (mark.GetData<bool>()[p]) {
        matched_[l] = 1;
      }
    }
    return;
  }
  if (kind_ == JoinKind::SINGLE && (kept > 1 || matched_[l])) throw InvalidInputError(SingleJoinError());
  matched_[l] = 1;
  if (kind_ == JoinKind::FULL) {
    for (idx_t i = 0; i < kept; i++) right_matched_[right_index][selection_[i]] = 1;
  }
  if (existence) return;
  DataChunk out;
  out.Initialize(types, kept);
  out.Append(joined, selection_.data(), kept);
  pending_.Append(out);
}

void PhysicalNestedLoopJoin::FinishProbe() {
  if (kind_ == JoinKind::INNER) return;
  std::vector<sel_t> rows;
  for (idx_t l = 0; l < probe_.size(); l++) {
    bool keep = kind_ == JoinKind::MARK || (kind_ == JoinKind::SEMI ? matched_[l] != 0 : matched_[l] == 0);
    if (keep) rows.push_back(static_cast<sel_t>(l));
  }
  idx_t n = rows.size();
  if (n == 0) return;
  DataChunk out;
  out.Initialize(types, n);
  for (idx_t col = 0; col < left_width_; col++) out.data[col].Copy(probe_.data[col], rows.data(), n, 0, 0);
  if (kind_ == JoinKind::MARK) {
    for (idx_t i = 0; i < n; i++) {
      int value = MarkValue(matched_[rows[i]], mark_null_[rows[i]]);
      out.data[left_width_].SetValid(i, value >= 0);
      out.data[left_width_].GetData<bool>()[i] = value == 1;
    }
  } else if (kind_ != JoinKind::SEMI && kind_ != JoinKind::ANTI) {
    for (idx_t col = 0; col < right_width_; col++) {
      for (idx_t i = 0; i < n; i++) out.data[left_width_ + col].SetValid(i, false);
    }
  }
  out.SetCardinality(n);
  pending_.Append(out);
}

void PhysicalNestedLoopJoin::PadUnmatchedRightRows() {
  for (idx_t c = 0; c < right_.ChunkCount(); c++) {
    const DataChunk& chunk = right_.Chunk(c);
    std::vector<sel_t> rows;
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (!right_matched_[c][r]) rows.push_back(static_cast<sel_t>(r));
    }
    idx_t n = rows.size();
    if (n == 0) continue;
    DataChunk out;
    out.Initialize(types, n);
    for (idx_t col = 0; col < left_width_; col++) {
      for (idx_t i = 0; i < n; i++) out.data[col].SetValid(i, false);
    }
    for (idx_t col = 0; col < right_width_; col++) out.data[left_width_ + col].Copy(chunk.data[col], rows.data(), n, 0, 0);
    out.SetCardinality(n);
    pending_.Append(out);
  }
}

void PhysicalNestedLoopJoin::JoinSome(ExecutionContext& context) {
  while (right_chunk_ < right_.ChunkCount()) {
    if (pending_.Count() >= STANDARD_VECTOR_SIZE) return;  // enough for now; the cursor resumes here
    // Checked per step, not per output chunk: a join may go long without a match.
    context.CheckInterrupt();
    JoinRow(context, left_row_, right_chunk_);
    if (++left_row_ == probe_.size()) {
      left_row_ = 0;
      right_chunk_++;
    }
  }
  FinishProbe();
  probe_active_ = false;
}

bool PhysicalNestedLoopJoin::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!built_) {
    DrainOperator(context, *children[1], right_);
    if (kind_ == JoinKind::FULL) {
      for (idx_t c = 0; c < right_.ChunkCount(); c++) right_matched_.emplace_back(right_.Chunk(c).size(), 0);
    }
    built_ = true;
  }
  while (pending_position_ >= pending_.ChunkCount()) {
    pending_.Clear();
    pending_position_ = 0;
    if (probe_done_) return false;
    if (!probe_active_) {
      context.CheckInterrupt();
      if (!children[0]->Next(context, probe_)) {
        probe_done_ = true;
        if (kind_ == JoinKind::FULL) PadUnmatchedRightRows();
        continue;
      }
      if (probe_.size() == 0) continue;
      probe_active_ = true;
      right_chunk_ = 0;
      left_row_ = 0;
      matched_.assign(probe_.size(), 0);
      mark_null_.assign(probe_.size(), 0);
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
