// Morsel numbers for pipelines whose result order depends on the input
// order (ORDER BY ties, window input order): the readers of one shared
// MorselSource each get a NumberedMorsels, which hands out the shared
// morsels and remembers the number of the one its scan took last. Morsels
// are numbered in the order the source hands them out, which is the order a
// serial scan of the table reads them (DataTable::ParallelScan), so
// (morsel number, row within the morsel) is the row's place in the serial
// scan.
#pragma once

#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "storage/data_table.hpp"

namespace lakestream {

class NumberedMorsels : public MorselSource {
 public:
  // Current() once every morsel has been handed out: rows a chain emits
  // after its scan ended (a RIGHT or FULL join's unmatched build rows)
  // come after every scanned row, as in a serial run.
  static constexpr idx_t kAfterLast = std::numeric_limits<idx_t>::max();

  // `readers` sources sharing the morsels of `source`; Cancel() on any of
  // them cancels `source`.
  static std::vector<std::shared_ptr<NumberedMorsels>> Split(std::shared_ptr<MorselSource> source, idx_t readers);

  std::unique_ptr<TableScan> NextMorsel() override;
  idx_t MorselCount() const override { return shared_->source->MorselCount(); }
  // The number of the morsel this reader's last NextMorsel returned (0
  // before the first), kAfterLast once it returned null. One reader is used
  // by one thread at a time; Current() is read by that thread.
  idx_t Current() const { return current_; }
  void CancelAll() { shared_->source->Cancel(); }

 private:
  struct Shared {
    std::shared_ptr<MorselSource> source;
    std::mutex mutex;
    idx_t next = 0;
  };
  explicit NumberedMorsels(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}

  std::shared_ptr<Shared> shared_;
  idx_t current_ = 0;
};

}  // namespace lakestream
