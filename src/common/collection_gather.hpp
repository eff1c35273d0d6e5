// CollectionGather: copies rows of a ChunkCollection picked by position (row r
// lives in chunk r / STANDARD_VECTOR_SIZE) into a flat vector, one typed loop
// per column, instead of a Vector::Copy call per row (ORDER BY emitting its
// sorted rows: the per-row calls were a fifth of a large sort's time).
//
// Strings are not copied: the output vector keeps every heap of the
// collection's column alive through one shared handle, built once here.
#pragma once

#include <memory>
#include <vector>

#include "common/chunk_collection.hpp"

namespace lakestream {

class CollectionGather {
 public:
  // `rows` must outlive this object and not change while it is used.
  explicit CollectionGather(const ChunkCollection& rows);
  // out[out_offset + i] = rows[positions[i]] of `column`, for i in [0, count);
  // `out` must hold out_offset + count rows. copy_strings: the string bytes
  // are copied into out's heap instead (a copy meant to outlive the
  // collection's heaps, e.g. top-N keeping a few rows of many chunks).
  void Gather(idx_t column, const uint64_t* positions, idx_t count, Vector& out, idx_t out_offset = 0,
              bool copy_strings = false) const;

 private:
  const ChunkCollection& rows_;
  // Per column, per chunk: the raw rows and validity bytes (flat types only).
  std::vector<std::vector<const uint8_t*>> data_, validity_;
  // Per VARCHAR column: a handle keeping all its chunks' string heaps alive.
  std::vector<std::shared_ptr<StringHeap>> heaps_;
};

}  // namespace lakestream
