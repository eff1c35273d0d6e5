// QueryProgress: how far a connection's running statement is, for a progress
// bar (DuckDB's ProgressBar / GetProgress, reduced to two counters).
//
// The statement's thread adds work as it learns of it (AddTotal: rows a scan
// will read, from the table's statistics or a table function's known size)
// and counts what is done (AddDone: rows scanned); any other thread (the
// shell's progress bar, through lakestream/progress.hpp) reads Percentage()
// at any time. The counters are relaxed atomics: a reader may see a total
// and a done count from slightly different moments, which a bar tolerates,
// and the statement pays one uncontended atomic add per chunk.
//
// Each connection has one (ProgressFor), which the statement runner makes
// the running thread's CurrentQueryProgress() while its statements run, so
// operators and table functions reach it without a context in hand.
#pragma once

#include <atomic>
#include <cstdint>

namespace lakestream {

class QueryProgress {
 public:
  // A new statement: nothing known, nothing done.
  void Reset() {
    total_.store(0, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
  }
  void AddTotal(uint64_t units) { total_.fetch_add(units, std::memory_order_relaxed); }
  void AddDone(uint64_t units) { done_.fetch_add(units, std::memory_order_relaxed); }
  // 0 to 100; -1 while no total is known. Capped at 99.9 until the statement
  // ends: estimates (statistics) can be short of the truth.
  double Percentage() const {
    uint64_t total = total_.load(std::memory_order_relaxed);
    if (total == 0) return -1;
    double p = 100.0 * static_cast<double>(done_.load(std::memory_order_relaxed)) / static_cast<double>(total);
    return p > 99.9 ? 99.9 : p;
  }

  // SET enable_progress_bar / progress_bar_time: whether a client should
  // draw a bar, and after how many milliseconds of a statement.
  std::atomic<bool> bar_enabled{true};
  std::atomic<int64_t> bar_wait_ms{2000};

 private:
  std::atomic<uint64_t> total_{0};
  std::atomic<uint64_t> done_{0};
};

// The progress of connection `owner` (its ClientContext), made on first use
// and kept until ForgetProgress(owner). Any thread.
QueryProgress& ProgressFor(const void* owner);
void ForgetProgress(const void* owner);

// The progress of the statement running on this thread; null outside one.
QueryProgress* CurrentQueryProgress();

// Makes `progress` the thread's CurrentQueryProgress() for its lifetime.
class QueryProgressScope {
 public:
  explicit QueryProgressScope(QueryProgress* progress);
  ~QueryProgressScope();
  QueryProgressScope(const QueryProgressScope&) = delete;
  QueryProgressScope& operator=(const QueryProgressScope&) = delete;

 private:
  QueryProgress* previous_;
};

}  // namespace lakestream
