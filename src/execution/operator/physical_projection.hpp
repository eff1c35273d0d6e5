#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// Computes one output column per expression.
class PhysicalProjection : public PhysicalOperator {
 public:
  PhysicalProjection(PhysicalOperatorPtr child, std::vector<BoundExprPtr> expressions);
  bool Next(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "PROJECTION"; }
  std::string Details() const override;

 private:
  // Created on first use, kept so its scratch vectors are reused chunk after chunk.
  ExpressionExecutor& Executor(ExecutionContext& context) {
    if (!executor_) executor_ = std::make_unique<ExpressionExecutor>(context.function_context);
    return *executor_;
  }
  std::unique_ptr<ExpressionExecutor> executor_;
  std::vector<BoundExprPtr> expressions_;
  DataChunk input_;
};

}  // namespace lakestream
