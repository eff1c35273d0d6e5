#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// Keeps the rows for which the predicate is TRUE.
class PhysicalFilter : public PhysicalOperator {
 public:
  PhysicalFilter(PhysicalOperatorPtr child, BoundExprPtr predicate);
  bool Next(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "FILTER"; }
  std::string Details() const override { return predicate_->ToString(); }

 private:
  // Created on first use, kept so its scratch vectors are reused chunk after chunk.
  ExpressionExecutor& Executor(ExecutionContext& context) {
    if (!executor_) executor_ = std::make_unique<ExpressionExecutor>(context.function_context);
    return *executor_;
  }
  std::unique_ptr<ExpressionExecutor> executor_;
  BoundExprPtr predicate_;
  DataChunk input_;
  std::vector<sel_t> sel_;
};

}  // namespace lakestream
