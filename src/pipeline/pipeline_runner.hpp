// PipelineRunner: runs the flows of a pipeline file (pipeline_graph.hpp) in
// dependency order against one database, once or in passes, and reports
// progress per flow through a ProgressDisplay.
//
// A pass runs every flow's statements through a Connection. Each statement
// commits atomically, so stopping between statements (the stop flag is read
// before each one) never leaves anything half done. A failed flow is
// reported and the flows that read it are skipped for that pass; the next
// pass tries again.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <ostream>
#include <string>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/result.hpp"
#include "pipeline/pipeline_graph.hpp"

namespace lakestream {

struct FlowProgress {
  std::string name;
  FlowKind kind = FlowKind::TABLE;
  // waiting, running, created (first run), updated, up to date, failed, skipped, stopped
  std::string state = "waiting";
  int64_t files = 0;              // totals over the whole run
  int64_t rows_in = 0;
  int64_t rows_out = 0;
  int64_t commits = 0;  // passes that changed something
  std::optional<int64_t> version;
  std::optional<int64_t> lag_ms;  // of the last pass that ingested files
  std::string error;
  // The last pass's own figures (the event log's flow_progress metrics).
  int64_t pass_files = 0;
  int64_t pass_rows_in = 0;
  int64_t pass_rows_out = 0;
  int64_t pass_upserted = 0;  // num_inserted_rows + num_updated_rows (APPLY CHANGES, views)
  int64_t pass_deleted = 0;
  std::string pass_expectations;  // the statement's `expectations` JSON, when it has expectations
  std::vector<std::string> pass_warnings;  // the statements' warnings (QueryResult::Warnings)
  std::string pass_changed_files;          // a streaming table's `changed_files` JSON, when files changed
};

class ProgressDisplay {
 public:
  // `live`: redraw one table in place (a terminal); otherwise one line per
  // flow that did something.
  ProgressDisplay(std::ostream& out, bool live, std::string title);
  void Update(const std::vector<FlowProgress>& flows, int64_t pass, const std::string& note);
  // A flow finished a step (plain mode prints it; live mode redraws).
  void FlowDone(const std::vector<FlowProgress>& flows, const FlowProgress& flow, int64_t pass);

 private:
  void Redraw(const std::vector<FlowProgress>& flows, int64_t pass, const std::string& note);
  std::ostream& out_;
  bool live_;
  std::string title_;
  int drawn_lines_ = 0;
};

class EventLog;

class PipelineRunner {
 public:
  PipelineRunner(Database& db, std::vector<Flow> flows, ProgressDisplay& display, const std::atomic<bool>* stop);
  ~PipelineRunner();
  // Every pass writes its events to the database's event log (event_log.hpp);
  // `pipeline` is the file's absolute path. With `continuous`, a pass in
  // which no flow changed anything or failed logs nothing.
  void EnableEventLog(const std::string& pipeline, bool continuous);
  // The next pass recomputes these datasets from their sources: streaming
  // tables (and APPLY CHANGES targets) are dropped with their ingestion
  // state and built again, materialized views are refreshed FULL. `all`:
  // every streaming table and materialized view of the pipeline. Throws
  // InvalidInputError for a name the pipeline does not declare as one.
  void SetFullRefresh(const std::vector<std::string>& names, bool all);
  // The pipeline's target schema (Databricks' `target`, `lakestream run
  // --schema`): created when missing and made the runner's current schema,
  // so datasets declared without a schema, LIVE.x and the event log are
  // S's. Call before EnableEventLog. Throws InvalidInputError naming the
  // schema when it cannot be created or used.
  void SetTargetSchema(const std::string& schema);
  // One pass over every flow. Returns false when a flow failed.
  bool RunPass();
  // Passes every `interval_ms` until the stop flag is set.
  void RunContinuously(int64_t interval_ms);
  const std::vector<FlowProgress>& Progress() const { return progress_; }
  // One row per flow: flow, kind, state, files, rows_in, rows_out, commits, version, error.
  std::unique_ptr<QueryResult> Summary() const;
  int64_t Passes() const { return pass_; }

 private:
  bool Stopping() const { return stop_ && stop_->load(); }
  bool RunFlow(idx_t i);
  // Queues the flow's flow_progress event, and a schema_change event when
  // its table's columns (name, type) changed in this pass.
  void LogFlow(const Flow& flow, const FlowProgress& p, const std::vector<std::pair<std::string, std::string>>& before,
               const std::vector<std::pair<std::string, std::string>>& after);

  Database& db_;
  Connection con_;
  std::vector<Flow> flows_;
  std::vector<FlowProgress> progress_;
  ProgressDisplay& display_;
  const std::atomic<bool>* stop_;
  int64_t pass_ = 0;
  // Views whose definition changed in this pass (a parameter's new value):
  // materialized views over them are recomputed, not refreshed incrementally.
  std::set<std::string> changed_views_;
  std::unique_ptr<EventLog> log_;
  bool continuous_ = false;
  std::set<std::string> full_refresh_;  // lower-case dataset names, for the next pass only
};

}  // namespace lakestream
