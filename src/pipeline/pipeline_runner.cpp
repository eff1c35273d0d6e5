#include "pipeline/pipeline_runner.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "lakestream/tools.hpp"
#include "pipeline/event_log.hpp"

namespace lakestream {

namespace {

// The first column of `result` whose name is one of `names`, as a number.
std::optional<int64_t> Number(const QueryResult& result, std::initializer_list<const char*> names) {
  if (result.RowCount() == 0) return std::nullopt;
  for (const char* name : names) {
    for (idx_t c = 0; c < result.ColumnCount(); c++) {
      if (!StringUtil::CIEquals(result.Names()[c], name)) continue;
      int64_t total = 0;
      bool any = false;
      for (idx_t r = 0; r < result.RowCount(); r++) {
        SqlValue v = result.GetValue(c, r);
        if (v.IsNull()) continue;
        try {
          total += v.AsBigint();
        } catch (const std::exception&) {
          continue;  // not a number (a text column of that name)
        }
        any = true;
      }
      if (any) return total;
    }
  }
  return std::nullopt;
}

// The sum of the columns of `result` named in `names`.
int64_t Sum(const QueryResult& result, std::initializer_list<const char*> names) {
  int64_t total = 0;
  for (const char* name : names) total += Number(result, {name}).value_or(0);
  return total;
}

// The first column of the rows of `sql` (SHOW ...), lower-cased; empty when it fails.
std::vector<std::string> FirstColumn(Connection& con, const std::string& sql) {
  std::vector<std::string> out;
  auto result = con.Query(sql);
  if (result->HasError()) return out;
  for (idx_t r = 0; r < result->RowCount(); r++) {
    SqlValue v = result->GetValue(0, r);
    if (!v.IsNull()) out.push_back(StringUtil::Lower(v.ToString()));
  }
  return out;
}

bool FlowExists(Connection& con, const Flow& flow) {
  const char* show = flow.kind == FlowKind::SINK     ? "SHOW SINKS"
                     : flow.kind == FlowKind::STREAM ? "SHOW STREAMS"
                     : flow.kind == FlowKind::VIEW   ? "SHOW VIEWS"
                                                     : "SHOW TABLES";
  // A flow has run once its target exists.
  std::string name = flow.kind == FlowKind::FLOW ? flow.target : StringUtil::Lower(flow.name);
  auto names = FirstColumn(con, show);
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  // s.x: x in the list of schema s (SHOW lists one schema, docs/sql-schemas.md).
  size_t dot = name.find('.');
  if (dot == std::string::npos || dot == 0) return false;
  names = FirstColumn(con, std::string(show) + " IN " + QuoteIdentifier(name.substr(0, dot)));
  return std::find(names.begin(), names.end(), name.substr(dot + 1)) != names.end();
}

// The stored definition of materialized view `name` (DESCRIBE MATERIALIZED
// VIEW), or nothing when there is no such view.
std::optional<std::string> ViewDefinition(Connection& con, const std::string& name) {
  auto result = con.Query("DESCRIBE MATERIALIZED VIEW " + QuoteIdentifier(name));
  if (result->HasError()) return std::nullopt;
  for (idx_t r = 0; r < result->RowCount(); r++) {
    if (result->GetValue(0, r).ToString() == "definition") return result->GetValue(1, r).ToString();
  }
  return std::nullopt;
}

// The stored definition of plain view `name` (SHOW VIEWS), or nothing.
std::optional<std::string> PlainViewDefinition(Connection& con, const std::string& name) {
  auto find = [&](const std::string& sql, const std::string& shown) -> std::optional<std::string> {
    auto result = con.Query(sql);
    if (result->HasError()) return std::nullopt;
    for (idx_t r = 0; r < result->RowCount(); r++) {
      if (StringUtil::CIEquals(result->GetValue(0, r).ToString(), shown) && result->GetValue(1, r).ToString() == "view") {
        return result->GetValue(2, r).ToString();
      }
    }
    return std::nullopt;
  };
  if (auto definition = find("SHOW VIEWS", name)) return definition;
  size_t dot = name.find('.');  // s.v: v in the list of schema s
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  return find("SHOW VIEWS IN " + QuoteIdentifier(name.substr(0, dot)), name.substr(dot + 1));
}

// The columns of table `name` as (name, type) (DESCRIBE), empty when there is no such table.
std::vector<std::pair<std::string, std::string>> Columns(Connection& con, const std::string& name) {
  std::vector<std::pair<std::string, std::string>> out;
  auto result = con.Query("DESCRIBE " + QuoteIdentifier(name));
  if (result->HasError() || result->ColumnCount() < 2) return out;
  for (idx_t r = 0; r < result->RowCount(); r++) {
    out.emplace_back(result->GetValue(0, r).ToString(), result->GetValue(1, r).ToString());
  }
  return out;
}

// The table a flow writes (a flow's target, else the dataset itself).
std::string Dataset(const Flow& flow) { return flow.kind == FlowKind::FLOW ? flow.target : flow.name; }

bool TracksSchema(FlowKind kind) {
  return kind == FlowKind::STREAMING_TABLE || kind == FlowKind::APPLY_CHANGES || kind == FlowKind::FLOW;
}

bool Noteworthy(const FlowProgress& p) { return p.state != "up to date" && p.state != "waiting"; }

}  // namespace

PipelineRunner::~PipelineRunner() = default;

void PipelineRunner::EnableEventLog(const std::string& pipeline, bool continuous) {
  for (auto& flow : flows_) {
    if (StringUtil::CIEquals(flow.name, EventLog::kTable)) {
      throw InvalidInputError("the pipeline declares " + flow.name + " (line " + std::to_string(flow.line) +
                              "), the name of the pipeline event log table; rename the dataset");
    }
  }
  log_ = std::make_unique<EventLog>(con_, pipeline);
  continuous_ = continuous;
}

void PipelineRunner::SetFullRefresh(const std::vector<std::string>& names, bool all) {
  std::string recomputable;
  for (auto& flow : flows_) {
    bool ok = flow.kind == FlowKind::STREAMING_TABLE || flow.kind == FlowKind::APPLY_CHANGES ||
              flow.kind == FlowKind::MATERIALIZED_VIEW;
    if (!ok) continue;
    recomputable += (recomputable.empty() ? "" : ", ") + flow.name;
    if (all) full_refresh_.insert(StringUtil::Lower(flow.name));
  }
  for (auto& name : names) {
    const Flow* found = nullptr;
    for (auto& flow : flows_) {
      if (StringUtil::CIEquals(flow.name, name)) found = &flow;
    }
    if (!found) {
      throw InvalidInputError("--full-refresh names " + name + ", which the pipeline does not declare; its streaming "
                              "tables and materialized views are: " + (recomputable.empty() ? "(none)" : recomputable));
    }
    if (found->kind == FlowKind::FLOW) {
      throw InvalidInputError("--full-refresh names " + name + ", a flow into " + found->target +
                              "; full refresh the table: --full-refresh " + found->target);
    }
    if (found->kind != FlowKind::STREAMING_TABLE && found->kind != FlowKind::APPLY_CHANGES &&
        found->kind != FlowKind::MATERIALIZED_VIEW) {
      throw InvalidInputError("--full-refresh names " + name + ", a " + FlowKindName(found->kind) +
                              ", which holds no rows to recompute; name streaming tables or materialized views: " +
                              recomputable);
    }
    full_refresh_.insert(StringUtil::Lower(found->name));
  }
  // What reads a recomputed table is recomputed too: a streaming table
  // reading STREAM(t) holds offsets of the table t was (it would read all
  // of the new one again, appending its rows twice), and a materialized
  // view's recorded source version would be ahead of the new table's.
  for (bool grew = !full_refresh_.empty(); grew;) {
    grew = false;
    for (auto& flow : flows_) {
      bool recomputable = flow.kind == FlowKind::STREAMING_TABLE || flow.kind == FlowKind::APPLY_CHANGES ||
                          flow.kind == FlowKind::MATERIALIZED_VIEW || flow.kind == FlowKind::FLOW;
      std::string target = StringUtil::Lower(Dataset(flow));
      if (!recomputable || full_refresh_.count(target)) continue;
      for (auto& input : flow.inputs) {
        if (!full_refresh_.count(input)) continue;
        full_refresh_.insert(target);
        grew = true;
        break;
      }
    }
  }
}

PipelineRunner::PipelineRunner(Database& db, std::vector<Flow> flows, ProgressDisplay& display, const std::atomic<bool>* stop)
    : db_(db), con_(db), flows_(std::move(flows)), display_(display), stop_(stop) {
  for (auto& flow : flows_) {
    FlowProgress p;
    p.name = flow.name;
    p.kind = flow.kind;
    progress_.push_back(p);
  }
}

void PipelineRunner::SetTargetSchema(const std::string& schema) {
  std::string name = QuoteIdentifier(schema);
  auto used = con_.Query("CREATE SCHEMA IF NOT EXISTS " + name + "; USE " + name);
  if (used->HasError()) throw InvalidInputError("the pipeline's target schema " + schema + ": " + used->GetError());
}

bool PipelineRunner::RunFlow(idx_t i) {
  const Flow& flow = flows_[i];
  FlowProgress& p = progress_[i];
  p.state = "running";
  p.error.clear();
  p.pass_files = p.pass_rows_in = p.pass_rows_out = p.pass_upserted = p.pass_deleted = 0;
  p.pass_expectations.clear();
  p.pass_warnings.clear();
  p.pass_changed_files.clear();
  display_.Update(progress_, pass_, "");
  if (!flow.schema.empty()) {
    // The schema s of a dataset s.x: made at the run, as Databricks makes a pipeline's target schema.
    auto created = con_.Query("CREATE SCHEMA IF NOT EXISTS " + QuoteIdentifier(flow.schema));
    if (created->HasError()) {
      p.state = "failed";
      p.error = created->GetError();
      display_.FlowDone(progress_, p, pass_);
      LogFlow(flow, p, {}, {});
      return false;
    }
  }
  bool changed = false;
  bool existed = FlowExists(con_, flow);
  std::vector<std::string> statements = flow.statements;
  bool reads_changed_view = false;
  for (auto& input : flow.inputs) reads_changed_view = reads_changed_view || changed_views_.count(input);
  if (flow.kind == FlowKind::VIEW && (reads_changed_view || PlainViewDefinition(con_, flow.name) != flow.definition)) {
    changed_views_.insert(StringUtil::Lower(flow.name));
  }
  bool full = full_refresh_.count(StringUtil::Lower(flow.name)) > 0;
  std::string refresh_full = "REFRESH MATERIALIZED VIEW " + QuoteIdentifier(flow.name) + " FULL";
  if (flow.kind == FlowKind::MATERIALIZED_VIEW && existed && ViewDefinition(con_, flow.name) == flow.definition) {
    // A view it reads changed under it: its rows must be recomputed.
    statements = {(reads_changed_view || full) ? refresh_full : "REFRESH MATERIALIZED VIEW " + QuoteIdentifier(flow.name)};
  } else if (flow.kind == FlowKind::MATERIALIZED_VIEW && existed && full) {
    statements.push_back(refresh_full);
  }
  if (full && (flow.kind == FlowKind::STREAMING_TABLE || flow.kind == FlowKind::APPLY_CHANGES)) {
    // Its rows and its ingestion state (the txns in its log, APPLY CHANGES'
    // state folder) go together; the declaration then builds it again from
    // every file and source version.
    statements.insert(statements.begin(), "DROP STREAMING TABLE IF EXISTS " + QuoteIdentifier(flow.name));
  }
  if (flow.kind == FlowKind::SINK && !statements.empty()) {
    // A sink's delivered version names a version of the table that was
    // rebuilt; the new table's versions start again at 0. It delivers the
    // new table from its start, as the flows reading a fully refreshed
    // table do in Databricks.
    for (auto& other : flows_) {
      bool rebuilt = (other.kind == FlowKind::STREAMING_TABLE || other.kind == FlowKind::APPLY_CHANGES) &&
                     full_refresh_.count(StringUtil::Lower(other.name));
      if (!rebuilt || std::find(flow.inputs.begin(), flow.inputs.end(), StringUtil::Lower(other.name)) == flow.inputs.end()) {
        continue;
      }
      statements.insert(statements.end() - 1, "ALTER SINK " + QuoteIdentifier(flow.name) + " SET ('start' = 'earliest')");
      full = true;
      break;
    }
  }
  std::string dataset = Dataset(flow);
  std::vector<std::pair<std::string, std::string>> before;
  if (log_ && TracksSchema(flow.kind) && existed && !full) before = Columns(con_, dataset);
  for (auto& sql : statements) {
    if (Stopping()) {
      p.state = "stopped";
      LogFlow(flow, p, {}, {});
      return true;
    }
    auto result = con_.Query(sql);
    if (result->HasError()) {
      p.state = "failed";
      p.error = result->GetError();
      display_.FlowDone(progress_, p, pass_);
      LogFlow(flow, p, {}, {});
      return false;
    }
    int64_t files = Number(*result, {"files"}).value_or(0);
    int64_t in = Number(*result, {"rows_read", "rows_in", "changes_read", "changes"}).value_or(0);
    int64_t out = Sum(*result, {"rows_written", "messages", "num_inserted_rows", "num_updated_rows", "num_deleted_rows"});
    p.files += files;
    p.rows_in += in;
    p.rows_out += out;
    p.pass_files += files;
    p.pass_rows_in += in;
    p.pass_rows_out += out;
    p.pass_upserted += Sum(*result, {"num_inserted_rows", "num_updated_rows"});
    p.pass_deleted += Number(*result, {"num_deleted_rows"}).value_or(0);
    for (idx_t c = 0; c < result->ColumnCount() && result->RowCount() > 0; c++) {
      if (result->Names()[c] == "expectations") p.pass_expectations = result->GetValue(c, 0).ToString();
      if (result->Names()[c] == "changed_files") p.pass_changed_files = result->GetValue(c, 0).ToString();
    }
    for (auto& warning : result->Warnings()) p.pass_warnings.push_back(warning);
    if (auto v = Number(*result, {"version", "delivered_version"})) p.version = v;
    if (auto lag = Number(*result, {"lag_ms"})) p.lag_ms = lag;
    changed = changed || files > 0 || out > 0;
  }
  if (changed || !existed || full) p.commits++;
  p.state = full ? "recomputed" : !existed ? "created" : changed ? "updated" : "up to date";
  display_.FlowDone(progress_, p, pass_);
  std::vector<std::pair<std::string, std::string>> after;
  if (!before.empty()) after = Columns(con_, dataset);
  LogFlow(flow, p, before, after);
  return true;
}

void PipelineRunner::LogFlow(const Flow& flow, const FlowProgress& p,
                             const std::vector<std::pair<std::string, std::string>>& before,
                             const std::vector<std::pair<std::string, std::string>>& after) {
  if (!log_) return;
  std::string dataset = Dataset(flow);
  std::string status = p.state == "failed" ? "FAILED" : p.state == "skipped" ? "SKIPPED" : p.state == "stopped" ? "STOPPED" : "COMPLETED";
  nlohmann::json progress = {{"status", status},
                             {"state", p.state},
                             {"kind", FlowKindName(flow.kind)},
                             {"dataset", dataset},
                             {"metrics",
                              {{"num_files", p.pass_files},
                               {"num_input_rows", p.pass_rows_in},
                               {"num_output_rows", p.pass_rows_out},
                               {"num_upserted_rows", p.pass_upserted},
                               {"num_deleted_rows", p.pass_deleted}}}};
  std::string level = status == "FAILED" ? "ERROR" : status == "SKIPPED" ? "WARN" : "INFO";
  std::string message = "Flow " + flow.name + " (" + FlowKindName(flow.kind) + ") " + p.state;
  if (status == "COMPLETED") {
    message += ": " + std::to_string(p.pass_rows_in) + " rows in, " + std::to_string(p.pass_rows_out) + " rows out";
  }
  if (!p.pass_expectations.empty()) {
    nlohmann::json quality = ParseJson(p.pass_expectations);
    if (!quality.is_discarded()) {
      progress["data_quality"] = quality;
      for (auto& e : quality["expectations"]) {
        int64_t failed = e.value("failed_records", int64_t{0});
        if (failed == 0) continue;
        if (level == "INFO") level = "WARN";
        message += "; expectation " + e.value("name", std::string()) + ": " + std::to_string(failed) + " of " +
                   std::to_string(failed + e.value("passed_records", int64_t{0})) + " rows failed (" +
                   e.value("action", std::string()) + ")";
      }
    }
  }
  if (!p.error.empty()) {
    progress["error"] = p.error;
    message += ": " + p.error;
  }
  // What the statements warned about (a streaming table kept as a
  // materialized view, ...) is in the log too, not only on the terminal.
  if (!p.pass_warnings.empty()) {
    progress["warnings"] = p.pass_warnings;
    if (level == "INFO") level = "WARN";
    for (auto& warning : p.pass_warnings) message += "; warning: " + warning;
  }
  log_->Add("flow_progress", level, flow.name, message, {{"flow_progress", progress}});
  // A landing file that changed after it was ingested: one WARN event each,
  // naming the file with its old and new size and modification time.
  nlohmann::json changed_files = ParseJson(p.pass_changed_files);
  if (changed_files.is_array()) {
    for (auto& f : changed_files) {
      std::string path = f.value("path", std::string());
      std::string text = "File " + path + " changed after it was ingested into " + dataset + " (size " +
                         std::to_string(f.value("old_size", int64_t{0})) + " -> " +
                         std::to_string(f.value("new_size", int64_t{0})) + " bytes)" +
                         (f.value("reread", false) ? "; read again (allowOverwrites)" : "; not read again");
      log_->Add("file_changed", "WARN", flow.name, text, {{"file_changed", f}});
    }
  }
  if (before.empty() || after.empty() || before == after) return;
  nlohmann::json added = nlohmann::json::array(), changed = nlohmann::json::array(), schema = nlohmann::json::array();
  std::string summary;
  for (auto& column : after) {
    const std::string& name = column.first;
    const std::string& type = column.second;
    schema.push_back({{"name", name}, {"type", type}});
    auto old = std::find_if(before.begin(), before.end(), [&](auto& c) { return StringUtil::CIEquals(c.first, name); });
    if (old == before.end()) {
      added.push_back({{"name", name}, {"type", type}});
      summary += (summary.empty() ? "" : ", ") + std::string("added ") + name + " " + type;
    } else if (old->second != type) {
      changed.push_back({{"name", name}, {"from", old->second}, {"to", type}});
      summary += (summary.empty() ? "" : ", ") + name + " " + old->second + " -> " + type;
    }
  }
  log_->Add("schema_change", "INFO", dataset, "Schema of " + dataset + " evolved: " + summary,
            {{"schema_change", {{"dataset", dataset}, {"added_columns", added}, {"changed_columns", changed}, {"schema", schema}}}});
}

bool PipelineRunner::RunPass() {
  pass_++;
  changed_views_.clear();
  if (log_) {
    std::vector<std::string> selection;  // in flow order
    for (auto& flow : flows_) {
      if (flow.kind != FlowKind::FLOW && full_refresh_.count(StringUtil::Lower(flow.name))) selection.push_back(flow.name);
    }
    log_->StartUpdate(pass_, selection, continuous_);
  }
  bool ok = true;
  bool noteworthy = false;
  std::map<std::string, std::string> failed;  // lower-case name -> the failed input it stands for
  for (idx_t i = 0; i < flows_.size(); i++) {
    if (Stopping()) {
      progress_[i].state = "stopped";
      continue;
    }
    std::string blocked;
    for (auto& input : flows_[i].inputs) {
      if (failed.count(input)) blocked = failed[input];
    }
    if (!blocked.empty()) {
      progress_[i].state = "skipped";
      progress_[i].error = "not run: its input " + blocked + " failed";
      failed[StringUtil::Lower(flows_[i].name)] = blocked;
      display_.FlowDone(progress_, progress_[i], pass_);
      LogFlow(flows_[i], progress_[i], {}, {});
      ok = false;
      continue;
    }
    if (!RunFlow(i)) {
      ok = false;
      failed[StringUtil::Lower(flows_[i].name)] = flows_[i].name;
    }
    // What committed is logged before the next flow runs.
    if (log_ && Noteworthy(progress_[i])) {
      noteworthy = true;
      log_->Flush();
    }
  }
  full_refresh_.clear();
  display_.Update(progress_, pass_, Stopping() ? "stopped" : "");
  if (log_) {
    std::string state = Stopping() ? "CANCELED" : ok ? "COMPLETED" : "FAILED";
    log_->Add("update_progress", ok ? "INFO" : "ERROR", "", "Update " + log_->UpdateId().substr(0, 8) + " " + StringUtil::Lower(state),
              {{"update_progress", {{"state", state}, {"pass", pass_}}}});
    if (noteworthy || !continuous_) {
      log_->Flush();
    } else {
      log_->Discard();
    }
  }
  return ok;
}

void PipelineRunner::RunContinuously(int64_t interval_ms) {
  // A commit to an external input (a table another process writes) starts
  // the next pass at once; files and Kafka topics are found at the interval.
  std::set<std::string> declared;
  for (auto& flow : flows_) declared.insert(StringUtil::Lower(flow.name));
  CommitWaiter waiter;
  while (!Stopping()) {
    auto start = std::chrono::steady_clock::now();
    // Before the pass reads them, so a commit during the pass wakes the next wait.
    for (auto& flow : flows_) {
      for (auto& input : flow.inputs) {
        if (!declared.count(input)) waiter.FollowTable(con_, input);
      }
    }
    RunPass();
    auto deadline = start + std::chrono::milliseconds(interval_ms);
    while (!Stopping()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      // Slices of 20 ms keep the stop flag's check as before.
      if (waiter.Wait(std::min<int64_t>(left.count(), 20))) break;
    }
  }
}

std::unique_ptr<QueryResult> PipelineRunner::Summary() const {
  std::vector<std::vector<SqlValue>> rows;
  for (auto& p : progress_) {
    rows.push_back({SqlValue::Varchar(p.name), SqlValue::Varchar(FlowKindName(p.kind)), SqlValue::Varchar(p.state),
                    SqlValue::Bigint(p.files), SqlValue::Bigint(p.rows_in), SqlValue::Bigint(p.rows_out),
                    p.version ? SqlValue::Bigint(*p.version) : SqlValue::Null(TypeKind::BIGINT),
                    p.error.empty() ? SqlValue::Null(TypeKind::VARCHAR) : SqlValue::Varchar(p.error)});
  }
  return MakeTableResult({"flow", "kind", "state", "files", "rows_in", "rows_out", "version", "error"},
                         {TypeKind::VARCHAR, TypeKind::VARCHAR, TypeKind::VARCHAR, TypeKind::BIGINT, TypeKind::BIGINT,
                          TypeKind::BIGINT, TypeKind::BIGINT, TypeKind::VARCHAR},
                         rows);
}

}  // namespace lakestream
