// Subqueries used as values (x IN (SELECT ...), EXISTS (...), (SELECT max(...)))
// are bound into plans (BoundExpressionType::SUBQUERY) and run here, when the
// outer plan is turned into operators: binding reads no data.
//
// Each SUBQUERY node is replaced by what the binder made of the rows before
// plans ran them: a constant (scalar: NULL for no row, InvalidInputError for
// more than one; EXISTS / NOT EXISTS: a BOOLEAN), or for IN an IN_LIST of the
// probe and the rows as constants of the compared type (FALSE / TRUE for NOT
// IN over no rows). Expressions over the replaced node that became constant
// are folded, as the binder folds them.
//
// A subquery runs once per statement: copies of a node share its plan and,
// after the first run, its rows. Subqueries inside a subquery run when that
// subquery's plan runs.
#pragma once

#include "expression/bound_expression.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class ClientContext;

// Resolves the subqueries of every expression of `plan` (not of the plans of
// the subqueries themselves: those are resolved when they run).
void ResolveSubqueries(ClientContext& context, LogicalOperator& plan);

// Resolves the subqueries in one expression (a column DEFAULT).
BoundExprPtr ResolveSubqueries(ClientContext& context, BoundExprPtr expr);

}  // namespace lakestream
