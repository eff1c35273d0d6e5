#include "common/collection_gather.hpp"

#include <cstring>

namespace lakestream {

namespace {

// Holds the heaps of many vectors; shared through an aliasing pointer to `tag`.
struct HeapAnchor {
  Vector holder{TypeId::VARCHAR, 1};
  StringHeap tag;
};

bool Flat(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN:
    case TypeId::INTEGER:
    case TypeId::DATE:
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::DOUBLE:
    case TypeId::DECIMAL:
    case TypeId::INTERVAL:
    case TypeId::VARCHAR:
      return true;
    default:
      return false;
  }
}

}  // namespace

CollectionGather::CollectionGather(const ChunkCollection& rows)
    : rows_(rows), data_(rows.Types().size()), validity_(rows.Types().size()), heaps_(rows.Types().size()) {
  for (idx_t c = 0; c < rows.Types().size(); c++) {
    if (!Flat(rows.Types()[c])) continue;
    std::shared_ptr<HeapAnchor> anchor;
    if (rows.Types()[c].id() == TypeId::VARCHAR) anchor = std::make_shared<HeapAnchor>();
    for (idx_t k = 0; k < rows.ChunkCount(); k++) {
      const Vector& v = rows.Chunk(k).data[c];
      data_[c].push_back(v.GetData<uint8_t>());
      validity_[c].push_back(v.Validity());
      if (anchor) anchor->holder.AddHeapReference(v);
    }
    if (anchor) heaps_[c] = std::shared_ptr<StringHeap>(anchor, &anchor->tag);
  }
}

void CollectionGather::Gather(idx_t column, const uint64_t* positions, idx_t count, Vector& out, idx_t out_offset,
                              bool copy_strings) const {
  const auto& data = data_[column];
  const auto& validity = validity_[column];
  if (GatherFlatColumn(data, validity, positions, count, out, out_offset)) {
    if (out.GetType().id() != TypeId::VARCHAR) return;
    if (!copy_strings) {
      out.AddHeapReference(heaps_[column]);
      return;
    }
    for (idx_t i = 0; i < count; i++) {
      string_t& s = out.GetData<string_t>()[out_offset + i];
      if (out.IsValid(out_offset + i)) s = out.AddString(s);
    }
    return;
  }
  // Nested columns: row by row (their children are not flat).
  for (idx_t i = 0; i < count; i++) {
    const uint64_t p = positions[i];
    out.Copy(rows_.Chunk(p / STANDARD_VECTOR_SIZE).data[column], nullptr, 1, p % STANDARD_VECTOR_SIZE, out_offset + i);
  }
}

}  // namespace lakestream
