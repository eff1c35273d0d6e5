#include "execution/operator/physical_filter.hpp"

namespace lakestream {

PhysicalFilter::PhysicalFilter(PhysicalOperatorPtr child, BoundExprPtr predicate)
    : PhysicalOperator(child->types), predicate_(std::move(predicate)) {
  children.push_back(std::move(child));
  children[0]->InitializeChunk(input_);
}

bool PhysicalFilter::GetChunk(ExecutionContext& context, DataChunk& out) {
  ExpressionExecutor& executor = Executor(context);
  while (children[0]->Next(context, input_)) {
    context.CheckInterrupt();
    if (input_.size() == 0) continue;
    idx_t n = executor.Select(*predicate_, input_, sel_);
    if (n == 0) continue;
    out.Reset();
    if (n == input_.size()) {
      for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Reference(input_.data[c], n);
      out.SetCardinality(n);
    } else {
      out.Append(input_, sel_.data(), n);
    }
    return true;
  }
  return false;
}

}  // namespace lakestream
