#include "main/statement/streaming_table_intent.hpp"

#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/drop_dependents.hpp"
#include "parser/ast.hpp"
#include "parser/lexer.hpp"
#include "parser/parser.hpp"
#include "parser/table_ref_visitor.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

struct QueryReads {
  std::vector<std::string> streamed_tables;  // STREAM(t)
  std::vector<std::string> streamed_sources; // read_files(...), read_kafka(...): incremental in a streaming table
  std::vector<std::string> whole_tables;     // FROM t
  bool stream_options = false;               // STREAM t WITH (...)
  bool aggregates = false;                   // GROUP BY / HAVING at the top level
};

void CollectQuery(const QueryNode& node, QueryReads& out) {
  VisitTableRefs(node, [&](const TableRef& ref) {
    if (ref.type == TableRefType::BASE_TABLE) {
      (ref.stream_function ? out.streamed_tables : out.whole_tables).push_back(ref.name.ToString());
      out.stream_options = out.stream_options || !ref.stream_options.empty();
      return;
    }
    std::string f = ref.function ? StringUtil::Lower(ref.function->function_name) : "";
    if (f == "read_files" || f == "read_kafka" || f == "cloud_files") out.streamed_sources.push_back(f + "()");
  });
}

bool IsWord(const Token& token, const char* word) {
  return token.type == TokenType::IDENTIFIER && StringUtil::CIEquals(token.text, word);
}
bool IsOp(const Token& token, const char* op) { return token.type == TokenType::OPERATOR && token.text == op; }

// `query_text` with each STREAM(x) / STREAM x in a FROM or JOIN position
// written as x: the same query over the whole tables.
std::string WithoutStream(const std::string& query_text) {
  auto tokens = Lexer::Tokenize(query_text);
  std::vector<std::pair<uint32_t, uint32_t>> cuts;  // [begin, end) byte ranges to remove
  for (size_t i = 1; i + 1 < tokens.size(); i++) {
    if (!IsWord(tokens[i], "STREAM")) continue;
    const Token& before = tokens[i - 1];
    if (!IsWord(before, "FROM") && !IsWord(before, "JOIN") && !IsOp(before, ",")) continue;
    if (IsOp(tokens[i + 1], "(")) {
      int depth = 0;
      size_t close = i + 1;
      for (; close < tokens.size(); close++) {
        if (IsOp(tokens[close], "(")) depth++;
        if (IsOp(tokens[close], ")") && --depth == 0) break;
      }
      if (close >= tokens.size()) return query_text;
      cuts.emplace_back(tokens[i].offset, tokens[i + 1].end);
      cuts.emplace_back(tokens[close].offset, tokens[close].end);
    } else {
      cuts.emplace_back(tokens[i].offset, tokens[i + 1].offset);
    }
  }
  std::string out;
  uint32_t at = 0;
  for (auto& [begin, end] : cuts) {
    out += query_text.substr(at, begin - at);
    at = end;
  }
  return out + query_text.substr(at);
}

}  // namespace

std::unique_ptr<CreateViewStatement> IntendedMaterializedView(ClientContext& context, const CreateViewStatement& stmt) {
  if (!stmt.query || !stmt.flow_name.empty()) return nullptr;
  QueryReads reads;
  CollectQuery(*stmt.query, reads);
  reads.aggregates = !stmt.query->group_by.empty() || stmt.query->having != nullptr;
  std::string name = stmt.name.ToString();
  bool no_stream = reads.streamed_tables.empty() && reads.streamed_sources.empty();
  if (!reads.streamed_sources.empty()) {
    if (!reads.aggregates) return nullptr;
    throw InvalidInputError(
        "Streaming table " + name + " aggregates (GROUP BY) straight over " + reads.streamed_sources[0] +
        ": each refresh would append the aggregates of the new records alone, one partial row per group and run. "
        "Ingest the records into a streaming table first (CREATE OR REFRESH STREAMING TABLE " + name +
        "_raw AS SELECT * FROM STREAM " + reads.streamed_sources[0] + "), then aggregate it in a materialized view "
        "(CREATE OR REFRESH MATERIALIZED VIEW " + name + " AS SELECT ... FROM " + name + "_raw GROUP BY ...)");
  }
  if (no_stream && reads.whole_tables.empty()) return nullptr;  // constants: appended once, as written
  if (!no_stream && !reads.aggregates) return nullptr;         // appends new rows (stream-static joins too)
  std::string why = no_stream ? "reads no stream (" + reads.whole_tables[0] +
                                    " is read whole, so no row would ever count as new and the table would stay empty)"
                              : "aggregates (GROUP BY) over STREAM(" + reads.streamed_tables[0] +
                                    "), which would append one partial row per group at every refresh";
  std::string modern = "CREATE OR REFRESH MATERIALIZED VIEW " + name + " AS ...";
  if (!stmt.columns.empty() || !stmt.primary_key.empty() || reads.stream_options) {
    throw InvalidInputError("Streaming table " + name + " " + why + "; a maintained result is a materialized view: "
                            "write " + modern + " (without the declared columns, key or STREAM options), or read "
                            "the source with STREAM(...) to append its new rows");
  }
  Catalog& catalog = context.GetCatalog();
  if (TableCatalogEntry* existing = catalog.FindTable(stmt.name.Name());
      existing && existing->kind == TableKind::STREAMING_TABLE) {
    if (existing->storage && existing->storage->RowCount() > 0) {
      throw CatalogError("Streaming table " + name + " " + why + ", and it already holds rows that earlier runs "
                         "appended; it should be a materialized view. Drop it (DROP STREAMING TABLE " + name +
                         ") or write CREATE OR REPLACE, and it is rebuilt as " + modern);
    }
    // Empty (an earlier run created it and nothing ever counted as new):
    // nothing is lost by making it what the query means.
    DropStatement drop;
    drop.name = stmt.name;
    DropDependentsOrRefuse(context, drop, "streaming table", existing->name);
    RemoveTable(context, *existing);
  }
  auto view = std::make_unique<CreateViewStatement>();
  view->kind = ViewKind::MATERIALIZED_VIEW;
  view->name = stmt.name;
  view->or_replace = stmt.or_replace;
  view->or_refresh = stmt.or_refresh || !stmt.or_replace;
  view->if_not_exists = stmt.if_not_exists;
  view->expectations = stmt.expectations;
  view->properties = stmt.properties;
  view->comment = stmt.comment;
  view->partitioned_by = stmt.partitioned_by;
  view->query_text = no_stream ? stmt.query_text : WithoutStream(stmt.query_text);
  view->query = Parser::ParseQuery(view->query_text);
  view->text = stmt.text;
  view->location = stmt.location;
  context.AddWarning("streaming table " + name + " " + why + ": it is kept as a materialized view instead, maintained "
                     "incrementally and publishing only the groups that change (write " + modern + ")");
  return view;
}

}  // namespace lakestream
