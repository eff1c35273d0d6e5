// ALTER TABLE t ALTER [COLUMN] c [SET DATA] TYPE type, and Spark's
// ALTER TABLE t CHANGE [COLUMN] c [c] [TYPE] type; also the in-memory table
// rewrite that ALTER TABLE ... ADD COLUMN shares.
//
// A Delta table changes a type only by Delta type widening (data files are
// not rewritten; older files are read as the wider type), and only when the
// table enables it (delta.enableTypeWidening), as Delta and Databricks do. A
// field inside a STRUCT is named by its path (ALTER COLUMN s.a TYPE BIGINT).
// An in-memory table is rewritten with its values cast, as DuckDB does.
#include "main/statement/alter_table.hpp"

#include "catalog/catalog.hpp"
#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/schema_evolution.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

void RewriteInMemoryTable(TableCatalogEntry& table, std::vector<TableColumn> columns, const std::string& operation,
                          const std::function<void(const DataChunk& old_rows, DataChunk& new_rows)>& fill) {
  std::vector<LogicalType> types;
  types.reserve(columns.size());
  for (auto& c : columns) types.push_back(c.type);
  auto storage = std::make_unique<InMemoryTable>(types);
  TableCommit commit;
  commit.operation = operation;
  commit.inserted.SetTypes(types);
  std::vector<idx_t> ids;
  ids.reserve(table.columns.size());
  for (idx_t i = 0; i < table.columns.size(); i++) ids.push_back(i);
  auto scan = table.storage->Scan(ids);
  DataChunk old_rows;
  DataChunk new_rows;
  old_rows.Initialize(table.Types());
  new_rows.Initialize(types);
  while (scan->Next(old_rows, nullptr)) {
    new_rows.Reset();
    fill(old_rows, new_rows);
    new_rows.SetCardinality(old_rows.size());
    commit.inserted.Append(new_rows);
  }
  storage->Commit(commit);
  table.columns = std::move(columns);
  table.storage = std::move(storage);
}

namespace {

// `type` with the field at path[at..] replaced by `leaf`.
LogicalType ReplaceField(const LogicalType& type, const std::vector<std::string>& path, idx_t at, const LogicalType& leaf,
                         const std::string& table) {
  if (at == path.size()) return leaf;
  std::string parent = StringUtil::Join(std::vector<std::string>(path.begin(), path.begin() + static_cast<int64_t>(at)), ".");
  if (type.id() != TypeId::STRUCT) {
    throw BinderError("Column " + parent + " of table " + table + " is " + type.ToString() +
                      ", not a STRUCT: it has no field " + path[at]);
  }
  child_list_t fields = type.children();
  int64_t i = FindStructField(fields, path[at]);
  if (i < 0) {
    std::vector<std::string> names;
    names.reserve(fields.size());
    for (auto& f : fields) names.push_back(f.first);
    throw BinderError("Column " + parent + " of table " + table + " has no field " + path[at] + " (its fields: " +
                      StringUtil::Join(names, ", ") + ")");
  }
  fields[i].second = ReplaceField(fields[i].second, path, at + 1, leaf, table);
  return LogicalType::Struct(std::move(fields));
}

}  // namespace

std::unique_ptr<QueryResult> ExecuteAlterColumnType(ClientContext& context, TableCatalogEntry& table,
                                                    const AlterTableStatement& stmt) {
  if (table.kind != TableKind::TABLE && table.kind != TableKind::STREAMING_TABLE) {
    std::string kind = TableKindToString(table.kind);
    throw CatalogError("Cannot change a column type of " + kind + " " + table.name + ": its types follow its query; "
                       "cast in the query (CREATE OR REPLACE " + StringUtil::Upper(kind) + " " + table.name + " AS ...)");
  }
  const std::string& name = stmt.column_path[0];
  int64_t at = table.ColumnIndex(name);
  if (at < 0) throw CatalogError("Table " + table.name + " has no column " + name);
  const TableColumn& column = table.columns[at];
  LogicalType type = ReplaceField(column.type, stmt.column_path, 1, stmt.new_type, table.name);
  if (type == column.type) return MakeEmptyResult();
  if (DeltaTable* delta = DatabaseInstance::AsDelta(table)) {
    delta->AlterColumnType(column.name, type);
    DatabaseInstance::SyncFromDelta(table);
    context.Database().SaveCatalog();
    return MakeEmptyResult();
  }
  if (!CastIsPossible(column.type, type)) {
    throw BinderError("Cannot change column " + column.name + " of table " + table.name + " from " +
                      column.type.ToString() + " to " + type.ToString() + ": no cast between them");
  }
  std::vector<TableColumn> columns = table.columns;
  columns[at].type = type;
  columns[at].default_value = columns[at].default_value.IsNull() ? Value(type) : columns[at].default_value.CastAs(type);
  RewriteInMemoryTable(table, std::move(columns), "CHANGE COLUMN", [&](const DataChunk& old_rows, DataChunk& new_rows) {
    for (idx_t c = 0; c < old_rows.ColumnCount(); c++) {
      if (static_cast<int64_t>(c) == at) {
        CastVector(old_rows.data[c], new_rows.data[c], old_rows.size());
      } else {
        new_rows.data[c].Copy(old_rows.data[c], nullptr, old_rows.size(), 0, 0);
      }
    }
  });
  return MakeEmptyResult();
}

}  // namespace lakestream
