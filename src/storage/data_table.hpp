// DataTable: the storage interface behind every catalog table. The in-memory
// table implements it now; the Delta table (storage/delta) implements it with
// copy-on-write Parquet files and a change data feed.
//
// Row ids identify a row within the snapshot a scan read, so that UPDATE,
// DELETE and MERGE can name the rows they change. They are only valid for
// the snapshot they came from.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "storage/table_filter.hpp"

namespace lakestream {

using row_t = int64_t;

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

// The shared half of a parallel scan (DuckDB's ParallelTableScanState): the
// table split into morsels (a Delta table: its data files; a table in
// memory: ranges of chunks), handed out once each to whichever thread asks
// next. Thread-safe; every morsel is returned by exactly one NextMorsel call.
class MorselSource {
 public:
  virtual ~MorselSource() = default;
  // A scan of the next morsel (same contract as TableScan::Next, row ids
  // unsupported), or null when every morsel has been handed out or Cancel()
  // was called.
  virtual std::unique_ptr<TableScan> NextMorsel() = 0;
  // No morsel is handed out after this (another thread failed).
  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  virtual idx_t MorselCount() const = 0;

 protected:
  bool Cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
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
  const struct DeltaTableDefinition* replace = nullptr;
  // Out (storage/change_set.hpp): when set, a commit that writes change data
  // files adds each change row it writes there too (deletes, update pre- and
  // post-images, inserts), so view maintenance need not read them back; it
  // sets this to null when it keeps none (no change feed, more rows than
  // ChangeSet::kKeptRowsLimit).
  struct ChangeSet* written = nullptr;
  idx_t ChangedRows() const { return deleted_rows.size() + updated.Count() + inserted.Count(); }
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
  // The morsels of a scan of the same rows as Scan(column_ids, filters), for
  // several threads to share; null when the table cannot be split (the
  // caller then scans on one thread).
  virtual std::shared_ptr<MorselSource> ParallelScan(const std::vector<idx_t>& column_ids,
                                                     const std::vector<TableFilter>& filters) {
    return nullptr;
  }
  // Applies the commit atomically: all of it becomes visible, or none.
  virtual void Commit(TableCommit& commit) = 0;
  virtual idx_t RowCount() = 0;
  // A row count for the planner's estimates, from metadata only: never reads
  // data nor throws; nullopt when the metadata does not say.
  virtual std::optional<idx_t> EstimatedRowCount() { return std::nullopt; }
  // About how many distinct non-NULL values `column` holds, for the planner's
  // join and filter estimates. A Delta table: the span max - min + 1 of an
  // integer or date column's min/max statistics. A table in memory: any column
  // in one pass (HyperLogLog, and the span), cached until its next commit.
  // Never reads files nor throws; nullopt when nothing is known.
  virtual std::optional<double> EstimatedDistinctCount(idx_t column) { return std::nullopt; }
};

// All rows in memory, in a ChunkCollection; row id = position.
class InMemoryTable : public DataTable {
 public:
  explicit InMemoryTable(std::vector<LogicalType> types) : rows_(std::move(types)) {}
  std::unique_ptr<TableScan> Scan(const std::vector<idx_t>& column_ids) override;
  // Morsels of kMorselChunks chunks (in_memory_table.cpp).
  std::shared_ptr<MorselSource> ParallelScan(const std::vector<idx_t>& column_ids,
                                             const std::vector<TableFilter>& filters) override;
  void Commit(TableCommit& commit) override;
  idx_t RowCount() override { return rows_.Count(); }
  std::optional<idx_t> EstimatedRowCount() override { return rows_.Count(); }
  std::optional<double> EstimatedDistinctCount(idx_t column) override;

 private:
  ChunkCollection rows_;
  std::mutex spans_mutex_;  // the planner asks while other sessions plan too
  std::map<idx_t, std::optional<double>> spans_;  // column -> distinct; cleared by Commit
};

}  // namespace lakestream
