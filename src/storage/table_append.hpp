// TableAppend: rows a statement adds to a table while its query still runs
// (INSERT, CREATE TABLE AS, COPY FROM), so that they never have to be held
// all at once: a Delta table writes them into data files as they come
// (storage/table/delta_append.hpp, rolling at delta.targetFileSize), an
// in-memory table keeps them. They become visible only with the commit of
// that table the statement makes while an AppendScope holds the append;
// destroying an append that no commit made visible drops its rows (deletes
// its files), so a failed or interrupted statement leaves nothing behind.
//
//   auto append = BeginAppend(*table.storage, overwrite, nullptr);
//   ExecutePlan(context, plan, [&](DataChunk& c) { append->Append(c); });
//   AppendScope scope(append.get());
//   table.storage->Commit(commit);   // adds the appended rows too
#pragma once

#include <memory>

#include "storage/change_set.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

class TableAppend {
 public:
  explicit TableAppend(const DataTable* table) : table_(table) {}
  virtual ~TableAppend() = default;
  TableAppend(const TableAppend&) = delete;
  TableAppend& operator=(const TableAppend&) = delete;

  // `rows`: every table column in table order. May take the chunk's data
  // (the caller initialises it again). Throws what writing throws
  // (InvalidInputError for a value no file holds, IOError).
  virtual void Append(DataChunk& rows) = 0;
  virtual idx_t RowCount() const = 0;
  // The table whose commit takes the rows.
  const DataTable* Table() const { return table_; }

  // The rows appended so far as a change set's inserts (storage/change_set.hpp),
  // or null once they outnumber ChangeSet::kKeptRowsLimit: a statement's
  // commit hands small changes to view maintenance in memory, a large one is
  // read back from its files (holding it all would cost the memory appends avoid).
  const ChangeSet* KeptRows() const { return keep_ ? &kept_ : nullptr; }

 protected:
  // Subclasses call it from Append with the rows, before taking their data.
  void Keep(const DataChunk& rows);

 private:
  const DataTable* table_;
  bool keep_ = true;
  ChangeSet kept_;
};

// An in-memory table's append: the rows wait in memory for the commit.
class MemoryAppend : public TableAppend {
 public:
  MemoryAppend(const DataTable* table, std::vector<LogicalType> types) : TableAppend(table), rows(std::move(types)) {}
  void Append(DataChunk& chunk) override;
  idx_t RowCount() const override { return rows.Count(); }
  ChunkCollection rows;
};

// The append for a commit of `table` that inserts rows (`overwrite`: one
// that also deletes every existing row; `replace`: a CREATE OR REPLACE,
// whose rows are in the new definition's columns; Delta tables only).
std::unique_ptr<TableAppend> BeginAppend(DataTable& table, bool overwrite, const DeltaTableDefinition* replace);

// While alive, the rows of `append` belong to the commit of its table made
// on this thread (DataTable::Commit asks AppendScope::For(this)): how a
// commit learns of them without a change to every commit's shape. Scopes
// nest; the innermost one of a table wins.
class AppendScope {
 public:
  explicit AppendScope(TableAppend* append);
  ~AppendScope();
  AppendScope(const AppendScope&) = delete;
  AppendScope& operator=(const AppendScope&) = delete;

  // The append an open scope holds for `table`, or null.
  static TableAppend* For(const DataTable* table);

 private:
  TableAppend* append_;
  AppendScope* outer_;
};

}  // namespace lakestream
