// ALTER TABLE pieces that live beside ddl_executor.cpp (alter_column.cpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lakestream/result.hpp"
#include "parser/ast.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

class ClientContext;
struct TableCatalogEntry;

// ALTER TABLE t ALTER COLUMN c TYPE type / CHANGE COLUMN c TYPE type
// (stmt.column_path, stmt.new_type). A Delta table widens the type as Delta
// type widening allows when the table enables it, without rewriting files;
// an in-memory table is rewritten with the values cast. Errors name the
// table, the column and what to do instead.
std::unique_ptr<QueryResult> ExecuteAlterColumnType(ClientContext& context, TableCatalogEntry& table,
                                                    const AlterTableStatement& stmt);

// Replaces the rows of in-memory `table` by `fill(old_rows, new_rows)` of
// each chunk, under the new `columns` (the cardinality is set by the caller).
void RewriteInMemoryTable(TableCatalogEntry& table, std::vector<TableColumn> columns, const std::string& operation,
                          const std::function<void(const DataChunk& old_rows, DataChunk& new_rows)>& fill);

}  // namespace lakestream
