// DataTable: the storage interface behind every catalog table. The in-memory
// table implements it now; the Delta table (storage/delta) implements it with
// copy-on-write Parquet files and a change data feed.
//
// Row ids identify a row within the snapshot a scan read, so that UPDATE,
// DELETE and MERGE can name the rows they change. They are only valid for
// the snapshot they came from.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "storage/table_filter.hpp"

namespace lakestream {

using row_t = int64_t;
struct DeltaTableDefinition;

struct TableColumn {
  std::string name;
  LogicalType type;
  bool not_null = false;
  Value default_value;  // used when INSERT does not name the column (NULL unless DEFAULT was given)
};

class TableScan {
 public:
  virtual ~TableScan() = default;
  // Fills `out` (initialised with the projected column types) with the next
  // rows and, when `row_ids` is given, their row ids (a BIGINT vector).
  // Returns false when the scan is exhausted (out.size() == 0).
  virtual bool Next(DataChunk& out, Vector* row_ids) = 0;
};

// Rows a statement adds to a table while its query still runs (INSERT,
// CREATE TABLE AS, COPY FROM), so they never have to be held all at once: a
// Delta table writes them into data files as they come (rolling at its
// target file size), an in-memory table keeps them. They become visible only
// with the TableCommit that carries this append (TableCommit::appended);
// destroying an append that no commit made visible drops its rows (deletes
// its files). Made by DataTable::BeginAppend; one per statement.
class TableAppend {
 public:
  virtual ~TableAppend() = default;
  // `rows`: every table column in table order. May take the chunk's data
  // (the caller initialises it again). Throws what writing can throw
  // (InvalidInputError for a value no file holds, IOError).
  virtual void Append(DataChunk& rows) = 0;
  virtual idx_t RowCount() const = 0;
};

// One atomic change to a table: what a single DML statement commits.
struct TableCommit {
  std::string operation;  // WRITE, UPDATE, DELETE, MERGE, CREATE TABLE AS SELECT, ...
  bool overwrite = false;  // INSERT OVERWRITE: every existing row is deleted
  std::vector<row_t> deleted_rows;
  std::vector<row_t> updated_row_ids;  // row i of `updated` replaces updated_row_ids[i]
  ChunkCollection updated;
  ChunkCollection inserted;
  // Application transaction ids (app id -> version) recorded atomically with
  // the change (Delta txn actions): how streams and pipelines make their
  // progress part of the same commit.
  std::vector<std::pair<std::string, int64_t>> txns;
  // CREATE OR REPLACE TABLE of a Delta table: its new definition. The commit
  // sets it, removes every existing row and adds `inserted` (in the new
  // columns), as one version; the old rows stay in the table's history.
  const DeltaTableDefinition* replace = nullptr;
  // More inserted rows, already handed to the table's storage while the
  // statement's query ran (from the same table's BeginAppend).
  std::unique_ptr<TableAppend> appended;
  idx_t ChangedRows() const {
    return deleted_rows.size() + updated.Count() + inserted.Count() + (appended ? appended->RowCount() : 0);
  }
};

class DataTable {
 public:
  virtual ~DataTable() = default;
  // `column_ids` index into the table's columns. `filters` (optional) are
  // table filters over the projected columns (column i = column_ids[i])
  // whose predicates the caller applies to every row anyway: storage may use
  // them only to skip data that cannot match (partitions, min/max statistics).
  virtual std::unique_ptr<TableScan> Scan(const std::vector<idx_t>& column_ids,
                                          const std::vector<TableFilter>& filters) {
    return Scan(column_ids);
  }
  virtual std::unique_ptr<TableScan> Scan(const std::vector<idx_t>& column_ids) = 0;
  // Applies the commit atomically: all of it becomes visible, or none.
  virtual void Commit(TableCommit& commit) = 0;
  // An append for the rows of a commit that inserts (`overwrite`: one that
  // also deletes every existing row; `replace`: a CREATE OR REPLACE, whose
  // rows are in the new definition's columns).
  virtual std::unique_ptr<TableAppend> BeginAppend(bool overwrite, const DeltaTableDefinition* replace) = 0;
  virtual idx_t RowCount() = 0;
  // A row count for the planner's estimates, from metadata only: never reads
  // data nor throws; nullopt when the metadata does not say.
  virtual std::optional<idx_t> EstimatedRowCount() { return std::nullopt; }
};

// All rows in memory, in a ChunkCollection; row id = position.
class InMemoryTable : public DataTable {
 public:
  explicit InMemoryTable(std::vector<LogicalType> types) : rows_(std::move(types)) {}
  std::unique_ptr<TableScan> Scan(const std::vector<idx_t>& column_ids) override;
  void Commit(TableCommit& commit) override;
  std::unique_ptr<TableAppend> BeginAppend(bool overwrite, const DeltaTableDefinition* replace) override;
  idx_t RowCount() override { return rows_.Count(); }
  std::optional<idx_t> EstimatedRowCount() override { return rows_.Count(); }

 private:
  ChunkCollection rows_;
};

}  // namespace lakestream
