// ORDER BY: materialises its input, sorts row positions with a comparator over
// the key columns (NULLS FIRST/LAST per key), and emits rows in that order.
// The sort is stable, so ties keep their input order.
#pragma once

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class PhysicalOrder : public PhysicalOperator {
 public:
  PhysicalOrder(PhysicalOperatorPtr child, std::vector<BoundOrder> orders);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "ORDER_BY"; }
  std::string Details() const override;

 private:
  void Sort(ExecutionContext& context);

  std::vector<BoundOrder> orders_;
  bool sorted_ = false;
  ChunkCollection rows_;
  ChunkCollection keys_;
  std::vector<uint64_t> permutation_;
  idx_t position_ = 0;
};

}  // namespace lakestream
