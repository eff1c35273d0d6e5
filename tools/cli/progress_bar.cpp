#include "progress_bar.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "lakestream/progress.hpp"

namespace lakestream {

namespace {

constexpr int kBarWidth = 60;
constexpr auto kPollInterval = std::chrono::milliseconds(50);

void WriteStderr(const std::string& text) {
  // write(2), not std::cerr: the statement's thread may print warnings
  // through the stream meanwhile; a raw write never interleaves mid-buffer.
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace

ProgressBar::ProgressBar(Connection& con, bool shell_on) : con_(con) {
  if (!shell_on || !isatty(STDERR_FILENO)) return;
  thread_ = std::thread([this] { Watch(); });
}

ProgressBar::~ProgressBar() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
  // Carriage return and erase-line: the prompt or result starts at column 0.
  if (drawn_) WriteStderr("\r\033[2K");
}

void ProgressBar::Watch() {
  auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_cv_.wait_for(lock, kPollInterval, [this] { return stop_; })) {
    if (!ProgressBarEnabled(con_)) continue;
    auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed < std::chrono::milliseconds(ProgressBarWaitMs(con_))) continue;
    double percentage = GetQueryProgress(con_);
    if (percentage >= 0) Draw(percentage);
  }
}

void ProgressBar::Draw(double percentage) {
  int tenths = static_cast<int>(percentage * 10);
  if (tenths == last_) return;
  last_ = tenths;
  drawn_ = true;
  int filled = static_cast<int>(percentage * kBarWidth / 100);
  char head[16];
  std::snprintf(head, sizeof(head), "\r%3d%% ", static_cast<int>(percentage));
  std::string line = head;
  line += "\u2595";  // left one-eighth block, as DuckDB frames its bar
  for (int i = 0; i < kBarWidth; i++) line += i < filled ? "\u2588" : " ";
  line += "\u258f";
  WriteStderr(line);
}

}  // namespace lakestream
