// ProgressDisplay (declared in pipeline_runner.hpp): a table redrawn in place
// on a terminal, plain log lines otherwise (CI logs, pipes).
#include <chrono>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "pipeline/pipeline_runner.hpp"

namespace lakestream {

namespace {

std::string Clock() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[16];
  std::strftime(buffer, sizeof(buffer), "%H:%M:%S", &local);
  return buffer;
}

std::string Lag(const FlowProgress& p) {
  if (!p.lag_ms) return "-";
  if (*p.lag_ms < 10000) return std::to_string(*p.lag_ms) + " ms";
  return std::to_string(*p.lag_ms / 1000) + " s";
}

std::string Cut(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

}  // namespace

ProgressDisplay::ProgressDisplay(std::ostream& out, bool live, std::string title)
    : out_(out), live_(live), title_(std::move(title)) {}

void ProgressDisplay::Update(const std::vector<FlowProgress>& flows, int64_t pass, const std::string& note) {
  if (live_) {
    Redraw(flows, pass, note);
  } else if (!note.empty()) {
    out_ << Clock() << " " << note << "\n" << std::flush;
  }
}

void ProgressDisplay::FlowDone(const std::vector<FlowProgress>& flows, const FlowProgress& flow, int64_t pass) {
  if (live_) {
    Redraw(flows, pass, "");
    return;
  }
  // Plain mode: the first pass reports every flow, later passes only flows that did something.
  if (pass > 1 && flow.state == "up to date" && flow.pass_warnings.empty()) return;
  std::ostringstream line;
  line << Clock() << " pass " << pass << " " << flow.name << " (" << FlowKindName(flow.kind) << "): " << flow.state;
  if (flow.state == "updated" || flow.state == "up to date" || flow.state == "created") {
    line << ", files " << flow.files << ", rows in " << flow.rows_in << ", rows out " << flow.rows_out;
    if (flow.version) line << ", version " << *flow.version;
    if (flow.lag_ms) line << ", lag " << Lag(flow);
  }
  if (!flow.error.empty()) line << ": " << flow.error;
  for (auto& warning : flow.pass_warnings) line << "\n  warning: " << warning;
  out_ << line.str() << "\n" << std::flush;
}

void ProgressDisplay::Redraw(const std::vector<FlowProgress>& flows, int64_t pass, const std::string& note) {
  std::ostringstream block;
  // Move up over the previous drawing and clear it line by line.
  for (int i = 0; i < drawn_lines_; i++) block << "\x1b[1A\x1b[2K";
  int lines = 0;
  block << "\r" << title_ << "   pass " << pass << "   " << Clock() << (note.empty() ? "" : "   " + note) << "\n";
  lines++;
  block << std::left << std::setw(18) << "  flow" << std::setw(19) << "kind" << std::setw(12) << "state" << std::right
        << std::setw(7) << "files" << std::setw(10) << "rows in" << std::setw(10) << "rows out" << std::setw(9) << "version"
        << std::setw(10) << "lag" << "\n";
  lines++;
  for (auto& f : flows) {
    block << "  " << std::left << std::setw(16) << Cut(f.name, 15) << std::setw(19) << FlowKindName(f.kind);
    std::string state = f.state;
    const char* color = state == "failed" ? "\x1b[31m" : (state == "updated" || state == "created") ? "\x1b[32m" : state == "running" ? "\x1b[33m" : "";
    block << color << std::setw(12) << state << (color[0] ? "\x1b[0m" : "") << std::right << std::setw(7) << f.files
          << std::setw(10) << f.rows_in << std::setw(10) << f.rows_out << std::setw(9)
          << (f.version ? std::to_string(*f.version) : std::string("-")) << std::setw(10) << Lag(f) << "\n";
    lines++;
    if (!f.error.empty()) {
      block << "    \x1b[31m" << Cut(f.error, 150) << "\x1b[0m\n";
      lines++;
    }
  }
  out_ << block.str() << std::flush;
  drawn_lines_ = lines;
}

}  // namespace lakestream
