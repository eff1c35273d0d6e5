// Scans a DataTable: only the projected columns are read, and filters pushed
// down by the planner are applied right at the scan. Once allowed
// (selected_output.hpp), a chunk whose filters keep at least half of its
// rows comes with their selection instead of a copy of them.
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "execution/operator/selected_output.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

class PhysicalTableScan : public PhysicalOperator, public SelectedOutput {
 public:
  // `filters` are bound against the projected columns (index = position in column_ids).
  PhysicalTableScan(std::string table_name, DataTable& table, std::vector<idx_t> column_ids,
                    std::vector<LogicalType> types, std::vector<BoundExprPtr> filters, bool emit_row_ids = false);

  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  // Owns a table object that exists only for this query (a time-travel snapshot).
  void KeepAlive(std::shared_ptr<DataTable> table) { owned_ = std::move(table); }
  std::string Name() const override { return "TABLE_SCAN"; }
  // Whether RowCount() may stand in for reading every row: no filters and no
  // row ids (a COUNT(*) without WHERE).
  bool CountsWithoutReading() const { return filters_.empty() && !emit_row_ids_; }
  // The table's row count from its metadata (Delta: numRecords of the files'
  // stats; the files are read only when some file has none).
  idx_t RowCount() { return table_.RowCount(); }
  std::string Details() const override;
  // Parallel scans: the morsels of this scan's rows (null when the table
  // cannot be split or the scan emits row ids), which the copies of the scan
  // in other workers then share (SetMorsels) so each morsel is read once.
  std::shared_ptr<MorselSource> CreateMorselSource();
  // Reads the morsels it takes from `morsels` instead of the whole table.
  // `counts_total`: this copy adds the table's size to the progress total
  // (exactly one copy should).
  void SetMorsels(std::shared_ptr<MorselSource> morsels, bool counts_total);
  const std::vector<BoundExprPtr>& Filters() const { return filters_; }

 private:
  bool NextScanChunk();

  std::string table_name_;
  std::shared_ptr<DataTable> owned_;
  DataTable& table_;
  std::vector<idx_t> column_ids_;
  std::vector<BoundExprPtr> filters_;
  bool emit_row_ids_;  // a trailing BIGINT column with each row's row id
  std::unique_ptr<TableScan> scan_;
  std::shared_ptr<MorselSource> morsels_;
  bool counts_total_ = true;
  bool started_ = false;
  DataChunk scan_chunk_;
  std::vector<sel_t> sel_;  // the scanned chunk's rows the filters kept so far
  // The order the filters run in, with the rows each tested and kept
  // (ReorderFilters); the first `reorderable_` cannot raise.
  struct FilterOrder {
    idx_t filter;
    idx_t tested;
    idx_t kept;
  };
  static constexpr idx_t kReorderChunks = 16;
  void ReorderFilters();
  std::vector<FilterOrder> order_;
  idx_t reorderable_ = 0;
  idx_t chunks_since_reorder_ = 0;
  std::unique_ptr<Vector> row_ids_;
};

}  // namespace lakestream
