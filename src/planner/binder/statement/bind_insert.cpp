// INSERT {INTO | OVERWRITE} t [(cols)] {VALUES ... | query}: the source query,
// mapped onto the table's columns (named or in order; the others take their
// defaults) and cast to their types.
#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"
#include "planner/binder/statement/bind_write_target.hpp"
#include "planner/bound_statement.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

static Value DefaultValueOf(const TableColumn& column) {
  return column.default_value.IsNull() ? Value(column.type) : column.default_value;
}

// INSERT ... VALUES (1, DEFAULT): DEFAULT stands for the column's default value.
static void ReplaceDefaultKeywords(const TableCatalogEntry& table, InsertStatement& stmt) {
  if (!stmt.query || stmt.query->type != QueryNodeType::VALUES_NODE) return;
  for (auto& row : stmt.query->values) {
    for (idx_t j = 0; j < row.size(); j++) {
      auto& e = row[j];
      if (e->type != ExpressionType::COLUMN_REF || e->names.size() != 1 || !StringUtil::CIEquals(e->names[0], "default")) {
        continue;
      }
      int64_t column = stmt.columns.empty() ? static_cast<int64_t>(j) : table.ColumnIndex(stmt.columns[j < stmt.columns.size() ? j : 0]);
      if (column < 0 || column >= static_cast<int64_t>(table.columns.size())) continue;  // reported by MapInsertColumns
      auto constant = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, e->location);
      constant->value = DefaultValueOf(table.columns[column]);
      e = std::move(constant);
    }
  }
}

// For each table column, the source column that fills it (-1: its default).
static std::vector<int64_t> MapInsertColumns(const TableCatalogEntry& table, const std::vector<std::string>& columns,
                                             idx_t source_width) {
  std::vector<int64_t> source_of(table.columns.size(), -1);
  if (columns.empty()) {
    if (source_width != table.columns.size()) {
      throw BinderError("table " + table.name + " has " + std::to_string(table.columns.size()) + " columns but " +
                        std::to_string(source_width) + " values were supplied; list the target columns, "
                        "e.g. INSERT INTO " + table.name + " (a, b) VALUES ...");
    }
    for (idx_t i = 0; i < table.columns.size(); i++) source_of[i] = static_cast<int64_t>(i);
    return source_of;
  }
  if (columns.size() != source_width) {
    throw BinderError("INSERT INTO " + table.name + " names " + std::to_string(columns.size()) + " columns but " +
                      std::to_string(source_width) + " values were supplied");
  }
  for (idx_t j = 0; j < columns.size(); j++) {
    int64_t idx = table.ColumnIndex(columns[j]);
    if (idx < 0) {
      std::string hint = StringUtil::ClosestMatch(columns[j], table.Names());
      throw BinderError("Table " + table.name + " has no column named " + columns[j] +
                        (hint.empty() ? "" : "; did you mean \"" + hint + "\"?"));
    }
    if (source_of[idx] >= 0) throw BinderError("Column " + columns[j] + " is named twice in INSERT INTO " + table.name);
    source_of[idx] = static_cast<int64_t>(j);
  }
  return source_of;
}

BoundInsert BindInsert(Binder& binder, InsertStatement& stmt) {
  BoundInsert result;
  TableCatalogEntry& table = GetWriteTable(
      binder, stmt.table.Name(), stmt.overwrite ? "INSERT OVERWRITE" : "INSERT");
  if (stmt.overwrite) CheckRowsRemovable(table, "INSERT OVERWRITE");
  result.table = &table;
  result.overwrite = stmt.overwrite;
  ReplaceDefaultKeywords(table, stmt);
  BoundQuery query = binder.BindQuery(*stmt.query);
  // BY NAME: the query's column names are the column list.
  result.source_of = MapInsertColumns(table, stmt.by_name ? query.names : stmt.columns, query.types.size());

  auto bindings = query.plan->GetBindings();
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  for (idx_t i = 0; i < table.columns.size(); i++) {
    const TableColumn& column = table.columns[i];
    if (result.source_of[i] < 0) {
      projection->expressions.push_back(MakeConstant(DefaultValueOf(column)));
      continue;
    }
    auto j = static_cast<idx_t>(result.source_of[i]);
    projection->expressions.push_back(AddCast(MakeBindingRef(bindings[j], query.types[j], query.names[j]), column.type));
  }
  projection->children.push_back(std::move(query.plan));
  result.plan = std::move(projection);
  return result;
}

}  // namespace lakestream
