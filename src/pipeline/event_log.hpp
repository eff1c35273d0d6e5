// The pipeline event log: what each update (`lakestream run` pass) did, as
// rows of the Delta table `event_log` in the pipeline's database, in the
// shape of Databricks' pipeline event log (docs/pipelines.md, "Event log").
//
// Columns: id, timestamp, pipeline (the file's absolute path), update_id,
// event_type, level, origin (the flow or dataset, NULL for the update
// itself), message, details (JSON text, keyed by the event type as in
// Databricks: {"flow_progress": {...}}). The table is append-only
// (delta.appendOnly) with its change feed on, so it has history, time travel
// and a change feed like any table, and SQL reads it back.
//
// Events are buffered and written in one INSERT (one commit) per Flush. The
// runner flushes after each flow that changed something or failed and at
// the end of the update, so a process killed mid-update keeps the events of
// the flows that committed. Writing the log never fails the pipeline: a
// failed write (or a table event_log with other columns) is reported once on
// stderr and its events are dropped, so a long --continuous run does not
// pile them up.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lakestream/connection.hpp"

namespace lakestream {

class EventLog {
 public:
  static constexpr const char* kTable = "event_log";

  // `pipeline`: the pipeline file's absolute path (the log's pipeline column).
  EventLog(Connection& con, std::string pipeline);

  // A new update: a fresh update_id and a create_update event.
  void StartUpdate(int64_t pass, const std::vector<std::string>& full_refresh, bool continuous);
  // Queues an event of the current update; `origin` empty for the update itself.
  void Add(const std::string& event_type, const std::string& level, const std::string& origin, const std::string& message,
           const nlohmann::json& details);
  // Writes the queued events; returns false (and drops them) when it could not.
  bool Flush();
  // Drops the queued events (an idle pass of --continuous logs nothing).
  void Discard() { pending_.clear(); }
  const std::string& UpdateId() const { return update_id_; }

 private:
  bool EnsureTable();
  void Warn(const std::string& message);  // once per run; drops the queued events

  Connection& con_;
  std::string pipeline_;
  std::string update_id_;
  int64_t sequence_ = 0;
  bool table_ready_ = false;
  bool warned_ = false;
  std::vector<std::string> pending_;  // rows as SQL value lists
};

}  // namespace lakestream
