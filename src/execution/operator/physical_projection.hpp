#pragma once

#include "execution/operator/physical_operator.hpp"
#include "execution/operator/selected_output.hpp"

namespace lakestream {

// Computes one output column per expression. Once allowed
// (selected_output.hpp) and when every expression is repeatable, it
// evaluates its child's chunk whole and hands the child's selection on.
class PhysicalProjection : public PhysicalOperator, public SelectedOutput {
 public:
  PhysicalProjection(PhysicalOperatorPtr child, std::vector<BoundExprPtr> expressions);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "PROJECTION"; }
  std::string Details() const override;
  void AllowSelection() override;

 private:
  std::vector<BoundExprPtr> expressions_;
  DataChunk input_;
  SelectedOutput* source_ = nullptr;  // the child, when it returns selections
};

}  // namespace lakestream
