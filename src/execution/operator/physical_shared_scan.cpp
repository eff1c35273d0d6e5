#include "execution/operator/physical_shared_scan.hpp"

#include "common/exception.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

SharedScanRun::~SharedScanRun() = default;

PhysicalSharedScan::PhysicalSharedScan(std::shared_ptr<SharedScanRun> run, PhysicalOperatorPtr plan)
    : PhysicalOperator(run->rows->Types()), run_(std::move(run)) {
  if (plan) {
    run_->holder = this;
    children.push_back(std::move(plan));
  }
}

PhysicalSharedScan::~PhysicalSharedScan() {
  std::lock_guard<std::mutex> lock(run_->mutex);
  if (run_->holder == this) run_->holder = nullptr;
}

std::string PhysicalSharedScan::Details() const {
  return run_->name + (children.empty() ? ", read again" : ", computed once");
}

void PhysicalSharedScan::Materialize(ExecutionContext& context) {
  // Readers on other threads wait here while one runs the plan.
  std::lock_guard<std::mutex> lock(run_->mutex);
  if (run_->error) std::rethrow_exception(run_->error);
  if (run_->done) return;
  if (!run_->holder) throw InternalError("the plan of " + run_->name + " was dropped before it ran");
  if (run_->holder != this) {
    // The reader that runs the plan holds it: EXPLAIN ANALYZE then counts
    // its time under the reader whose time includes it.
    children.push_back(std::move(run_->holder->children[0]));
    run_->holder->children.clear();
    run_->holder = this;
  }
  try {
    DrainOperator(context, *children[0], *run_->rows);
    run_->done = true;
  } catch (...) {
    run_->error = std::current_exception();
    throw;
  }
}

bool PhysicalSharedScan::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!source_) {
    Materialize(context);
    std::vector<idx_t> all(types.size());
    for (idx_t i = 0; i < all.size(); i++) all[i] = i;
    source_ = MakeCollectionSource(run_->rows, std::move(all), run_->name);
  }
  return source_->Next(out);
}

}  // namespace lakestream
