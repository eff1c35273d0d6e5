// Materialized views: CREATE/REFRESH/DROP/SHOW/DESCRIBE and automatic refresh (issue 6).
#include "common/exception.hpp"
#include "execution/statement/statement_executor.hpp"
#include "main/client_context.hpp"

namespace lakestream {

std::unique_ptr<QueryResult> ExecuteCreateMaterializedView(ClientContext&, CreateViewStatement&) {
  throw NotImplementedError("materialized views (issue 6)");
}
std::unique_ptr<QueryResult> ExecuteRefresh(ClientContext&, RefreshStatement&) {
  throw NotImplementedError("REFRESH MATERIALIZED VIEW (issue 6)");
}
std::unique_ptr<QueryResult> ExecuteDropMaterializedView(ClientContext&, DropStatement&) {
  throw NotImplementedError("DROP MATERIALIZED VIEW (issue 6)");
}
std::unique_ptr<QueryResult> ExecuteShowMaterializedViews(ClientContext&, ShowStatement&) {
  throw NotImplementedError("SHOW MATERIALIZED VIEWS (issue 6)");
}
std::unique_ptr<QueryResult> ExecuteDescribeMaterializedView(ClientContext&, DescribeStatement&) {
  throw NotImplementedError("DESCRIBE MATERIALIZED VIEW (issue 6)");
}
void MaintainViewsAfterStatement(ClientContext&) {}

}  // namespace lakestream
