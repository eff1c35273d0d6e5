#include "execution/operator/physical_table_function_scan.hpp"

#include "common/exception.hpp"

namespace lakestream {

PhysicalTableFunctionScan::PhysicalTableFunctionScan(std::vector<LogicalType> types, TableSourcePtr source)
    : PhysicalOperator(std::move(types)), source_(std::move(source)) {
  if (!source_) throw InternalError("PhysicalTableFunctionScan: the table function built no source");
}

bool PhysicalTableFunctionScan::Next(ExecutionContext&, DataChunk& out) { return source_->Next(out); }

}  // namespace lakestream
