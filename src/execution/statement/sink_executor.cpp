// Sinks: CREATE/RUN/DROP/SHOW/DESCRIBE SINK (issue 7).
#include "common/exception.hpp"
#include "execution/statement/statement_executor.hpp"
#include "main/client_context.hpp"

namespace lakestream {

std::unique_ptr<QueryResult> ExecuteCreateSink(ClientContext&, CreateSinkStatement&) {
  throw NotImplementedError("sinks (issue 7)");
}
std::unique_ptr<QueryResult> ExecuteRunSink(ClientContext&, RunSinkStatement&) {
  throw NotImplementedError("RUN SINK (issue 7)");
}
std::unique_ptr<QueryResult> ExecuteDropSink(ClientContext&, DropStatement&) {
  throw NotImplementedError("DROP SINK: sinks (issue 7)");
}
std::unique_ptr<QueryResult> ExecuteShowSinks(ClientContext&, ShowStatement&) {
  throw NotImplementedError("SHOW SINKS: sinks (issue 7)");
}
std::unique_ptr<QueryResult> ExecuteDescribeSink(ClientContext&, DescribeStatement&) {
  throw NotImplementedError("DESCRIBE SINK: sinks (issue 7)");
}

}  // namespace lakestream
