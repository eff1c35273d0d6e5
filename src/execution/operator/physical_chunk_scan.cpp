#include "execution/operator/physical_chunk_scan.hpp"

namespace lakestream {

PhysicalChunkScan::PhysicalChunkScan(std::shared_ptr<ChunkCollection> rows, std::string label)
    : PhysicalOperator(rows->Types()), rows_(std::move(rows)), label_(std::move(label)) {
  projected_.reserve(types.size());
  for (idx_t c = 0; c < types.size(); c++) projected_.push_back(c);
}

static std::vector<LogicalType> ProjectTypes(const ChunkCollection& rows, const std::vector<idx_t>& projected) {
  std::vector<LogicalType> types;
  types.reserve(projected.size());
  for (idx_t c : projected) types.push_back(rows.Types()[c]);
  return types;
}

PhysicalChunkScan::PhysicalChunkScan(std::shared_ptr<const ChunkCollection> rows, std::vector<idx_t> projected, std::string label)
    : PhysicalOperator(ProjectTypes(*rows, projected)), rows_(std::move(rows)), projected_(std::move(projected)), label_(std::move(label)) {}

bool PhysicalChunkScan::Next(ExecutionContext&, DataChunk& out) {
  if (position_ >= rows_->ChunkCount()) return false;
  const DataChunk& chunk = rows_->Chunk(position_++);
  out.Reset();
  for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(chunk.data[projected_[c]], nullptr, chunk.size(), 0, 0);
  out.SetCardinality(chunk.size());
  return true;
}

}  // namespace lakestream
