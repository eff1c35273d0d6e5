// Plain views: CREATE [OR REPLACE] [TEMP] VIEW, DROP VIEW, SHOW VIEWS and
// DESCRIBE of a view (docs/sql-views-dml.md). A view is stored as its SQL
// (catalog.json "views" for a permanent one, the connection for a temporary
// one) and expanded where it is read (planner/bind_view.cpp).
#include <map>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "planner/binder.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"

namespace lakestream {

// What only materialized views and streaming tables take.
static void RefuseTableClauses(const CreateViewStatement& stmt, const std::string& name) {
  auto refuse = [&](const char* clause) {
    throw BinderError("CREATE VIEW " + name + ": " + clause +
                      " applies to materialized views, which store rows; a plain view stores only its query. Use "
                      "CREATE MATERIALIZED VIEW " + name + " for a stored result");
  };
  if (!stmt.partitioned_by.empty()) refuse("PARTITIONED BY");
  if (!stmt.properties.empty()) refuse("TBLPROPERTIES");
  if (stmt.or_refresh) refuse("CREATE OR REFRESH");
  for (auto& column : stmt.columns) {
    if (column.type.id() != TypeId::INVALID || column.not_null || column.default_value) {
      throw BinderError("CREATE VIEW " + name + " (" + column.name +
                        " ...): a view's column list only renames the query's columns; their types come from the "
                        "query. Write CREATE VIEW " + name + " (a, b) AS ..., casting in the query where a type matters");
    }
  }
}

// Binds `view` as a reader would, so a bad definition (a missing table, an
// unknown column, a view that would read itself) is refused before it is
// stored; also refuses duplicate column names, which no reader could tell apart.
static void CheckDefinition(ClientContext& context, const ViewCatalogEntry& view) {
  Binder binder(context);
  BindContext scope;
  binder.BindView(view, nullptr, scope, true);
  const auto& names = scope.Entries().at(0).names;
  for (idx_t i = 0; i < names.size(); i++) {
    for (idx_t j = 0; j < i; j++) {
      if (StringUtil::CIEquals(names[i], names[j])) {
        throw BinderError("CREATE VIEW " + view.name + ": the query has two columns named " + names[i] +
                          "; give one of them an alias (AS other_name) or list the view's column names");
      }
    }
  }
}

std::unique_ptr<QueryResult> ExecuteCreatePlainView(ClientContext& context, CreateViewStatement& stmt) {
  std::string name = stmt.name.Name();
  RefuseTableClauses(stmt, name);
  Catalog& catalog = context.GetCatalog();
  auto view = std::make_unique<ViewCatalogEntry>();
  view->name = name;
  view->definition = stmt.query_text;
  view->comment = stmt.comment;
  view->temporary = stmt.temporary;
  for (auto& column : stmt.columns) view->column_aliases.push_back(column.name);

  const ViewCatalogEntry* existing = stmt.temporary ? context.TempViews().Find(name) : catalog.FindView(name);
  if (existing && stmt.if_not_exists) return MakeEmptyResult();
  if (existing && !stmt.or_replace) {
    throw CatalogError(std::string(stmt.temporary ? "Temporary view" : "View") + " with name " + existing->name +
                       " already exists! Use CREATE OR REPLACE " + (stmt.temporary ? "TEMP " : "") +
                       "VIEW to replace it, or pick another name.");
  }
  if (!stmt.temporary) {
    // Refused here, before the query is checked: the name is what is wrong.
    if (TableCatalogEntry* table = catalog.FindTable(name)) {
      std::string kind = TableKindToString(table->kind);
      throw CatalogError("Cannot create view " + name + ": a " + kind + " named " + table->name +
                         " exists; pick another name for the view, or drop the " + kind + " first with DROP " +
                         StringUtil::Upper(kind) + " " + table->name);
    }
    if (StreamCatalogEntry* stream = catalog.FindStream(name)) {
      throw CatalogError("Cannot create view " + name + ": a stream named " + stream->name +
                         " exists; pick another name for the view, or drop the stream first with DROP STREAM " + stream->name);
    }
  }
  CheckDefinition(context, *view);
  if (stmt.temporary) {
    context.TempViews().Put(std::move(view), true, "");
    return MakeEmptyResult();
  }
  std::unique_ptr<ViewCatalogEntry> previous;
  if (existing) previous = std::make_unique<ViewCatalogEntry>(*existing);
  catalog.CreateView(std::move(view), true);
  try {
    context.Database().SaveCatalog();
  } catch (...) {
    // The catalog in memory goes back to what the file still says.
    if (previous) {
      catalog.CreateView(std::move(previous), true);
    } else {
      catalog.DropView(name, true);
    }
    throw;
  }
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteDropView(ClientContext& context, DropStatement& stmt) {
  std::string name = stmt.name.Name();
  // A temporary view hides a permanent one of the same name: it goes first, as in Spark.
  if (context.TempViews().Drop(name, true)) return MakeEmptyResult();
  Catalog& catalog = context.GetCatalog();
  if (TableCatalogEntry* table = catalog.FindTable(name)) {
    std::string kind = TableKindToString(table->kind);
    throw CatalogError(table->name + " is a " + kind + ", not a view; drop it with DROP " + StringUtil::Upper(kind) + " " +
                       table->name);
  }
  if (StreamCatalogEntry* stream = catalog.FindStream(name)) {
    throw CatalogError(stream->name + " is a stream, not a view; drop it with DROP STREAM " + stream->name);
  }
  ViewCatalogEntry* view = catalog.FindView(name);
  if (!view) {
    catalog.DropView(name, stmt.if_exists);  // throws with a hint unless IF EXISTS
    return MakeEmptyResult();
  }
  auto previous = std::make_unique<ViewCatalogEntry>(*view);
  catalog.DropView(name, false);
  try {
    context.Database().SaveCatalog();
  } catch (...) {
    catalog.CreateView(std::move(previous), true);
    throw;
  }
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteShowViews(ClientContext& context, ShowStatement& statement) {
  std::map<std::string, std::vector<Value>> rows;  // by lower-case name; a temporary view hides a permanent one
  Catalog& catalog = context.GetCatalog();
  std::string schema = ListedSchema(context, statement);
  for (auto& name : catalog.TableNames(TableKind::MATERIALIZED_VIEW)) {
    if (!InSchema(context, name, schema)) continue;
    TableCatalogEntry* view = catalog.FindTable(name);
    std::string shown = NameInSchema(context, name);
    rows[StringUtil::Lower(shown)] = {Value(shown), Value("materialized view"), Value(view->definition)};
  }
  for (auto& name : catalog.ViewNames()) {
    if (!InSchema(context, name, schema)) continue;
    ViewCatalogEntry* view = catalog.FindView(name);
    std::string shown = NameInSchema(context, name);
    rows[StringUtil::Lower(shown)] = {Value(shown), Value("view"), Value(view->definition)};
  }
  for (auto& name : context.TempViews().Names()) {
    ViewCatalogEntry* view = context.TempViews().Find(name);
    rows[StringUtil::Lower(name)] = {Value(view->name), Value("temporary view"), Value(view->definition)};
  }
  std::vector<std::vector<Value>> out;
  out.reserve(rows.size());
  for (auto& [key, row] : rows) out.push_back(std::move(row));
  return MakeRowsResult({"name", "kind", "definition"}, std::vector<LogicalType>(3, TypeId::VARCHAR), out);
}

std::unique_ptr<QueryResult> DescribeView(ClientContext& context, const ViewCatalogEntry& view) {
  Binder binder(context);
  BindContext scope;
  binder.BindView(view, nullptr, scope);
  const BindEntry& entry = scope.Entries().at(0);
  std::vector<std::vector<Value>> rows;
  for (idx_t i = 0; i < entry.names.size(); i++) rows.push_back({Value(entry.names[i]), Value(entry.types[i].ToString())});
  return MakeRowsResult({"column_name", "column_type"}, std::vector<LogicalType>(2, TypeId::VARCHAR), rows);
}

}  // namespace lakestream
