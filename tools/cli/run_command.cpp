// `lakestream run PIPELINE.sql [--db DIR] [--once | --continuous] [--interval 1s]`
//
// Runs the declarations of a pipeline file (src/pipeline/pipeline_graph.hpp)
// against the database in DIR (default: PIPELINE.db next to the file), in
// dependency order: once (the default) or in passes until Ctrl-C/SIGTERM.
// Relative paths inside the file (read_files('landing/'), INTO FILE 'out.jsonl')
// resolve against the file's directory, so a pipeline folder is self-contained.
// Progress is a live table on a terminal and log lines otherwise; --once ends
// with a summary table.
//
// Signals: the first SIGINT/SIGTERM asks the runner to stop after the
// statement (commit) in progress; a second one ends the process at once
// (still safe: every commit is atomic).
//
// Exit codes: 0 every flow succeeded; 1 a flow failed or the pipeline could
// not be planned (cycle, bad SQL); 2 bad command line.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "lakestream/database.hpp"
#include "lakestream/tools.hpp"
#include "pipeline/pipeline_graph.hpp"
#include "pipeline/pipeline_params.hpp"
#include "pipeline/pipeline_runner.hpp"
#include "result_renderer.hpp"
#include "subcommands.hpp"

namespace lakestream {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void HandleStop(int signal) {
  g_stop.store(true);
  // A second signal ends the process the usual way.
  std::signal(signal, SIG_DFL);
}

const char* kRunUsage =
    "Usage: lakestream run PIPELINE.sql [--db DIR] [--schema S] [--once | --continuous] [--interval 1s] [--conf KEY=VALUE ...]\n"
    "\n"
    "Runs the pipeline's flows (streaming tables, materialized views, sinks) in\n"
    "dependency order, processing only what is new since the last run.\n"
    "\n"
    "  --db DIR        the database directory (default: PIPELINE.db next to the file)\n"
    "  --schema S      the pipeline's target schema (Databricks' `target`): datasets without a\n"
    "                  schema, LIVE.x and the event log live in S, which the run creates when missing\n"
    "  --once          one pass, then a summary table (the default)\n"
    "  --continuous    a pass every --interval until Ctrl-C or SIGTERM\n"
    "  --interval T    time between passes: 500ms, 1s, 2m (default 1s)\n"
    "  --plain         log lines instead of the live table even on a terminal\n"
    "  --conf K=V      sets the pipeline parameter K: ${K} in the file becomes V (repeatable)\n"
    "  --full-refresh T[,T...]  recomputes these streaming tables / materialized views from their\n"
    "                  sources (their rows and ingestion state are reset) before the first pass\n"
    "  --full-refresh-all  the same for every streaming table and materialized view of the pipeline\n"
    "\n"
    "Every pass writes its events (flow progress, row counts, expectation metrics, schema\n"
    "changes, errors) to the table event_log of the database: SELECT * FROM event_log\n";

int UsageError(const std::string& message) {
  std::cerr << "lakestream run: " << message << "\n\n" << kRunUsage;
  return 2;
}

}  // namespace

int RunPipelineCommand(int argc, char** argv) {
  std::string file, db_dir;
  bool continuous = false, once = false, plain = false;
  int64_t interval_ms = 1000;
  std::map<std::string, std::string> conf;
  std::string target_schema;
  std::vector<std::string> full_refresh;
  bool full_refresh_all = false;
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs " + what);
      return argv[++i];
    };
    try {
      if (arg == "--help" || arg == "-h" || arg == "-help") {
        std::cout << kRunUsage;
        return 0;
      } else if (arg == "--db") {
        db_dir = value("a directory");
      } else if (arg == "--once") {
        once = true;
      } else if (arg == "--continuous") {
        continuous = true;
      } else if (arg == "--plain") {
        plain = true;
      } else if (arg == "--interval") {
        std::string text = value("a duration such as 1s");
        interval_ms = ParseDurationMs(text);
        if (interval_ms <= 0) return UsageError("--interval takes a duration such as 500ms, 1s or 2m, got '" + text + "'");
      } else if (arg == "--conf" || arg.rfind("--conf=", 0) == 0) {
        std::string pair = arg == "--conf" ? value("KEY=VALUE") : arg.substr(7);
        size_t eq = pair.find('=');
        std::string key = pair.substr(0, eq);
        if (eq == std::string::npos || !IsPipelineParameterName(key)) {
          return UsageError("--conf takes KEY=VALUE with a key of letters, digits, '_', '-' and '.', got '" + pair + "'");
        }
        conf[key] = pair.substr(eq + 1);
      } else if (arg == "--full-refresh" || arg.rfind("--full-refresh=", 0) == 0) {
        if (arg == "--full-refresh" && (i + 1 >= argc || argv[i + 1][0] == '-')) {
          return UsageError("--full-refresh takes the tables to recompute (--full-refresh a,b); "
                            "--full-refresh-all recomputes every one");
        }
        std::string list = arg == "--full-refresh" ? value("table names") : arg.substr(15);
        std::stringstream names(list);
        std::string name;
        while (std::getline(names, name, ',')) {
          size_t begin = name.find_first_not_of(" \t"), end = name.find_last_not_of(" \t");
          if (begin == std::string::npos) {
            return UsageError("--full-refresh takes comma-separated table names, got '" + list + "'");
          }
          full_refresh.push_back(name.substr(begin, end - begin + 1));
        }
      } else if (arg == "--schema") {
        target_schema = value("SCHEMA");
        if (target_schema.empty()) return UsageError("--schema takes a schema name");
      } else if (arg == "--full-refresh-all") {
        full_refresh_all = true;
      } else if (!arg.empty() && arg[0] == '-') {
        return UsageError("unknown option " + arg);
      } else if (file.empty()) {
        file = arg;
      } else {
        return UsageError("one pipeline file at a time (got " + file + " and " + arg + ")");
      }
    } catch (const std::invalid_argument& e) {
      return UsageError(e.what());
    }
  }
  if (file.empty()) return UsageError("which pipeline? e.g. lakestream run examples/medallion/pipeline.sql");
  if (once && continuous) return UsageError("--once and --continuous exclude each other");

  namespace fs = std::filesystem;
  std::ifstream in(file);
  if (!in) {
    std::cerr << "lakestream run: cannot read " << file << "; check the path\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  fs::path pipeline_path = fs::absolute(file).lexically_normal();
  if (db_dir.empty()) db_dir = (pipeline_path.parent_path() / pipeline_path.stem()).string() + ".db";
  // An s3:// database is a URL, not a path relative to here.
  if (!IsObjectStoragePath(db_dir)) db_dir = fs::absolute(db_dir).lexically_normal().string();

  std::vector<Flow> flows;
  try {
    flows = PlanPipeline(SubstitutePipelineParameters(text.str(), conf, file), file);
  } catch (const std::exception& e) {
    std::cerr << "lakestream run: " << e.what() << "\n";
    return 1;
  }
  std::error_code ec;
  fs::current_path(pipeline_path.parent_path(), ec);
  if (ec) {
    std::cerr << "lakestream run: cannot enter " << pipeline_path.parent_path() << ": " << ec.message() << "\n";
    return 1;
  }

  std::unique_ptr<Database> db;
  try {
    db = std::make_unique<Database>(db_dir);
  } catch (const std::exception& e) {
    std::cerr << "lakestream run: cannot open the database " << db_dir << ": " << e.what() << "\n";
    return 1;
  }
  std::signal(SIGINT, HandleStop);
  std::signal(SIGTERM, HandleStop);

  bool live = !plain && isatty(STDOUT_FILENO);
  ProgressDisplay display(std::cout, live, "lakestream run " + file + "  (db " + db_dir + ")");
  PipelineRunner runner(*db, std::move(flows), display, &g_stop);
  try {
    if (!target_schema.empty()) runner.SetTargetSchema(target_schema);
    runner.EnableEventLog(pipeline_path.string(), continuous);
    runner.SetFullRefresh(full_refresh, full_refresh_all);
  } catch (const std::exception& e) {
    std::cerr << "lakestream run: " << e.what() << "\n";
    return 1;
  }
  bool ok = true;
  if (continuous) {
    if (!live) std::cout << "running " << file << " continuously every " << interval_ms << " ms; Ctrl-C stops\n" << std::flush;
    runner.RunContinuously(interval_ms);
    std::cout << "stopped after " << runner.Passes() << " passes; every commit is complete\n";
    for (auto& p : runner.Progress()) ok = ok && p.state != "failed";
  } else {
    ok = runner.RunPass();
  }
  RenderBox(*runner.Summary(), 160, 0, std::cout);
  if (g_stop.load()) std::cout << "stopped on request: the flows marked stopped run on the next start\n";
  return ok ? 0 : 1;
}

}  // namespace lakestream
