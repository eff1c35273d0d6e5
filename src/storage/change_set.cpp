#include "storage/change_set.hpp"

namespace lakestream {

const char* RowChangeKindName(RowChangeKind kind) {
  switch (kind) {
    case RowChangeKind::INSERT: return "insert";
    case RowChangeKind::DELETE: return "delete";
    case RowChangeKind::UPDATE_PREIMAGE: return "update_preimage";
    case RowChangeKind::UPDATE_POSTIMAGE: return "update_postimage";
  }
  return "delete";
}

RowChangeKind ParseRowChangeKind(std::string_view name) {
  if (name == "insert") return RowChangeKind::INSERT;
  if (name == "update_postimage") return RowChangeKind::UPDATE_POSTIMAGE;
  if (name == "update_preimage") return RowChangeKind::UPDATE_PREIMAGE;
  return RowChangeKind::DELETE;
}

void ChangeSet::Add(const DataChunk& chunk, RowChangeKind kind) {
  if (chunk.size() == 0) return;
  if (rows.Types().empty()) rows.SetTypes(chunk.GetTypes());
  rows.Append(chunk);
  kinds.insert(kinds.end(), chunk.size(), kind);
}

bool ChangeSet::AddKept(const DataChunk& chunk, const sel_t* sel, idx_t count, RowChangeKind kind) {
  if (rows.Count() + count > kKeptRowsLimit) {
    rows = ChunkCollection();
    kinds.clear();
    return false;
  }
  if (count == 0) return true;
  DataChunk selected;
  selected.Initialize(chunk.GetTypes(), count);
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) selected.data[c].Copy(chunk.data[c], sel, count, 0, 0);
  selected.SetCardinality(count);
  Add(selected, kind);
  return true;
}

}  // namespace lakestream
