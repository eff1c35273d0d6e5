#include "execution/parallel/numbered_morsels.hpp"

namespace lakestream {

std::vector<std::shared_ptr<NumberedMorsels>> NumberedMorsels::Split(std::shared_ptr<MorselSource> source,
                                                                     idx_t readers) {
  auto shared = std::make_shared<Shared>();
  shared->source = std::move(source);
  std::vector<std::shared_ptr<NumberedMorsels>> result;
  for (idx_t r = 0; r < readers; r++) result.push_back(std::shared_ptr<NumberedMorsels>(new NumberedMorsels(shared)));
  return result;
}

std::unique_ptr<TableScan> NumberedMorsels::NextMorsel() {
  // Under the lock, so numbers follow the order the source hands morsels out.
  std::lock_guard<std::mutex> lock(shared_->mutex);
  auto scan = shared_->source->NextMorsel();
  current_ = scan ? shared_->next++ : kAfterLast;
  return scan;
}

}  // namespace lakestream
