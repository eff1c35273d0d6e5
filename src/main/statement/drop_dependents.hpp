// DROP and the objects that read what it drops (docs/sql-views-dml.md,
// "DROP and what reads it").
//
// A stream or a sink holds a position (a version) in its source. Dropping
// the source under it would lose that position silently, and a table
// created again under the same name is another table whose versions do not
// follow it. So DROP TABLE / MATERIALIZED VIEW / STREAM is refused while a
// stream or sink reads it, unless CASCADE drops them too (DROP STREAMING
// TABLE only drops them with CASCADE: a pipeline's full refresh rebuilds a
// streaming table with it, and its readers notice the new table id).
// Materialized views over a dropped table are not dependents: they fail
// and recover by recompute when it is created again (docs/views.md); DROP
// MATERIALIZED VIEW keeps refusing while another materialized view reads it.
// Plain views hold only their text (they fail when read, as in Spark and
// Snowflake); streaming tables record what they read per source table id
// (function/table/ingestion_scope.hpp), so a table created again is a new
// source to them.
#pragma once

#include <string>

namespace lakestream {

class ClientContext;
struct DropStatement;
struct TableCatalogEntry;

// Before DROP `what` (e.g. "table") `name`: without CASCADE, a CatalogError
// listing the dependents and both fixes; with CASCADE, drops them first,
// each with its own dependents (a sink with its secret, a view with its
// files). Nothing when none reads it.
void DropDependentsOrRefuse(ClientContext& context, const DropStatement& stmt, const std::string& what,
                            const std::string& name);

// Forgets a table (any kind) and deletes its files when managed, a
// materialized view's aggregate state too. The folder gets the unregistered
// mark first (DatabaseInstance::MarkUnregistered), then the catalog is saved
// without the entry: a crash before the files are gone leaves a folder the
// next CREATE of the name removes, never a dangling entry (crash point
// drop.after_catalog_save stops a process there). `table` is destroyed.
void RemoveTable(ClientContext& context, TableCatalogEntry& table);

}  // namespace lakestream
