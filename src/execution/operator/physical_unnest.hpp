#pragma once

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// explode / posexplode / explode_outer / UNNEST: for each input row, one
// output row per element of `collection` (a LIST or MAP expression over the
// input), holding the input row's columns, then [the 0-based position], then
// the element (or the MAP entry's key and value). A NULL or empty collection
// gives no row, or with `outer` one row whose generated columns are NULL.
// Works a chunk at a time: the collection is evaluated once per input chunk
// and the output is cut into chunks of STANDARD_VECTOR_SIZE rows, so one row
// with a huge array never builds a huge chunk; interrupts are checked once per
// input chunk.
class PhysicalUnnest : public PhysicalOperator {
 public:
  PhysicalUnnest(PhysicalOperatorPtr child, BoundExprPtr collection, const std::vector<LogicalType>& generated_types,
                 bool position, bool outer);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "UNNEST"; }
  std::string Details() const override;

 private:
  BoundExprPtr collection_;
  bool position_;
  bool outer_;
  DataChunk input_;
  Vector values_;
  idx_t row_ = 0;      // next input row to emit from
  idx_t element_ = 0;  // next element of that row
  bool has_input_ = false;
};

}  // namespace lakestream
