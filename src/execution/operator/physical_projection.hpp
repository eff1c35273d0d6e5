#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// Computes one output column per expression.
class PhysicalProjection : public PhysicalOperator {
 public:
  PhysicalProjection(PhysicalOperatorPtr child, std::vector<BoundExprPtr> expressions);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "PROJECTION"; }
  std::string Details() const override;

 private:
  std::vector<BoundExprPtr> expressions_;
  DataChunk input_;
};

}  // namespace lakestream
