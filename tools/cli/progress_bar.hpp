// ProgressBar: the shell's progress bar, as DuckDB draws it: once a
// statement has run for progress_bar_time (2 s by default), a line
//     " 42% ▕█████████████████████████                                   ▏"
// on stderr, redrawn as GetQueryProgress() (lakestream/progress.hpp) moves, and erased when
// the statement ends, so the result that follows is printed as if no bar
// had been there. Nothing is drawn when stderr is not a terminal, when the
// shell turned it off (.progress off), when the session did (SET
// enable_progress_bar = false), or while the statement's total is unknown.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "lakestream.hpp"

namespace lakestream {

class ProgressBar {
 public:
  // Starts watching the statements `con` runs until destroyed; `shell_on`
  // is the shell's own switch (.progress).
  ProgressBar(Connection& con, bool shell_on);
  // Stops the watcher and erases the bar if it was drawn.
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void Watch();
  void Draw(double percentage);

  Connection& con_;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  bool drawn_ = false;
  int last_ = -1;  // the tenth of a percent drawn last
  std::thread thread_;
};

}  // namespace lakestream
