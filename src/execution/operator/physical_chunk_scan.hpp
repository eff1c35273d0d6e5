#pragma once

#include <memory>

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"

namespace lakestream {

// Emits the rows of a materialised ChunkCollection (VALUES, table functions,
// a constant row for SELECT without FROM).
class PhysicalChunkScan : public PhysicalOperator {
 public:
  PhysicalChunkScan(std::shared_ptr<ChunkCollection> rows, std::string label = "CHUNK_SCAN");
  // Emits only the columns `projected` (positions in rows' types), in that order;
  // the rows may be shared with other scans (a stream read twice in one statement).
  PhysicalChunkScan(std::shared_ptr<const ChunkCollection> rows, std::vector<idx_t> projected, std::string label);
  bool Next(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return label_; }

 private:
  std::shared_ptr<const ChunkCollection> rows_;
  std::vector<idx_t> projected_;  // output column i = rows_ column projected_[i]
  std::string label_;
  idx_t position_ = 0;
};

}  // namespace lakestream
