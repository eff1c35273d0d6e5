// One walk over the tables a parsed query reads, for the code that inspects
// a query before binding it (pipeline/pipeline_graph.cpp orders flows by
// what they read; main/statement/streaming_table_intent.cpp checks what a
// streaming table streams).
#pragma once

#include <functional>

#include "parser/ast.hpp"

namespace lakestream {

// Calls `visit` for every BASE_TABLE and TABLE_FUNCTION reference of `node`:
// in FROM and joins, in its CTEs and both sides of set operations, and in
// subqueries of the SELECT list, WHERE, GROUP BY, HAVING and join
// conditions. A one-part name of a CTE in scope is a CTE, not a table, and
// is not visited. Children are visited in the order written.
void VisitTableRefs(const QueryNode& node, const std::function<void(const TableRef&)>& visit);

}  // namespace lakestream
