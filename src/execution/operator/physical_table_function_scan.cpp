#include "execution/operator/physical_table_function_scan.hpp"

#include "common/exception.hpp"
#include "common/query_progress.hpp"

namespace lakestream {

PhysicalTableFunctionScan::PhysicalTableFunctionScan(std::vector<LogicalType> types, TableSourcePtr source)
    : PhysicalOperator(std::move(types)), source_(std::move(source)) {
  if (!source_) throw InternalError("PhysicalTableFunctionScan: the table function built no source");
}

bool PhysicalTableFunctionScan::GetChunk(ExecutionContext&, DataChunk& out) {
  // Sources that know their size add it to the total themselves (range).
  bool more = source_->Next(out);
  if (QueryProgress* progress = CurrentQueryProgress(); progress && more) progress->AddDone(out.size());
  return more;
}

}  // namespace lakestream
