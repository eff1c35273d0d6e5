// A small Delta table for DeltaTable tests: MakeTable gives a table of
// (k BIGINT, v BIGINT) with the change data feed on and one data file of 10
// rows (versions 0 and 1); InsertRows and UpdateOneRow make commits for it.
#pragma once

#include <memory>
#include <string>

#include "storage/table/delta_table.hpp"

namespace lakestream::testing {

// Rows (from + i, i * 10) for i in [0, count).
inline ChunkCollection Rows(int64_t from, int64_t count) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::BIGINT};
  ChunkCollection rows(types);
  DataChunk chunk;
  chunk.Initialize(types, static_cast<idx_t>(count));
  for (int64_t i = 0; i < count; i++) {
    chunk.data[0].SetValue(static_cast<idx_t>(i), Value::BIGINT(from + i));
    chunk.data[1].SetValue(static_cast<idx_t>(i), Value::BIGINT(i * 10));
  }
  chunk.SetCardinality(static_cast<idx_t>(count));
  rows.Append(chunk);
  return rows;
}

// An INSERT of Rows(from, count).
inline TableCommit InsertRows(int64_t from, int64_t count) {
  TableCommit insert;
  insert.operation = "WRITE";
  insert.inserted = Rows(from, count);
  return insert;
}

inline std::unique_ptr<DeltaTable> MakeTable(FileSystem* fs, const std::string& path) {
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  definition.properties["delta.enableChangeDataFeed"] = "true";
  auto table = DeltaTable::Create(fs, "t", path, definition);
  auto insert = InsertRows(0, 10);
  table->Commit(insert);
  return table;
}

// An UPDATE of row 3: rewrites the data file and writes a change data file.
// An UPDATE of row 3 of the table's `file_index`-th file in path order (the
// order of its snapshot's file map; row ids are file index << 32 | row).
inline TableCommit UpdateOneRow(uint64_t file_index = 0) {
  TableCommit update;
  update.operation = "UPDATE";
  update.updated_row_ids = {static_cast<row_t>(file_index << 32 | 3)};
  update.updated = Rows(3, 1);
  return update;
}

}  // namespace lakestream::testing
