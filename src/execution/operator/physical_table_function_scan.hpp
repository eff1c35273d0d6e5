// The rows of a table function call (range(), read_parquet(), read_files(),
// table_changes(), read_kafka(), STREAM(t), a stream's changes): an operator
// over the function's TableSource. EXPLAIN shows the source's own name and
// details (RANGE, PARQUET_SCAN, READ_FILES, ...).
#pragma once

#include "execution/operator/physical_operator.hpp"
#include "function/table_function.hpp"

namespace lakestream {

class PhysicalTableFunctionScan : public PhysicalOperator {
 public:
  // `types`: the types of the columns `source` was built to produce.
  PhysicalTableFunctionScan(std::vector<LogicalType> types, TableSourcePtr source);

  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return source_->Name(); }
  std::string Details() const override { return source_->Details(); }

 private:
  TableSourcePtr source_;
};

}  // namespace lakestream
