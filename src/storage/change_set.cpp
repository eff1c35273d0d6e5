#include "storage/change_set.hpp"

namespace lakestream {

const char* ChangeFeedName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::INSERT:
    case ChangeKind::SNAPSHOT: return "insert";
    case ChangeKind::DELETE: return "delete";
    case ChangeKind::UPDATE_PREIMAGE: return "update_preimage";
    case ChangeKind::UPDATE_POSTIMAGE: return "update_postimage";
  }
  return "delete";
}

const char* StreamChangeName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::INSERT:
    case ChangeKind::SNAPSHOT: return "INSERT";
    case ChangeKind::DELETE: return "DELETE";
    case ChangeKind::UPDATE_PREIMAGE: return "UPDATE_BEFORE";
    case ChangeKind::UPDATE_POSTIMAGE: return "UPDATE_AFTER";
  }
  return "DELETE";
}

std::optional<ChangeKind> ParseChangeType(std::string_view name) {
  for (ChangeKind kind : {ChangeKind::INSERT, ChangeKind::DELETE, ChangeKind::UPDATE_PREIMAGE, ChangeKind::UPDATE_POSTIMAGE}) {
    if (name == ChangeFeedName(kind) || name == StreamChangeName(kind)) return kind;
  }
  return std::nullopt;
}

void ChangeSet::Add(const DataChunk& chunk, ChangeKind kind) {
  if (chunk.size() == 0) return;
  if (rows.Types().empty()) rows.SetTypes(chunk.GetTypes());
  rows.Append(chunk);
  kinds.insert(kinds.end(), chunk.size(), kind);
}

bool ChangeSet::AddKept(const DataChunk& chunk, const sel_t* sel, idx_t count, ChangeKind kind) {
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
