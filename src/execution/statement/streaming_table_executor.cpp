// Streaming tables: CREATE OR REFRESH STREAMING TABLE (issue 8).
#include "common/exception.hpp"
#include "execution/statement/statement_executor.hpp"
#include "main/client_context.hpp"

namespace lakestream {

std::unique_ptr<QueryResult> ExecuteCreateStreamingTable(ClientContext&, CreateViewStatement&) {
  throw NotImplementedError("streaming tables (issue 8)");
}
std::unique_ptr<QueryResult> ExecuteDropStreamingTable(ClientContext&, DropStatement&) {
  throw NotImplementedError("DROP STREAMING TABLE: streaming tables (issue 8)");
}

}  // namespace lakestream
