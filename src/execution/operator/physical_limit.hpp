#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// LIMIT / OFFSET. Stops pulling from its child once the limit is reached.
class PhysicalLimit : public PhysicalOperator {
 public:
  // limit < 0: no limit.
  PhysicalLimit(PhysicalOperatorPtr child, int64_t limit, int64_t offset);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "LIMIT"; }
  std::string Details() const override { return std::to_string(limit_) + " OFFSET " + std::to_string(offset_); }

 private:
  int64_t limit_;
  int64_t offset_;
  int64_t seen_ = 0;     // rows read from the child
  int64_t emitted_ = 0;  // rows returned
  DataChunk input_;
};

}  // namespace lakestream
