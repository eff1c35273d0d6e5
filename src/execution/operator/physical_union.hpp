#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// UNION ALL: every row of each child in turn (children already cast to `types`).
class PhysicalUnionAll : public PhysicalOperator {
 public:
  PhysicalUnionAll(std::vector<LogicalType> types, std::vector<PhysicalOperatorPtr> inputs);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "UNION_ALL"; }

 private:
  idx_t current_ = 0;
};

}  // namespace lakestream
