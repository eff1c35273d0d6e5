// WITH RECURSIVE r AS (anchor UNION [ALL] recursive-term): the anchor's rows,
// then the rows of the recursive term run again and again, each run reading
// (through the working table) only the rows the run before it added, until a
// run adds none. Rows stream out as they are made, so a LIMIT above stops the
// iteration early. UNION (not ALL) drops rows seen before, which also ends
// recursions that come back to a row they met.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_set>

#include "common/chunk_collection.hpp"
#include "execution/operator/physical_operator.hpp"

namespace lakestream {

class PhysicalRecursiveCTE : public PhysicalOperator {
 public:
  // More runs of the recursive term than this end the statement with an
  // error naming the CTE (a recursion without a stopping condition).
  static constexpr idx_t kMaxIterations = 10000;

  // `plan_term` plans a fresh copy of the recursive term, which reads `working`.
  PhysicalRecursiveCTE(std::vector<LogicalType> types, std::string name, PhysicalOperatorPtr anchor,
                       std::function<PhysicalOperatorPtr()> plan_term, std::shared_ptr<ChunkCollection> working,
                       bool distinct);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "RECURSIVE_CTE"; }
  std::string Details() const override;

 private:
  // Keeps in `chunk` only the rows not seen before (UNION), noting them as seen.
  void DropSeenRows(DataChunk& chunk);
  // Starts the next run of the recursive term; false when the last run added no row.
  bool StartIteration();

  std::string name_;
  std::function<PhysicalOperatorPtr()> plan_term_;
  std::shared_ptr<ChunkCollection> working_;  // what the running term reads: the last run's rows
  ChunkCollection added_;                     // what the running term (or the anchor) has added so far
  bool distinct_;
  std::unordered_set<std::string> seen_;
  PhysicalOperator* current_ = nullptr;  // the anchor, then term_
  PhysicalOperatorPtr term_;
  idx_t iterations_ = 0;
  bool finished_ = false;
};

}  // namespace lakestream
