// DeletionVectorUpdate: how a statement deletes rows from an existing data
// file of a table with delta.enableDeletionVectors = true (merge-on-read):
// instead of rewriting the file without them, it commits
//
//   remove(path, old DV)  +  add(path, new DV = old DV's rows + these rows)
//
// with dataChange = true and the file's statistics kept (numRecords still
// counts the file's physical rows; tightBounds = false, since min/max may
// now describe deleted rows only). A file whose every row is deleted is
// removed outright. The vectors of every file one commit changes go to one
// new deletion_vector_<uuid>.bin in the table's root (deletion_vector.hpp
// has the format), written by Finish() and deleted again when the commit
// never became visible.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "common/file_system.hpp"
#include "storage/change_set.hpp"
#include "storage/data_table.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_snapshot.hpp"

namespace lakestream {

// Whether a statement on the table at `snapshot` deletes rows with deletion
// vectors: the table lists the deletionVectors writer feature and sets
// delta.enableDeletionVectors = true (PROTOCOL.md: writers add new vectors
// only then). Not under row tracking, whose row ids lakestream assigns anew
// to every add a commit holds.
bool WritesDeletionVectors(const delta::Snapshot& snapshot);

// The values of rows a commit is about to remove, for its change data rows.
// While one is alive on a thread, a commit there that removes rows through
// deletion vectors takes the rows it names from it (AddKnownChanges) instead
// of reading the data files holding them. A view refresh, which locates the
// rows it removes by value (ivm/view_row_index.hpp), sets one around its
// commit. Like SchemaEvolutionScope, it reaches DeltaTable::Commit without a
// TableCommit field (a place it could move to).
class KnownRemovedRows {
 public:
  // `values`: the rows `commit.deleted_rows` and then `commit.updated_row_ids`
  // of `table` name, in that order, in the table's columns; all must outlive this.
  KnownRemovedRows(const DataTable& table, const TableCommit& commit, const ChunkCollection& values);
  ~KnownRemovedRows();
  KnownRemovedRows(const KnownRemovedRows&) = delete;
  KnownRemovedRows& operator=(const KnownRemovedRows&) = delete;
  // The innermost one alive on this thread, or null.
  static const KnownRemovedRows* Current();

  // Where the values of row `id` are in `values` ((chunk, row)), or null.
  const std::pair<idx_t, sel_t>* Find(uint64_t id) const;

  const DataTable& table;
  const ChunkCollection& values;
  // (row id, (chunk, row) in `values`), sorted by row id: one array built per
  // commit (a refresh's ids come mostly sorted), not a hash map of every row.
  std::vector<std::pair<uint64_t, std::pair<idx_t, sel_t>>> at;

 private:
  const KnownRemovedRows* outer_;
};

// The change data rows of `rows` ((position in file `file_index`, index of
// its new version or -1 for a delete), sorted by position) taken from
// `known`. When it holds every one of them: passes the deletes and the
// update preimages to `emit` (in position order, chunks of at most
// STANDARD_VECTOR_SIZE rows), each update's (index, position) to `updated`
// in the same order, and returns true; otherwise does nothing and returns false.
bool AddKnownChanges(uint64_t file_index, const std::vector<std::pair<uint64_t, int64_t>>& rows,
                     const KnownRemovedRows& known, const std::function<void(const DataChunk&, ChangeKind)>& emit,
                     const std::function<void(int64_t, uint64_t)>& updated);

class DeletionVectorUpdate {
 public:
  // `fs`, `snapshot`: the table's file system and the snapshot the statement
  // read (which must outlive this object). `visible`: the commit's flag
  // (AbortUnlessCommitted); until it is true the destructor deletes the
  // vector file written.
  DeletionVectorUpdate(std::shared_ptr<FileSystem> fs, const delta::Snapshot& snapshot, const bool& visible);
  ~DeletionVectorUpdate();
  DeletionVectorUpdate(const DeletionVectorUpdate&) = delete;
  DeletionVectorUpdate& operator=(const DeletionVectorUpdate&) = delete;

  // Deletes `rows` (sorted, distinct row indexes, none deleted already) of
  // the data file `add`: appends its remove, and the add with the new
  // vector unless no row is left. Throws CorruptionError/IOError naming the
  // table when the file's current vector cannot be read. The vector a
  // commit wrote last for a data file is remembered (up to a few million
  // rows in the process), so the next Delete on that file does not read
  // its vector file back.
  void Delete(const delta::AddFile& add, const std::vector<uint64_t>& rows, int64_t now_ms,
              std::vector<delta::Action>& actions);
  // Writes the vector file (when a vector was added) and lists it in
  // `durable` (with the table's folder unless the name was made ahead and
  // is still there). IOError naming the table and file when it cannot be
  // written.
  void Finish(DurableSet& durable);

 private:
  // The remove of `add`, and its add with the vector of `deleted` (all its deleted rows).
  void Emit(const delta::AddFile& add, std::vector<uint64_t> deleted, int64_t now_ms, std::vector<delta::Action>& actions);

  std::shared_ptr<FileSystem> fs_;
  const delta::Snapshot& snapshot_;
  const bool& visible_;
  // Made at the first vector: named after an empty file made ahead when the
  // table's DataFilePool has one ("dv"), so Finish creates no file.
  std::optional<delta::DeletionVectorFileBuilder> builder_;
  bool pooled_ = false;  // builder_'s file exists, empty, its name durable
  std::string written_;  // the full path Finish() wrote
};

// `stats` (an add's JSON statistics) with tightBounds = false; unchanged
// when absent or unparsable.
std::optional<std::string> LooseBoundsStats(const std::optional<std::string>& stats);

}  // namespace lakestream
