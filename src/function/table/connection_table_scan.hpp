// Reading the application's own tables by name (Connection::RegisterTable and
// the replacement scan, transaction/connection_table.hpp): the binder's one
// hook for a one-part name that is no CTE, temporary view or catalog object.
#pragma once

#include <optional>
#include <string>

#include "function/table_function.hpp"

namespace lakestream {

// The scan of the table registered under `name` on this connection, else of
// the one the replacement scan returns for it; nullopt when neither has one.
// Whatever the replacement scan throws passes through (the statement fails).
std::optional<TableFunctionBinding> BindConnectionTable(ClientContext& context, const std::string& name);

// Throws a BinderError when `source`, a name a stored definition reads
// (a materialized view's source as ViewAnalysis lists it), is the
// application's own data rather than a catalog object: such data is neither
// stored nor change-tracked, so nothing could maintain or refresh the view
// once the variable is gone (Spark refuses a permanent view over a temporary
// one for the same reason). `what` names the object, "Materialized view mv".
void RefuseConnectionTableSource(ClientContext& context, const std::string& what, const std::string& source);

}  // namespace lakestream
