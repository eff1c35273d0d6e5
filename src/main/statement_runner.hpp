// Running SQL text in a session: parse, then for each statement take the
// database's statement lock, start the statement (ClientContext), let views
// catch up, dispatch to the statement's executor (main/statement/) and turn
// every exception into an error result.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/value.hpp"
#include "lakestream/result.hpp"
#include "parser/ast.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

// Runs the statements of `sql` in order; stops after the first error (whose
// result is the last one returned).
std::vector<std::unique_ptr<QueryResult>> RunQuery(ClientContext& context, const std::string& sql);
// Runs parsed statements, filling their parameters from `parameters` ($1 is
// parameters[0]; main/parameter_substitution.hpp) first. The statements can
// be run again (a prepared statement). Checks for an interrupt before each
// statement (ClientContext::CheckInterrupt).
std::vector<std::unique_ptr<QueryResult>> RunStatements(ClientContext& context,
                                                        std::vector<std::unique_ptr<SQLStatement>>& statements,
                                                        const std::vector<Value>& parameters);
// Connection::SendQuery for one SELECT: binds and plans it under the
// statement lock and returns a streaming result (QueryResult::SetStream)
// that holds the plan and the lock; an error result when that fails.
std::unique_ptr<QueryResult> StartSelectStream(ClientContext& context, std::unique_ptr<SQLStatement> statement,
                                               const std::vector<Value>& parameters);

}  // namespace lakestream
