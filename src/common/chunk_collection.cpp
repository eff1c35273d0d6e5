#include "common/chunk_collection.hpp"

#include <algorithm>

namespace lakestream {

void ChunkCollection::Append(const DataChunk& chunk) {
  if (types_.empty()) types_ = chunk.GetTypes();
  idx_t offset = 0;
  while (offset < chunk.size()) {
    if (chunks_.empty() || chunks_.back()->size() == STANDARD_VECTOR_SIZE) {
      chunks_.push_back(std::make_unique<DataChunk>());
      chunks_.back()->Initialize(types_);
    }
    DataChunk& last = *chunks_.back();
    idx_t n = std::min(STANDARD_VECTOR_SIZE - last.size(), chunk.size() - offset);
    for (idx_t c = 0; c < types_.size(); c++) last.data[c].Copy(chunk.data[c], nullptr, n, offset, last.size());
    last.SetCardinality(last.size() + n);
    offset += n;
    count_ += n;
  }
}

bool ChunkCollection::Append(DataChunk&& chunk) {
  if (types_.empty()) types_ = chunk.GetTypes();
  bool movable = (chunks_.empty() || chunks_.back()->size() == STANDARD_VECTOR_SIZE) && chunk.size() > 0 &&
                 chunk.size() <= STANDARD_VECTOR_SIZE && chunk.ColumnCount() == types_.size();
  for (idx_t c = 0; movable && c < types_.size(); c++) movable = chunk.data[c].GetType() == types_[c];
  if (!movable) {
    Append(static_cast<const DataChunk&>(chunk));
    return false;
  }
  count_ += chunk.size();
  chunks_.push_back(std::make_unique<DataChunk>(std::move(chunk)));
  return true;
}

void ChunkCollection::Merge(ChunkCollection&& other) {
  if (types_.empty()) types_ = other.types_;
  bool movable = chunks_.empty() || chunks_.back()->size() == STANDARD_VECTOR_SIZE;
  for (idx_t i = 0; i + 1 < other.chunks_.size() && movable; i++) movable = other.chunks_[i]->size() == STANDARD_VECTOR_SIZE;
  if (!movable) {
    for (auto& chunk : other.chunks_) Append(*chunk);
  } else {
    for (auto& chunk : other.chunks_) {
      count_ += chunk->size();
      chunks_.push_back(std::move(chunk));
    }
  }
  other.Clear();
}

Value ChunkCollection::GetValue(idx_t column, idx_t row) const {
  return chunks_[row / STANDARD_VECTOR_SIZE]->GetValue(column, row % STANDARD_VECTOR_SIZE);
}

std::shared_ptr<ChunkCollection> MakeSingleRow() {
  auto rows = std::make_shared<ChunkCollection>(std::vector<LogicalType>{TypeId::BOOLEAN});
  DataChunk chunk;
  chunk.Initialize({TypeId::BOOLEAN}, 1);
  chunk.SetValue(0, 0, Value::BOOLEAN(true));
  chunk.SetCardinality(1);
  rows->Append(chunk);
  return rows;
}

}  // namespace lakestream
