// DeltaTableAppend: the TableAppend of a Delta table (storage/table_append.hpp).
// Rows go into data files as they come (DeltaFileWriter, rolling at
// delta.targetFileSize), and into change data files too when the commit will
// need them (an overwrite of a table with the change data feed on: its cdc
// files must list the new rows as inserts). DeltaTable::Commit adds the
// files to its one commit; an append destroyed before that commit may be
// visible deletes them.
#pragma once

#include <memory>

#include "storage/table/delta_file_writer.hpp"
#include "storage/table_append.hpp"

namespace lakestream {

class DeltaTable;

class DeltaTableAppend : public TableAppend {
 public:
  // `changes` may be null (no change data files).
  DeltaTableAppend(const DataTable* table, std::unique_ptr<DeltaFileWriter> data,
                   std::unique_ptr<DeltaFileWriter> changes);
  ~DeltaTableAppend() override;

  void Append(DataChunk& rows) override;
  idx_t RowCount() const override { return data_->RowCount(); }

  DeltaFileWriter& Data() { return *data_; }
  DeltaFileWriter* Changes() { return changes_.get(); }
  // Set by the commit once it may be visible: from then on the files stay.
  bool visible = false;

 private:
  std::unique_ptr<DeltaFileWriter> data_;
  std::unique_ptr<DeltaFileWriter> changes_;
  std::vector<LogicalType> change_types_;
};

// An append in `table`'s columns (the evolved ones inside a
// SchemaEvolutionScope; `replace`'s for a CREATE OR REPLACE) and partitions,
// rolling at its delta.targetFileSize.
std::unique_ptr<DeltaTableAppend> BeginDeltaAppend(DeltaTable& table, bool overwrite,
                                                   const DeltaTableDefinition* replace);

// The DeltaTableAppend an AppendScope holds for `table`, or null.
DeltaTableAppend* DeltaAppendFor(const DeltaTable* table);

}  // namespace lakestream
