// A pipeline file as a dependency graph of flows.
//
// Each statement of the file declares one dataset and the flow that keeps it
// up to date: a streaming table, a materialized view / live table, a sink,
// or a plain table or stream (created once). A flow depends on the datasets
// its query reads (FROM t, LIVE.t, STREAM(t), joins, subqueries, CTE bodies,
// table_changes('t', ...)) and a sink on its source; names declared outside
// the file are external inputs. Flows are ordered so every flow runs after
// the flows it reads (file order among independent ones); a cycle is an
// InvalidInputError naming it ("a -> b -> a"). A reader of a streaming table
// that CREATE FLOWs append into runs after all of those flows.
#pragma once

#include <string>
#include <vector>

namespace lakestream {

// VIEW: CREATE [TEMPORARY] LIVE VIEW / CREATE VIEW, (re)created each pass.
// FLOW: CREATE FLOW f AS INSERT INTO t BY NAME ..., an append flow into t.
// APPLY_CHANGES: a streaming table declared without a query and the APPLY
// CHANGES / AUTO CDC flow that writes it (docs/apply-changes.md), as one flow.
enum class FlowKind : uint8_t { STREAMING_TABLE, MATERIALIZED_VIEW, SINK, TABLE, STREAM, VIEW, FLOW, APPLY_CHANGES };
const char* FlowKindName(FlowKind kind);

struct Flow {
  std::string name;  // as declared
  FlowKind kind = FlowKind::TABLE;
  // What runs each time: the declaration made idempotent (CREATE OR REFRESH
  // ..., CREATE ... IF NOT EXISTS), then for sinks "RUN SINK name".
  std::vector<std::string> statements;
  std::vector<std::string> inputs;  // names of the datasets it reads (lower case)
  // Materialized views and views: the query text after AS. While the stored view has
  // this definition the runner refreshes it with REFRESH MATERIALIZED VIEW
  // (which reports what changed) instead of re-running the declaration.
  std::string definition;
  uint32_t line = 0;                // 1-based line of the declaration in the file
  std::string target;               // FLOW: the streaming table it appends into (lower case)
  // The schema the dataset is declared in (s of s.x or catalog.s.x; "" for
  // the default schema): a run creates it when missing, as a Databricks
  // pipeline creates the schema it publishes to.
  std::string schema;
};

// Parses `sql` (the pipeline file named `file` in messages) into flows in run
// order. Throws ParserError for bad SQL and InvalidInputError for statements
// that are not declarations, names declared twice and cycles.
std::vector<Flow> PlanPipeline(const std::string& sql, const std::string& file);

}  // namespace lakestream
