// QueryProgress: how far the running statement is, for a progress bar
// (DuckDB's ProgressBar / GetProgress, reduced to two counters).
//
// The statement's thread adds work as it learns of it (AddTotal: rows a scan
// will read, from the table's statistics or a table function's known size)
// and counts what is done (AddDone: rows scanned, rows or bytes written);
// any other thread (the shell's progress bar) reads Percentage() at any
// time. The counters are relaxed atomics: a reader may see a total and a
// done count from slightly different moments, which a bar tolerates, and
// the writer pays one uncontended atomic add per chunk.
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
  // ends: estimates (statistics, file sizes) can be short of the truth.
  double Percentage() const {
    uint64_t total = total_.load(std::memory_order_relaxed);
    if (total == 0) return -1;
    double p = 100.0 * static_cast<double>(done_.load(std::memory_order_relaxed)) / static_cast<double>(total);
    return p > 99.9 ? 99.9 : p;
  }

 private:
  std::atomic<uint64_t> total_{0};
  std::atomic<uint64_t> done_{0};
};

}  // namespace lakestream
