// ChunkCollection: an in-memory list of DataChunks of one schema, for
// materialised intermediate results (sort input, hash join build side, DML rows).
#pragma once

#include <memory>
#include <vector>

#include "common/vector.hpp"

namespace lakestream {

class ChunkCollection {
 public:
  ChunkCollection() = default;
  explicit ChunkCollection(std::vector<LogicalType> types) : types_(std::move(types)) {}

  const std::vector<LogicalType>& Types() const { return types_; }
  void SetTypes(std::vector<LogicalType> types) { types_ = std::move(types); }
  idx_t Count() const { return count_; }
  idx_t ChunkCount() const { return chunks_.size(); }
  DataChunk& Chunk(idx_t i) { return *chunks_[i]; }
  const DataChunk& Chunk(idx_t i) const { return *chunks_[i]; }

  // Copies the rows of `chunk` in, filling the last chunk before starting a new
  // one, so row r lives in chunk r / STANDARD_VECTOR_SIZE at r % STANDARD_VECTOR_SIZE.
  void Append(const DataChunk& chunk);
  // The same, but takes over `chunk` itself instead of copying its rows when
  // the layout allows (this collection's last chunk is full and `chunk` holds
  // 1 to STANDARD_VECTOR_SIZE rows of the collection's types). Returns true
  // when it did: `chunk` is then moved-from and must be initialized again.
  bool Append(DataChunk&& chunk);
  // Appends all of `other`'s rows, moving its chunks instead of copying them
  // when the layout allows (this collection's last chunk is full).
  void Merge(ChunkCollection&& other);
  Value GetValue(idx_t column, idx_t row) const;
  // Moves the chunks out (the collection is left empty).
  std::vector<std::unique_ptr<DataChunk>> TakeChunks() {
    count_ = 0;
    return std::move(chunks_);
  }
  void Clear() {
    chunks_.clear();
    count_ = 0;
  }

 private:
  std::vector<LogicalType> types_;
  std::vector<std::unique_ptr<DataChunk>> chunks_;
  idx_t count_ = 0;
};

// The single row of `SELECT 1` (no FROM): one row, one column that nothing reads.
std::shared_ptr<ChunkCollection> MakeSingleRow();

}  // namespace lakestream
