// Append flows (docs/pipelines.md, "Flows"):
//
//   CREATE STREAMING TABLE t [(columns)] [TBLPROPERTIES (...)] [COMMENT '...'];
//   CREATE FLOW f1 AS INSERT INTO t BY NAME SELECT ... FROM STREAM(a);
//   CREATE FLOW f2 AS INSERT INTO t BY NAME SELECT ... FROM read_files('b/');
//
// A flow is a streaming table refresh whose query is the flow's and whose
// ingestion state (the txn app ids, function/table/ingestion_scope.hpp) is
// prefixed with the flow's name: each flow reads each of its sources once,
// however many flows write into t, and a crash between two flows' commits
// loses or repeats nothing. Rows are appended by name (t's other columns are
// NULL; a column t lacks is an error naming it).
//
// The declaration without a query creates t at once when it lists every
// column with a type; otherwise it is kept in the session
// (ClientContext::declared_streaming_tables) and the first flow creates t
// from its query's columns with the declaration's properties, comment,
// partitioning and primary key.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "lakestream/connection.hpp"
#include "main/statement/statement_executor.hpp"
#include "parser/parser.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

std::unique_ptr<CreateViewStatement> ParseDeclaration(const std::string& text) {
  auto statements = Parser::Parse(text);
  if (statements.size() != 1 || statements[0]->type != StatementType::CREATE_VIEW) {
    throw InternalError("a stored streaming table declaration does not parse back: " + text);
  }
  return std::unique_ptr<CreateViewStatement>(static_cast<CreateViewStatement*>(statements[0].release()));
}

}  // namespace

void RememberFlowTargetDeclaration(ClientContext& context, const CreateViewStatement& stmt) {
  context.declared_streaming_tables[StringUtil::Lower(stmt.name.Name())] = stmt.text;
}

std::unique_ptr<QueryResult> ExecuteCreateFlow(ClientContext& context, CreateFlowStatement& flow) {
  std::string target = flow.target.Name();
  TableCatalogEntry* table = context.GetCatalog().FindTable(target);
  std::unique_ptr<CreateViewStatement> refresh;
  if (table) {
    if (table->kind != TableKind::STREAMING_TABLE) {
      throw CatalogError("Flow " + flow.name + " writes into " + table->name + ", which is a " +
                         std::string(TableKindToString(table->kind)) +
                         "; a flow appends into a streaming table: declare one with CREATE STREAMING TABLE and point the "
                         "flow at it");
    }
    refresh = std::make_unique<CreateViewStatement>();
    refresh->name = flow.target;
  } else {
    auto declared = context.declared_streaming_tables.find(StringUtil::Lower(target));
    if (declared == context.declared_streaming_tables.end()) {
      throw CatalogError("Flow " + flow.name + " writes into the streaming table " + target +
                         ", which does not exist; declare it with CREATE STREAMING TABLE " + target +
                         "; (in the pipeline file, or earlier in this session)");
    }
    refresh = ParseDeclaration(declared->second);
  }
  refresh->kind = ViewKind::STREAMING_TABLE;
  refresh->or_refresh = true;
  refresh->or_replace = false;
  refresh->query = Parser::ParseQuery(flow.query_text);
  refresh->query_text.clear();  // the flow's query is not the table's definition
  refresh->flow_name = flow.name;
  return ExecuteCreateStreamingTable(context, *refresh);
}

}  // namespace lakestream
