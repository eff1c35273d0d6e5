#include "execution/operator/physical_filter.hpp"

namespace lakestream {

PhysicalFilter::PhysicalFilter(PhysicalOperatorPtr child, BoundExprPtr predicate)
    : PhysicalOperator(child->types), predicate_(std::move(predicate)) {
  children.push_back(std::move(child));
  children[0]->InitializeChunk(input_);
}

void PhysicalFilter::AllowSelection() {
  SelectedOutput::AllowSelection();
  source_ = AllowSelectedOutput(*children[0]);
}

bool PhysicalFilter::GetChunk(ExecutionContext& context, DataChunk& out) {
  ExpressionExecutor& executor = Executor(context);
  selection_ = ChunkSelection{};
  while (children[0]->Next(context, input_)) {
    context.CheckInterrupt();
    if (input_.size() == 0) continue;
    ChunkSelection in = source_ ? source_->Selection() : ChunkSelection{};
    sel_.resize(input_.size());
    idx_t n = executor.Select(*predicate_, input_, in.rows, in.rows ? in.count : input_.size(), sel_.data());
    if (n == 0) continue;
    out.Reset();
    bool whole = n == input_.size();
    if (whole || SelectKept(n, input_.size())) {
      for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Reference(input_.data[c], input_.size());
      out.SetCardinality(input_.size());
      if (!whole) selection_ = ChunkSelection{sel_.data(), n};
    } else {
      out.Append(input_, sel_.data(), n);
    }
    return true;
  }
  return false;
}

}  // namespace lakestream
