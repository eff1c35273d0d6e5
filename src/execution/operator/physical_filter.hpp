#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// Keeps the rows for which the predicate is TRUE.
class PhysicalFilter : public PhysicalOperator {
 public:
  PhysicalFilter(PhysicalOperatorPtr child, BoundExprPtr predicate);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "FILTER"; }
  std::string Details() const override { return predicate_->ToString(); }

 private:
  BoundExprPtr predicate_;
  DataChunk input_;
  std::vector<sel_t> sel_;
};

}  // namespace lakestream
