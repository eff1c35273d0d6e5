#include "execution/operator/physical_table_function_scan.hpp"

#include "common/exception.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

PhysicalTableFunctionScan::PhysicalTableFunctionScan(std::vector<LogicalType> types, TableSourcePtr source)
    : PhysicalOperator(std::move(types)), source_(std::move(source)) {
  if (!source_) throw InternalError("PhysicalTableFunctionScan: the table function built no source");
}

bool PhysicalTableFunctionScan::Next(ExecutionContext& context, DataChunk& out) {
  if (!progress_ && context.client) {
    progress_ = &context.client->progress;
    if (auto rows = source_->EstimatedRows()) progress_->AddTotal(*rows);
  }
  bool more = source_->Next(out);
  if (progress_ && more) progress_->AddDone(out.size());
  return more;
}

}  // namespace lakestream
