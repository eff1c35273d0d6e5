// CollectionGather: copies rows of a ChunkCollection picked by position (row r
// lives in chunk r / STANDARD_VECTOR_SIZE) into a flat vector, one typed loop
// per column, instead of a Vector::Copy call per row (ORDER BY emitting its
// sorted rows: the per-row calls were a fifth of a large sort's time).
//
// Strings are not copied: the output vector keeps every heap of the
// collection's column alive through one shared handle, built once here.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "common/chunk_collection.hpp"

namespace lakestream {

// out[out_offset + i] = row positions[i] of a flat column kept as per-chunk
// pointers (data[k], validity[k]: chunk k's raw values and validity bytes;
// position p lives in chunk p / STANDARD_VECTOR_SIZE), one typed loop. False
// for a type that is not flat (nested: gather those row by row). Strings are
// gathered as references: the caller keeps their heaps alive. Shared by
// CollectionGather and the hash join's build-side gather.
template <class POSITION>
bool GatherFlatColumn(const std::vector<const uint8_t*>& data, const std::vector<const uint8_t*>& validity,
                      const POSITION* positions, idx_t count, Vector& out, idx_t out_offset = 0);

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

namespace gather_detail {
template <class T, class POSITION>
void GatherTyped(const std::vector<const uint8_t*>& data, const std::vector<const uint8_t*>& validity,
                 const POSITION* positions, idx_t count, Vector& out, idx_t out_offset) {
  T* dst = out.GetData<T>() + out_offset;
  uint8_t* valid = out.Validity() + out_offset;
  const uint8_t* const* chunks = data.data();
  const uint8_t* const* valid_chunks = validity.data();
  for (idx_t i = 0; i < count; i++) {
    const idx_t chunk = positions[i] / STANDARD_VECTOR_SIZE;
    const idx_t offset = positions[i] % STANDARD_VECTOR_SIZE;
    std::memcpy(dst + i, chunks[chunk] + offset * sizeof(T), sizeof(T));
    valid[i] = valid_chunks[chunk][offset];
  }
}
}  // namespace gather_detail

template <class POSITION>
bool GatherFlatColumn(const std::vector<const uint8_t*>& data, const std::vector<const uint8_t*>& validity,
                      const POSITION* positions, idx_t count, Vector& out, idx_t out_offset) {
  using gather_detail::GatherTyped;
  switch (out.GetType().id()) {
    case TypeId::BOOLEAN:  // as bytes: a NULL row's slot may hold any byte, not a valid bool
      GatherTyped<uint8_t>(data, validity, positions, count, out, out_offset);
      return true;
    case TypeId::INTEGER:
    case TypeId::DATE: GatherTyped<int32_t>(data, validity, positions, count, out, out_offset); return true;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: GatherTyped<int64_t>(data, validity, positions, count, out, out_offset); return true;
    case TypeId::DOUBLE: GatherTyped<double>(data, validity, positions, count, out, out_offset); return true;
    case TypeId::DECIMAL: GatherTyped<hugeint_t>(data, validity, positions, count, out, out_offset); return true;
    case TypeId::INTERVAL: GatherTyped<interval_t>(data, validity, positions, count, out, out_offset); return true;
    case TypeId::VARCHAR: GatherTyped<string_t>(data, validity, positions, count, out, out_offset); return true;
    default: return false;
  }
}

}  // namespace lakestream
