// Schemas: CREATE SCHEMA, DROP SCHEMA, USE, SHOW SCHEMAS (docs/sql-schemas.md).
// A schema owns no folder: its objects' folders sit in the database
// directory like those of `main` (docs/names.md), so DROP SCHEMA is the DROP
// of each of its objects.
#include "catalog/catalog.hpp"
#include "catalog/object_folder.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"

namespace lakestream {

static std::unique_ptr<QueryResult> CreateSchema(ClientContext& context, SchemaStatement& stmt) {
  const auto& parts = stmt.name.parts;
  if (parts.size() == 2) {
    QualifiedName catalog_only;
    catalog_only.parts = {parts[0], kDefaultSchema};
    ResolveSchemaName(context, catalog_only);  // checks the catalog part
  } else if (parts.size() != 1) {
    throw BinderError("Schema name " + stmt.name.ToString() + " must be schema or catalog.schema");
  }
  CheckObjectName(parts.back(), "schema");  // the same names as tables (docs/names.md)
  if (context.GetCatalog().CreateSchema(parts.back(), stmt.if_not_exists)) context.Database().SaveCatalog();
  return MakeEmptyResult();
}

// Drops the objects of `schema`, dependents first: sinks, streams, views,
// then the tables (materialized views and streaming tables before plain ones).
static void DropObjectsOf(ClientContext& context, const std::string& schema) {
  Catalog& catalog = context.GetCatalog();
  auto drop = [&](ObjectType type, const std::vector<std::string>& names) {
    for (auto& name : names) {
      if (!InSchema(context, name, schema)) continue;
      DropStatement statement;
      statement.object_type = type;
      statement.name.parts = {name};
      statement.if_exists = true;  // a CASCADE before may have dropped it
      statement.cascade = true;
      ExecuteDrop(context, statement);
    }
  };
  drop(ObjectType::SINK, catalog.SinkNames());
  drop(ObjectType::STREAM, catalog.StreamNames());
  drop(ObjectType::VIEW, catalog.ViewNames());
  drop(ObjectType::MATERIALIZED_VIEW, catalog.TableNames(TableKind::MATERIALIZED_VIEW));
  drop(ObjectType::STREAMING_TABLE, catalog.TableNames(TableKind::STREAMING_TABLE));
  drop(ObjectType::TABLE, catalog.TableNames(TableKind::TABLE));
}

static std::unique_ptr<QueryResult> DropSchema(ClientContext& context, SchemaStatement& stmt) {
  Catalog& catalog = context.GetCatalog();
  if (stmt.if_exists && stmt.name.parts.size() == 1 && !catalog.FindSchema(stmt.name.parts[0])) return MakeEmptyResult();
  std::string schema = ResolveSchemaName(context, stmt.name);
  if (schema == kDefaultSchema) {
    throw CatalogError("Cannot drop schema " + stmt.name.ToString() + ": it is the default schema main (also called default "
                       "and public), which always exists; drop its objects one by one instead.");
  }
  std::vector<std::string> objects = catalog.DescribeObjectsIn(schema);
  if (!objects.empty() && !stmt.cascade) {
    throw CatalogError("Cannot drop schema " + schema + ": it holds " + StringUtil::Join(objects, ", ") +
                       ". Drop them first, or drop the schema with all of them: DROP SCHEMA " + schema + " CASCADE");
  }
  DropObjectsOf(context, schema);
  catalog.DropSchema(schema);
  context.Database().SaveCatalog();
  return MakeEmptyResult();
}

static std::unique_ptr<QueryResult> UseSchema(ClientContext& context, SchemaStatement& stmt) {
  const auto& parts = stmt.name.parts;
  // USE db: the database itself (DuckDB), which is its schema main.
  if (parts.size() == 1 && !context.GetCatalog().FindSchema(parts[0]) &&
      StringUtil::CIEquals(parts[0], DatabaseName(context.Database()))) {
    context.current_schema = kDefaultSchema;
    return MakeEmptyResult();
  }
  context.current_schema = ResolveSchemaName(context, stmt.name);
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteSchemaStatement(ClientContext& context, SchemaStatement& stmt) {
  switch (stmt.action) {
    case SchemaAction::CREATE: return CreateSchema(context, stmt);
    case SchemaAction::DROP: return DropSchema(context, stmt);
    case SchemaAction::USE: return UseSchema(context, stmt);
  }
  throw InternalError("unknown schema statement");
}

std::unique_ptr<QueryResult> ExecuteShowSchemas(ClientContext& context, ShowStatement&) {
  std::string current = CurrentSchema(context);
  std::string database = DatabaseName(context.Database());
  std::vector<std::vector<Value>> rows;
  for (auto& name : context.GetCatalog().SchemaNames()) {
    rows.push_back({Value(name), Value(database), Value::BOOLEAN(StringUtil::CIEquals(name, current))});
  }
  return MakeRowsResult({"name", "catalog", "current"}, {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::BOOLEAN}, rows);
}

}  // namespace lakestream
