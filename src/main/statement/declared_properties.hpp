// Pipeline tables (streaming tables, materialized views, APPLY CHANGES
// targets) take their TBLPROPERTIES from their declaration at every run, as a
// Databricks pipeline does: a key the declaration no longer names is removed
// from the table, a new or changed one is set.
#pragma once

#include "parser/ast.hpp"

namespace lakestream {

class ClientContext;
struct TableCatalogEntry;

// Records `declared`'s keys as the ones the declaration owns (the table's
// state, `declared_properties`); for a table that is being created.
void RecordDeclaredProperties(TableCatalogEntry& table, const PropertyList& declared);

// Brings an existing pipeline table's properties to `declared`: keys recorded
// by an earlier run and absent now are unset, new or changed ones are set
// (each a Delta metadata commit only when something changes), and the record
// is updated. Change tracking (change_tracking / delta.enableChangeDataFeed)
// is never removed: the pipeline turned it on for its downstream readers.
// Keys set with ALTER TABLE and never declared are left alone.
void ReconcileDeclaredProperties(ClientContext& context, TableCatalogEntry& table, const PropertyList& declared);

}  // namespace lakestream
