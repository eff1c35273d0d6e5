#include "storage/table/delta_append.hpp"

namespace lakestream {

DeltaTableAppend::DeltaTableAppend(const void* owner, std::unique_ptr<DeltaFileWriter> data,
                                   std::unique_ptr<DeltaFileWriter> changes)
    : owner_(owner), data_(std::move(data)), changes_(std::move(changes)) {}

DeltaTableAppend::~DeltaTableAppend() {
  if (visible) return;
  data_->Abort();
  if (changes_) changes_->Abort();
}

void DeltaTableAppend::Append(DataChunk& rows) {
  if (rows.size() == 0) return;
  data_->Append(rows);
  if (!changes_) return;
  if (change_types_.empty()) {
    for (idx_t c = 0; c < rows.ColumnCount(); c++) change_types_.push_back(rows.data[c].GetType());
    change_types_.push_back(TypeId::VARCHAR);
  }
  DataChunk out;
  out.Initialize(change_types_, rows.size());
  for (idx_t c = 0; c < rows.ColumnCount(); c++) out.data[c].Copy(rows.data[c], nullptr, rows.size(), 0, 0);
  out.data[rows.ColumnCount()].FillString("insert", rows.size());
  out.SetCardinality(rows.size());
  changes_->Append(out);
}

}  // namespace lakestream
