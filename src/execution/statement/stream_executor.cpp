// Table streams: CREATE/DROP/SHOW/DESCRIBE STREAM (issue 5).
#include "common/exception.hpp"
#include "execution/statement/statement_executor.hpp"
#include "main/client_context.hpp"

namespace lakestream {

std::unique_ptr<QueryResult> ExecuteCreateStream(ClientContext&, CreateStreamStatement&) {
  throw NotImplementedError("table streams (issue 5)");
}
std::unique_ptr<QueryResult> ExecuteDropStream(ClientContext&, DropStatement&) {
  throw NotImplementedError("DROP STREAM: table streams (issue 5)");
}
std::unique_ptr<QueryResult> ExecuteShowStreams(ClientContext&, ShowStatement&) {
  throw NotImplementedError("SHOW STREAMS: table streams (issue 5)");
}
std::unique_ptr<QueryResult> ExecuteDescribeStream(ClientContext&, DescribeStatement&) {
  throw NotImplementedError("DESCRIBE STREAM: table streams (issue 5)");
}

}  // namespace lakestream
