#include "execution/parallel/parallel_planning.hpp"

#include <thread>

#include "common/exception.hpp"
#include "execution/operator/physical_filter.hpp"
#include "execution/operator/physical_hash_join.hpp"
#include "execution/operator/physical_projection.hpp"
#include "expression/repeatable.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

idx_t ThreadCount(ClientContext& context) {
  if (context.threads > 0) return context.threads;
  int configured = context.Database().Options().threads;
  if (configured > 0) return static_cast<idx_t>(configured);
  // Read once: hardware_concurrency() reads /sys on every call, and every
  // plan asks (three sysfs reads were 1.6% of a materialized view's refresh).
  static const idx_t kMachineThreads = std::max<idx_t>(1, std::thread::hardware_concurrency());
  return kMachineThreads;
}

static bool AllSafe(const std::vector<BoundExprPtr>& list) {
  for (auto& e : list) {
    if (e && !IsRepeatable(*e)) return false;
  }
  return true;
}

bool ParallelSafeChain(const LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::GET: return !op.emit_row_ids && op.storage && AllSafe(op.table_filters);
    case LogicalOperatorType::FILTER:
    case LogicalOperatorType::PROJECTION:
      return op.children.size() == 1 && AllSafe(op.expressions) && ParallelSafeChain(*op.children[0]);
    case LogicalOperatorType::JOIN:
      // The left child streams through the build side (the right child),
      // built once; FULL and RIGHT merge their copies' build-row marks.
      return AllSafe(op.expressions) &&
             (!op.mark_condition || IsRepeatable(*op.mark_condition)) && ParallelSafeChain(*op.children[0]);
    default: return false;
  }
}

PhysicalTableScan* ChainScan(PhysicalOperator& op) {
  if (auto* scan = dynamic_cast<PhysicalTableScan*>(&op)) return scan;
  if (auto* join = dynamic_cast<PhysicalHashJoin*>(&op)) {
    return join->ProbesInParallel() ? ChainScan(*op.children[0]) : nullptr;
  }
  bool streaming = dynamic_cast<PhysicalFilter*>(&op) || dynamic_cast<PhysicalProjection*>(&op);
  if (!streaming || op.children.size() != 1) return nullptr;
  return ChainScan(*op.children[0]);
}

void ShareJoinBuilds(PhysicalOperator& main, PhysicalOperator& worker) {
  if (auto* join = dynamic_cast<PhysicalHashJoin*>(&worker)) {
    auto* builder = dynamic_cast<PhysicalHashJoin*>(&main);
    if (!builder) throw InternalError("a copy of a parallel pipeline planned a different operator");
    join->ShareBuild(*builder);
  }
  if (main.children.empty() || worker.children.empty()) return;
  ShareJoinBuilds(*main.children[0], *worker.children[0]);
}

}  // namespace lakestream
