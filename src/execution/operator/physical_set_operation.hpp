// EXCEPT and INTERSECT, DISTINCT or ALL, by hashing whole rows. Rows compare
// as IS NOT DISTINCT FROM (NULL equals NULL), as set operations require.
//
// The left child is read fully into a hash table of its distinct rows with a
// count m per row; the right child then streams through it, counting the
// matches n of each stored row (rows only on the right are never stored).
// Output, per distinct left row in first-seen order:
//   EXCEPT: 1 row if n = 0          EXCEPT ALL: max(m - n, 0) copies
//   INTERSECT: 1 row if n > 0       INTERSECT ALL: min(m, n) copies
// Both children are already cast to `types`. The interrupt flag is checked
// once per input and output chunk.
#pragma once

#include "common/vector_operations.hpp"
#include "execution/operator/physical_operator.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class PhysicalSetOperation : public PhysicalOperator {
 public:
  PhysicalSetOperation(std::vector<LogicalType> types, PhysicalOperatorPtr left, PhysicalOperatorPtr right,
                       LogicalSetOperation operation, bool all);
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override;

 private:
  void Consume(ExecutionContext& context);
  // Row ids of `chunk`'s rows in the table (kNotFound when absent and
  // `insert` is false); `insert` adds new rows.
  void FindRows(const DataChunk& chunk, bool insert, uint32_t* ids);
  void StoreRow(const DataChunk& chunk, idx_t row, uint32_t id);
  void Grow();
  uint64_t CopiesOf(idx_t id) const;

  static constexpr uint32_t kNotFound = 0xFFFFFFFF;

  LogicalSetOperation operation_;
  bool all_;
  std::vector<row_equal_t> equal_;
  // Distinct left rows, columnar, by id; left_counts_/right_counts_ are m and n.
  std::vector<std::unique_ptr<Vector>> rows_;
  std::vector<uint64_t> left_counts_;
  std::vector<uint64_t> right_counts_;
  idx_t row_count_ = 0;
  // Open addressing: slot -> row id + 1 (0 = empty), with the full hash beside it.
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> slot_hashes_;
  uint64_t mask_ = 0;
  std::vector<uint64_t> hashes_;  // of the chunk being looked up
  std::vector<sel_t> sel_;        // stored row of each output row

  bool consumed_ = false;
  idx_t next_row_ = 0;       // the stored row being emitted
  uint64_t emitted_copies_ = 0;  // copies of it already emitted
};

}  // namespace lakestream
