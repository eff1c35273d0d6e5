// ChangeSet: the rows one commit of a table changed, each with its kind (a
// Z-set in DBSP's terms: an insert or post-image weighs +1, a delete or
// pre-image -1). The statement commit makes one from what it wrote
// (transaction/statement_commit.hpp) and hands it to view maintenance in
// memory (ivm/view_refresh.hpp), which then does not read the commit's files
// back: an INSERT's rows as it appends them (storage/table_append.hpp), an
// UPDATE's, DELETE's or MERGE's as the Delta commit writes its change data
// files (TableCommit::written). Streams, views and sinks share ChangeKind
// (below); readers of the change data feed map `_change_type` onto it with
// ParseChangeType, and only the change files and the SQL surface spell it
// out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/chunk_collection.hpp"

namespace lakestream {

class DataTable;

// What happened to one row: the one change-kind type of commits, streams,
// views and sinks. Its spellings exist only where SQL or a file shows them:
// ChangeFeedName (Delta's `_change_type`, table_changes()) and
// StreamChangeName (a table stream's `__change_type`); ParseChangeType reads
// either. SNAPSHOT: a row of a sink's initial snapshot, delivered as an
// insert is (never in a commit's changes).
enum class ChangeKind : uint8_t { INSERT, DELETE, UPDATE_PREIMAGE, UPDATE_POSTIMAGE, SNAPSHOT };

// "insert", "delete", "update_preimage", "update_postimage" (SNAPSHOT: "insert").
const char* ChangeFeedName(ChangeKind kind);
// "INSERT", "DELETE", "UPDATE_BEFORE", "UPDATE_AFTER" (SNAPSHOT: "INSERT").
const char* StreamChangeName(ChangeKind kind);
// The kind a `_change_type` or `__change_type` value names; nullopt for
// anything else (the caller names the damaged feed).
std::optional<ChangeKind> ParseChangeType(std::string_view name);
// True for INSERT, UPDATE_POSTIMAGE and SNAPSHOT: the row is in the table after the change.
inline bool ChangeAdds(ChangeKind kind) {
  return kind == ChangeKind::INSERT || kind == ChangeKind::UPDATE_POSTIMAGE || kind == ChangeKind::SNAPSHOT;
}

struct ChangeSet {
  // The table whose commit this is (its storage, which outlives the statement).
  const DataTable* table = nullptr;
  // The table's path and Delta table id, set when the commit keeps the set:
  // a set kept past its statement (ClientContext::RecentChanges) is matched
  // by these as well as by `table`, whose address a table created after the
  // first was dropped can reuse.
  std::string table_identity;
  // The commit made the table go from `from_version` to `to_version`
  // (to_version = from_version + 1: one commit).
  int64_t from_version = -1;
  int64_t to_version = -1;
  // Every column of the table, in table order, one row per change.
  ChunkCollection rows;
  std::vector<ChangeKind> kinds;  // one per row of `rows`

  // Appends `chunk`'s rows, all of kind `kind`.
  void Add(const DataChunk& chunk, ChangeKind kind);
  // The most rows a commit keeps in memory for view maintenance; a larger
  // commit's changes are read back from its change data files.
  static constexpr idx_t kKeptRowsLimit = 16384;
  // Appends the `count` rows of `chunk` that `sel` selects (all when null),
  // of kind `kind`, unless that would pass kKeptRowsLimit: then empties the
  // set and returns false.
  bool AddKept(const DataChunk& chunk, const sel_t* sel, idx_t count, ChangeKind kind);
};

}  // namespace lakestream
