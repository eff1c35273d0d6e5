// DeltaTableAppend: the TableAppend of a Delta table. Rows go into data
// files as they come (DeltaFileWriter, rolling at delta.targetFileSize), and
// into change data files too when the commit will need them (an overwrite
// of a table with the change data feed on: its cdc files must list the new
// rows as inserts). DeltaTable::Commit adds the files to its one commit; an
// append destroyed before that commit became visible deletes them.
#pragma once

#include <memory>

#include "storage/data_table.hpp"
#include "storage/table/delta_file_writer.hpp"

namespace lakestream {

class DeltaTableAppend : public TableAppend {
 public:
  // `changes` may be null (no change data files). `owner` identifies the
  // table whose commit may take the append.
  DeltaTableAppend(const void* owner, std::unique_ptr<DeltaFileWriter> data, std::unique_ptr<DeltaFileWriter> changes);
  ~DeltaTableAppend() override;
  DeltaTableAppend(const DeltaTableAppend&) = delete;
  DeltaTableAppend& operator=(const DeltaTableAppend&) = delete;

  void Append(DataChunk& rows) override;
  idx_t RowCount() const override { return data_->RowCount(); }

  const void* Owner() const { return owner_; }
  DeltaFileWriter& Data() { return *data_; }
  DeltaFileWriter* Changes() { return changes_.get(); }
  // Set by the commit once it may be visible: from then on the files stay.
  bool visible = false;

 private:
  const void* owner_;
  std::unique_ptr<DeltaFileWriter> data_;
  std::unique_ptr<DeltaFileWriter> changes_;
  std::vector<LogicalType> change_types_;
};

}  // namespace lakestream
