#pragma once

#include "execution/operator/physical_operator.hpp"
#include "execution/operator/selected_output.hpp"

namespace lakestream {

// Keeps the rows for which the predicate is TRUE. Once allowed
// (selected_output.hpp), it tests only the rows of its child's selection and
// hands on the rows it keeps as a selection when they are at least half of
// the chunk.
class PhysicalFilter : public PhysicalOperator, public SelectedOutput {
 public:
  PhysicalFilter(PhysicalOperatorPtr child, BoundExprPtr predicate);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "FILTER"; }
  std::string Details() const override { return predicate_->ToString(); }
  void AllowSelection() override;

 private:
  BoundExprPtr predicate_;
  DataChunk input_;
  std::vector<sel_t> sel_;
  SelectedOutput* source_ = nullptr;  // the child, when it returns selections
};

}  // namespace lakestream
