// Names with schema and catalog parts (docs/sql-schemas.md). Every name a
// statement gives (a table, view, stream or sink; its target, source or new
// name) is turned into its catalog key (catalog.hpp) here, once, so the rest
// of the engine looks objects up by key.
//
//   t           the current schema's t (USE s; `main` at first)
//   LIVE.t      the same (pipelines), unless a schema is named live
//   s.t         schema s's t; s may be main, default or public (one schema)
//   db.t        the database db's current schema's t (db: DatabaseName)
//   db.s.t      schema s's t; db must be this database's name
//
// An unknown schema or catalog is a CatalogError listing the known ones.
#pragma once

#include <string>

#include "parser/ast.hpp"

namespace lakestream {

class ClientContext;
class DatabaseInstance;

// The catalog part of three-part names: the database directory's last path
// component (`lakestream /data/shop` is `shop`), `memory` in memory (DuckDB's rule).
std::string DatabaseName(const DatabaseInstance& db);
// The current schema, `main` when the schema USE named was dropped since.
std::string CurrentSchema(ClientContext& context);
// The catalog key of `name`. A key resolves to itself while the current
// schema is main (a key of another schema always does): code that binds a
// resolved name again does so in SchemaScope(context, kDefaultSchema).
std::string ResolveObjectName(ClientContext& context, const QualifiedName& name);
// A name written as text ('s.t', '"a.b"', 'db.s.t'), as table_changes() and
// the Python facades pass them. Text that is an existing object's key, or a
// name of the current schema, is that object.
std::string ResolveObjectName(ClientContext& context, const std::string& text);
// The schema `name` names (USE, DROP SCHEMA, SHOW TABLES IN): its spelling as
// created; a CatalogError listing the schemas when there is none. `db.s` checks db.
std::string ResolveSchemaName(ClientContext& context, const QualifiedName& name);
// The name to show for `key` where one schema is listed (SHOW TABLES): without its schema.
std::string NameInSchema(ClientContext& context, const std::string& key);

// Makes `schema` the current schema while it lives: a view, materialized
// view or streaming table's query is bound in its own schema.
class SchemaScope {
 public:
  SchemaScope(ClientContext& context, std::string schema);
  ~SchemaScope();
  SchemaScope(const SchemaScope&) = delete;
  SchemaScope& operator=(const SchemaScope&) = delete;

 private:
  ClientContext& context_;
  std::string saved_;
};

// The schema SHOW TABLES (and the other object lists) lists: IN s, or the current one.
std::string ListedSchema(ClientContext& context, const ShowStatement& show);
// Whether `key` is an object of `schema`.
bool InSchema(ClientContext& context, const std::string& key, const std::string& schema);

// Replaces the statement's object names (not those inside its queries, which
// the binder resolves after CTEs) with their keys. EXPLAIN's statement too.
void ResolveStatementNames(ClientContext& context, SQLStatement& statement);

}  // namespace lakestream
