// Rows one plan computes once and several operators of the query read: a
// CTE the query reads more than once, or the subtree the semi-join
// reduction shares between a join's probe side and the reducers of its
// build sides (planner/semi_join_reduction.hpp), as DuckDB's delim join
// computes its outer side once.
//
// One reader holds the plan, as its only child, so EXPLAIN draws the
// subtree once ("computed once"; the others say "read again"): the first
// reader the physical planner makes, until another reader is pulled first.
// The plan runs lazily, to the end, when a reader is first pulled, and that
// reader takes the plan over (EXPLAIN without ANALYZE runs nothing, and
// EXPLAIN ANALYZE shows the plan's time under the reader whose time holds
// it); then every reader scans the rows from the start.
#pragma once

#include <exception>
#include <mutex>

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"
#include "function/table_function.hpp"

namespace lakestream {

struct LogicalOperator;

// What the readers of one materialization share (MaterializedCTE::run).
struct SharedScanRun {
  std::mutex mutex;
  std::string name;  // for EXPLAIN: "CTE x", "shared #1"
  std::shared_ptr<ChunkCollection> rows;
  // The logical plan the physical one was made from: the physical operators
  // may point into it, so it lives as long as they do.
  std::unique_ptr<LogicalOperator> logical;
  class PhysicalSharedScan* holder = nullptr;  // the reader whose child the plan is
  bool done = false;
  std::exception_ptr error;

  ~SharedScanRun();
};

class PhysicalSharedScan : public PhysicalOperator {
 public:
  // `plan`: the first reader's; null for the others.
  PhysicalSharedScan(std::shared_ptr<SharedScanRun> run, PhysicalOperatorPtr plan);
  ~PhysicalSharedScan() override;
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "SHARED_SCAN"; }
  std::string Details() const override;

 private:
  // Runs the plan into run_->rows unless a reader already has.
  void Materialize(ExecutionContext& context);

  std::shared_ptr<SharedScanRun> run_;
  TableSourcePtr source_;  // over run_->rows, once materialized
};

}  // namespace lakestream
