// Scans a DataTable: only the projected columns are read, and filters pushed
// down by the planner are applied right at the scan.
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

class PhysicalTableScan : public PhysicalOperator {
 public:
  // `filters` are bound against the projected columns (index = position in column_ids).
  PhysicalTableScan(std::string table_name, DataTable& table, std::vector<idx_t> column_ids,
                    std::vector<LogicalType> types, std::vector<BoundExprPtr> filters, bool emit_row_ids = false);

  bool Next(ExecutionContext& context, DataChunk& out) override;
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

 private:
  std::string table_name_;
  std::shared_ptr<DataTable> owned_;
  DataTable& table_;
  std::vector<idx_t> column_ids_;
  std::vector<BoundExprPtr> filters_;
  bool emit_row_ids_;  // a trailing BIGINT column with each row's row id
  std::unique_ptr<TableScan> scan_;
  DataChunk scan_chunk_;
  std::unique_ptr<Vector> row_ids_;
};

}  // namespace lakestream
