#include "execution/operator/physical_projection.hpp"

#include "expression/repeatable.hpp"

namespace lakestream {

static std::vector<LogicalType> TypesOf(const std::vector<BoundExprPtr>& expressions) {
  std::vector<LogicalType> types;
  types.reserve(expressions.size());
  for (auto& e : expressions) types.push_back(e->return_type);
  return types;
}

PhysicalProjection::PhysicalProjection(PhysicalOperatorPtr child, std::vector<BoundExprPtr> expressions)
    : PhysicalOperator(TypesOf(expressions)), expressions_(std::move(expressions)) {
  children.push_back(std::move(child));
  children[0]->InitializeChunk(input_);
}

std::string PhysicalProjection::Details() const {
  std::string d;
  for (auto& e : expressions_) d += (d.empty() ? "" : ", ") + e->ToString();
  return d;
}

void PhysicalProjection::AllowSelection() {
  for (auto& e : expressions_) {
    if (!IsRepeatable(*e)) return;  // evaluated on rows outside the selection: no side effects allowed
  }
  SelectedOutput::AllowSelection();
  source_ = AllowSelectedOutput(*children[0]);
}

bool PhysicalProjection::GetChunk(ExecutionContext& context, DataChunk& out) {
  ExpressionExecutor& executor = Executor(context);
  selection_ = ChunkSelection{};
  while (children[0]->Next(context, input_)) {
    if (input_.size() == 0) continue;
    ChunkSelection in = source_ ? source_->Selection() : ChunkSelection{};
    bool cut = EvaluateOnSelection(input_, in, [&] {
      out.Reset();
      for (idx_t i = 0; i < expressions_.size(); i++) executor.Execute(*expressions_[i], input_, out.data[i]);
    });
    out.SetCardinality(input_.size());
    selection_ = in;
    // Cut down to the selected rows: the child's next chunk needs the full capacity.
    if (cut) children[0]->InitializeChunk(input_);
    return true;
  }
  return false;
}

}  // namespace lakestream
