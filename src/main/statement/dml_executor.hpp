// What the DML executors (INSERT, UPDATE, DELETE, MERGE, COPY FROM) share
// after binding (planner/bound_statement.hpp): checking the rows a bound plan
// computed, and running a bound INSERT.
#pragma once

#include <initializer_list>
#include <memory>

#include "catalog/catalog.hpp"
#include "lakestream/result.hpp"
#include "planner/bound_statement.hpp"

namespace lakestream {

class ClientContext;

// Throws ConstraintError "NOT NULL constraint failed: t.c cannot be NULL" +
// `fix` for the first NOT NULL column (in table order) that holds a NULL in
// any of `rows` (each in the table's columns).
void CheckNotNull(const TableCatalogEntry& table, std::initializer_list<const ChunkCollection*> rows, const char* fix);

// Runs `bound`'s plan, checks NOT NULL columns and commits the rows
// (CommitStatementChanges). Returns num_affected_rows.
std::unique_ptr<QueryResult> ExecuteBoundInsert(ClientContext& context, BoundInsert& bound);

}  // namespace lakestream
