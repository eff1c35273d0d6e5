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

class PipelineRunner {
 public:
  PipelineRunner(Database& db, std::vector<Flow> flows, ProgressDisplay& display, const std::atomic<bool>* stop);
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
};

}  // namespace lakestream
