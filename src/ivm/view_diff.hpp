// The diff that makes a view's change feed hold only real changes: given what
// the view holds and what it should hold (all of it, or the part a refresh
// touched), it builds the TableCommit that changes exactly the rows that
// differ. A row that stays equal emits nothing; a row whose key (the GROUP BY
// keys) stays but whose values change becomes one update (Delta writes the
// update_preimage/update_postimage pair); the rest are inserts and deletes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "storage/data_table.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

using Row = std::vector<Value>;

// An unambiguous binary encoding of the values of `columns` (all when empty)
// of a row, for hashing rows and keys. For rows of the same column types, two
// encodings are equal exactly when the values are equal as Value::Compare
// and GROUP BY see them (NULL equals NULL).
std::string EncodeRow(const Row& row, const std::vector<idx_t>& columns = {});

// Appends the encoding of a vector's row to `out`: the bytes EncodeRow gives
// that value, without building a Value for the common flat types.
void AppendVectorValue(const Vector& v, idx_t row, std::string& out);

// Appends rows `sel` of `chunk` (same types as `out`) to `out`.
void AppendSelected(ChunkCollection& out, const DataChunk& chunk, const std::vector<sel_t>& sel);

// The rows of a collection as Values.
std::vector<Row> CollectRows(const ChunkCollection& rows);
// Calls `fn` with each row of a collection as Values, in one reused Row (for
// rows that are read once: no vector of rows is built).
void ForEachRow(const ChunkCollection& rows, const std::function<void(const Row&)>& fn);
// Rows of Values as a collection of the given types.
ChunkCollection MakeCollection(const std::vector<LogicalType>& types, const std::vector<Row>& rows);
ChunkCollection MakeCollection(const std::vector<LogicalType>& types, const std::vector<const Row*>& rows);

// Rows of a view with their row ids (valid for the snapshot scanned).
struct ViewRows {
  std::vector<Row> rows;
  std::vector<row_t> ids;
  // The whole files that hold `rows` (a Delta view), for the refresh's
  // commit to rewrite without reading them again (DeltaTable::Commit).
  DeltaFileRows files;
};

// Scans every column of `view` (of `types`) in order, calling `fn` with each
// chunk and its row ids; `fn` says whether the chunk holds a row the caller
// wants. For a Delta view, `files` (may be null) gets the scan's version and
// the whole files (every row in file order, at most 1M rows) that hold a
// wanted row, for DeltaTable::Commit to rewrite without reading them again.
void ScanView(DataTable& view, const std::vector<LogicalType>& types, DeltaFileRows* files,
              const std::function<bool(const DataChunk&, const int64_t*)>& fn);

// Scans the view (its columns are `types`); when `keep` is set, only the rows
// whose encoded `key_columns` (all columns when empty) it accepts are returned.
ViewRows ScanViewRows(DataTable& view, const std::vector<LogicalType>& types, const std::vector<idx_t>& key_columns,
                      const std::function<bool(const std::string&)>& keep = nullptr);

// Adds to `commit` what turns `old_rows` into `new_rows`. With key columns,
// old and new rows pair by key (keys must be unique on each side; otherwise
// rows pair as a whole). Updates are added in the order of the row ids they
// replace (the order DeltaTable::Commit writes their new versions in).
void DiffRows(const ViewRows& old_rows, const std::vector<Row>& new_rows, const std::vector<idx_t>& key_columns,
              const std::vector<LogicalType>& types, TableCommit& commit);

// Finds a distinct view row equal to each of `wanted` (a row named twice is
// found twice): their row ids into out.ids (aligned with `wanted`); false
// when the view holds fewer. ApplyBagChange's default scans the view.
using RowLocator = std::function<bool(const ChunkCollection& wanted, std::vector<row_t>& ids)>;

// Adds to `commit` a bag change: one view row equal to each row of `minus`
// goes, each row of `plus` comes (a row in both cancels out). Removals and
// additions with the same key become updates. Returns false when the view
// does not hold a row `minus` names (then the caller recomputes instead).
// `read`: the view's files it read (see ViewRows::files). With `locate`,
// the rows to remove are found through it instead of a scan of the view, and
// their values go to `removed` (commit.deleted_rows' and then
// commit.updated_row_ids', for KnownRemovedRows).
bool ApplyBagChange(DataTable& view, const std::vector<LogicalType>& types, const std::vector<Row>& minus,
                    const std::vector<Row>& plus, const std::vector<idx_t>& key_columns, TableCommit& commit,
                    DeltaFileRows& read, const RowLocator& locate = nullptr, ChunkCollection* removed = nullptr);
// The same over the change as collections (the delta rule's output). A view
// without key columns whose removals `locate` finds is changed chunk by
// chunk: its rows never become Values, and the located rows are `removed`
// as they are. Others go through the overload above.
bool ApplyBagChange(DataTable& view, const std::vector<LogicalType>& types, const ChunkCollection& minus,
                    const ChunkCollection& plus, const std::vector<idx_t>& key_columns, TableCommit& commit,
                    DeltaFileRows& read, const RowLocator& locate = nullptr, ChunkCollection* removed = nullptr);

}  // namespace lakestream
