#include "execution/operator/physical_limit.hpp"

#include <algorithm>

namespace lakestream {

PhysicalLimit::PhysicalLimit(PhysicalOperatorPtr child, int64_t limit, int64_t offset)
    : PhysicalOperator(child->types), limit_(limit), offset_(offset) {
  children.push_back(std::move(child));
  children[0]->InitializeChunk(input_);
}

bool PhysicalLimit::GetChunk(ExecutionContext& context, DataChunk& out) {
  while (limit_ < 0 || emitted_ < limit_) {
    if (!children[0]->Next(context, input_)) return false;
    int64_t n = static_cast<int64_t>(input_.size());
    int64_t start = std::max<int64_t>(0, offset_ - seen_);
    seen_ += n;
    if (start >= n) continue;
    int64_t take = n - start;
    if (limit_ >= 0) take = std::min(take, limit_ - emitted_);
    out.Reset();
    for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(input_.data[c], nullptr, take, start, 0);
    out.SetCardinality(take);
    emitted_ += take;
    return true;
  }
  return false;
}

}  // namespace lakestream
