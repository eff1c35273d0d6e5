// ChangeSet: the rows one commit of a table changed, each with its kind (a
// Z-set in DBSP's terms: an insert or post-image weighs +1, a delete or
// pre-image -1). The statement commit makes one from what it wrote
// (transaction/statement_commit.hpp) and hands it to view maintenance in
// memory (ivm/view_refresh.hpp), which then does not read the commit's files
// back: an INSERT's rows as it appends them (storage/table_append.hpp), an
// UPDATE's, DELETE's or MERGE's as the Delta commit writes its change data
// files (TableCommit::written). Readers of the change data feed files map `_change_type` onto
// RowChangeKind with ParseRowChangeKind; the strings exist only at the SQL
// surface. (Sinks still have their own ChangeKind, connector/sink_message.hpp,
// with a SNAPSHOT kind besides these.)
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/chunk_collection.hpp"

namespace lakestream {

class DataTable;

enum class RowChangeKind : uint8_t { INSERT, DELETE, UPDATE_PREIMAGE, UPDATE_POSTIMAGE };

// "insert", "delete", "update_preimage", "update_postimage" (the change feed's _change_type).
const char* RowChangeKindName(RowChangeKind kind);
// The kind a `_change_type` value names; anything else is a DELETE (a row
// the feed does not say was added is treated as removed, as readers did).
RowChangeKind ParseRowChangeKind(std::string_view name);
// True for INSERT and UPDATE_POSTIMAGE: the row is in the table after the change.
inline bool RowChangeAdds(RowChangeKind kind) { return kind == RowChangeKind::INSERT || kind == RowChangeKind::UPDATE_POSTIMAGE; }

struct ChangeSet {
  // The table whose commit this is (its storage, which outlives the statement).
  const DataTable* table = nullptr;
  // The commit made the table go from `from_version` to `to_version`
  // (to_version = from_version + 1: one commit).
  int64_t from_version = -1;
  int64_t to_version = -1;
  // Every column of the table, in table order, one row per change.
  ChunkCollection rows;
  std::vector<RowChangeKind> kinds;  // one per row of `rows`

  // Appends `chunk`'s rows, all of kind `kind`.
  void Add(const DataChunk& chunk, RowChangeKind kind);
  // The most rows a commit keeps in memory for view maintenance; a larger
  // commit's changes are read back from its change data files.
  static constexpr idx_t kKeptRowsLimit = 16384;
  // Appends the `count` rows of `chunk` that `sel` selects (all when null),
  // of kind `kind`, unless that would pass kKeptRowsLimit: then empties the
  // set and returns false.
  bool AddKept(const DataChunk& chunk, const sel_t* sel, idx_t count, RowChangeKind kind);
};

}  // namespace lakestream
