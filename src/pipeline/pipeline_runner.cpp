#include "pipeline/pipeline_runner.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "common/string_util.hpp"
#include "lakestream/tools.hpp"

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
  auto names = FirstColumn(con, show);
  // A flow has run once its target exists.
  std::string name = flow.kind == FlowKind::FLOW ? flow.target : StringUtil::Lower(flow.name);
  return std::find(names.begin(), names.end(), name) != names.end();
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
  auto result = con.Query("SHOW VIEWS");
  if (result->HasError()) return std::nullopt;
  for (idx_t r = 0; r < result->RowCount(); r++) {
    if (StringUtil::CIEquals(result->GetValue(0, r).ToString(), name) && result->GetValue(1, r).ToString() == "view") {
      return result->GetValue(2, r).ToString();
    }
  }
  return std::nullopt;
}

}  // namespace

PipelineRunner::PipelineRunner(Database& db, std::vector<Flow> flows, ProgressDisplay& display, const std::atomic<bool>* stop)
    : db_(db), con_(db), flows_(std::move(flows)), display_(display), stop_(stop) {
  for (auto& flow : flows_) {
    FlowProgress p;
    p.name = flow.name;
    p.kind = flow.kind;
    progress_.push_back(p);
  }
}

bool PipelineRunner::RunFlow(idx_t i) {
  const Flow& flow = flows_[i];
  FlowProgress& p = progress_[i];
  p.state = "running";
  p.error.clear();
  display_.Update(progress_, pass_, "");
  bool changed = false;
  bool existed = FlowExists(con_, flow);
  std::vector<std::string> statements = flow.statements;
  bool reads_changed_view = false;
  for (auto& input : flow.inputs) reads_changed_view = reads_changed_view || changed_views_.count(input);
  if (flow.kind == FlowKind::VIEW && (reads_changed_view || PlainViewDefinition(con_, flow.name) != flow.definition)) {
    changed_views_.insert(StringUtil::Lower(flow.name));
  }
  if (flow.kind == FlowKind::MATERIALIZED_VIEW && existed && ViewDefinition(con_, flow.name) == flow.definition) {
    // A view it reads changed under it: its rows must be recomputed.
    statements = {"REFRESH MATERIALIZED VIEW " + QuoteIdentifier(flow.name) + (reads_changed_view ? " FULL" : "")};
  }
  for (auto& sql : statements) {
    if (Stopping()) {
      p.state = "stopped";
      return true;
    }
    auto result = con_.Query(sql);
    if (result->HasError()) {
      p.state = "failed";
      p.error = result->GetError();
      display_.FlowDone(progress_, p, pass_);
      return false;
    }
    int64_t files = Number(*result, {"files"}).value_or(0);
    int64_t in = Number(*result, {"rows_read", "rows_in", "changes_read", "changes"}).value_or(0);
    int64_t out = Sum(*result, {"rows_written", "messages", "num_inserted_rows", "num_updated_rows", "num_deleted_rows"});
    p.files += files;
    p.rows_in += in;
    p.rows_out += out;
    if (auto v = Number(*result, {"version", "delivered_version"})) p.version = v;
    if (auto lag = Number(*result, {"lag_ms"})) p.lag_ms = lag;
    changed = changed || files > 0 || out > 0;
  }
  if (changed || !existed) p.commits++;
  p.state = !existed ? "created" : changed ? "updated" : "up to date";
  display_.FlowDone(progress_, p, pass_);
  return true;
}

bool PipelineRunner::RunPass() {
  pass_++;
  changed_views_.clear();
  bool ok = true;
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
      ok = false;
      continue;
    }
    if (!RunFlow(i)) {
      ok = false;
      failed[StringUtil::Lower(flows_[i].name)] = flows_[i].name;
    }
  }
  display_.Update(progress_, pass_, Stopping() ? "stopped" : "");
  return ok;
}

void PipelineRunner::RunContinuously(int64_t interval_ms) {
  while (!Stopping()) {
    auto start = std::chrono::steady_clock::now();
    RunPass();
    auto deadline = start + std::chrono::milliseconds(interval_ms);
    while (!Stopping() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
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
