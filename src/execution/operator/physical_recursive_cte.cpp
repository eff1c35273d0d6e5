#include "execution/operator/physical_recursive_cte.hpp"

#include "common/exception.hpp"

namespace lakestream {

PhysicalRecursiveCTE::PhysicalRecursiveCTE(std::vector<LogicalType> types, std::string name, PhysicalOperatorPtr anchor,
                                           std::function<PhysicalOperatorPtr()> plan_term,
                                           std::shared_ptr<ChunkCollection> working, bool distinct)
    : PhysicalOperator(std::move(types)),
      name_(std::move(name)),
      plan_term_(std::move(plan_term)),
      working_(std::move(working)),
      added_(this->types),
      distinct_(distinct) {
  children.push_back(std::move(anchor));
  current_ = children[0].get();
}

std::string PhysicalRecursiveCTE::Details() const { return name_ + (distinct_ ? " (UNION)" : " (UNION ALL)"); }

// A row's values as one string: equal rows (NULLs equal, as UNION compares
// them) give equal keys. Each value carries its length, so no separator can
// make two rows collide.
static std::string RowKey(const DataChunk& chunk, idx_t row) {
  std::string key;
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) {
    if (!chunk.data[c].IsValid(row)) {
      key += "N;";
      continue;
    }
    std::string text = chunk.data[c].GetValue(row).ToString();
    key += std::to_string(text.size()) + ":" + text;
  }
  return key;
}

void PhysicalRecursiveCTE::DropSeenRows(DataChunk& chunk) {
  std::vector<sel_t> keep;
  for (idx_t r = 0; r < chunk.size(); r++) {
    if (seen_.insert(RowKey(chunk, r)).second) keep.push_back(static_cast<sel_t>(r));
  }
  if (keep.size() == chunk.size()) return;
  if (keep.empty()) {
    chunk.Reset();
    return;
  }
  DataChunk kept;
  kept.Initialize(types);
  kept.Append(chunk, keep.data(), keep.size());
  chunk.Reset();
  chunk.Append(kept);
}

bool PhysicalRecursiveCTE::StartIteration() {
  term_.reset();
  if (added_.Count() == 0) return false;
  if (++iterations_ > kMaxIterations) {
    throw InvalidInputError("WITH RECURSIVE " + name_ + ": the recursive part was still adding rows after " +
                            std::to_string(kMaxIterations) +
                            " iterations; give it a condition that stops it (e.g. WHERE depth < n), use UNION instead of "
                            "UNION ALL when it revisits rows, or put a LIMIT on the query that reads it");
  }
  *working_ = std::move(added_);
  added_ = ChunkCollection(types);
  term_ = plan_term_();
  current_ = term_.get();
  return true;
}

bool PhysicalRecursiveCTE::GetChunk(ExecutionContext& context, DataChunk& out) {
  while (!finished_) {
    context.CheckInterrupt();
    out.Reset();
    if (current_->Next(context, out)) {
      if (distinct_) DropSeenRows(out);
      if (out.size() > 0) added_.Append(out);
      return true;
    }
    if (!StartIteration()) finished_ = true;
  }
  return false;
}

}  // namespace lakestream
