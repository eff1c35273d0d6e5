// ORDER BY: materialises its input, sorts row positions with a comparator over
// the key columns (NULLS FIRST/LAST per key), and emits rows in that order,
// a column at a time (CollectionGather). The sort is stable, so ties keep
// their input order. Integer-like keys are sorted as packed integers instead
// of through the comparator (sort_packed_keys.hpp).
//
// External sort (SET memory_limit, docs/memory.md): the collected rows and
// keys are reserved (MemoryReservation); when the pool refuses, the rows so
// far are sorted and written to a run file (rows in order, then their keys),
// and collecting starts again. At the end the runs are merged through a heap
// of one cursor per run; equal keys come from the earlier run first, so the
// merge keeps the sort stable. Nested columns cannot spill (out of memory).
//
// Top-N (ORDER BY ... LIMIT n [OFFSET m], the planner passes top_n = n + m):
// only the first top_n rows can be emitted, so the operator keeps at most
// about 2 x top_n of them. When that many are collected they are sorted and
// cut to top_n, and the last kept row becomes the boundary: an incoming row
// that does not sort before it (ties included, the sort being stable) is
// dropped with one key comparison, before it is copied. The rows emitted are
// the full sort's first top_n rows, ties in input order.
//
// Parallel (SetWorkers; DuckDB's parallel sort): over a chain of filters,
// projections and hash-join probes on a table scan, each thread runs a copy
// of this operator over its own copy of the chain, the scans sharing the
// table's morsels. Each copy collects, spills and sorts its rows as above
// (its own reservation against the shared pool; top-N: its own first top_n),
// on its thread; then this copy merges every copy's runs, on memory and on
// disk, through the same heap. Each row carries the number of the morsel it
// came from (NumberedMorsels) as a last, hidden key: equal keys come out in
// morsel order, and within a morsel (read by one copy) in that copy's order,
// so ties come out as at one thread.
#pragma once

#include "common/chunk_collection.hpp"
#include "common/vector_operations.hpp"
#include "execution/operator/physical_operator.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class CollectionGather;
class NumberedMorsels;

class PhysicalOrder : public PhysicalOperator {
 public:
  // top_n > 0: only the first top_n rows are read by the parent (above).
  PhysicalOrder(PhysicalOperatorPtr child, std::vector<BoundOrder> orders, idx_t top_n = 0);
  ~PhysicalOrder() override;
  bool GetChunk(ExecutionContext& context, DataChunk& out) override;
  std::string Name() const override { return "ORDER_BY"; }
  std::string Details() const override;
  // Parallel sort (above): `workers` are copies of this operator whose
  // chains' scans read morsels[1..]; this copy's scan reads morsels[0].
  void SetWorkers(std::vector<std::unique_ptr<PhysicalOrder>> workers,
                  std::vector<std::shared_ptr<NumberedMorsels>> morsels);

 private:
  struct RunCursor {
    PhysicalOrder* owner = nullptr;   // a run in memory: the copy whose sorted rows it reads
    std::unique_ptr<SpillFile> file;  // else a run on disk
    idx_t next = 0;                   // in memory: the next position in owner->permutation_
    DataChunk chunk;                  // rows then keys
    idx_t row = 0;
  };

  void Sort(ExecutionContext& context);
  void SortParallel(ExecutionContext& context);
  // Reads the child into rows_/keys_, spilling sorted runs when the pool refuses.
  void Collect(ExecutionContext& context);
  // After Collect: the rows in memory sorted (no runs on disk) or spilled as
  // the last run.
  void FinishRuns(ExecutionContext& context);
  // Rows permutation_[start, start + n) with their keys, into `chunk` (run layout).
  void GatherSorted(idx_t start, idx_t n, DataChunk& chunk) const;
  // The next chunk of a run; false at its end.
  bool ReadRun(RunCursor& cursor) const;
  // The rows FinishRuns sorted in memory that can be emitted.
  idx_t SortedRows() const;
  std::vector<LogicalType> RunTypes() const;
  // permutation_ = the collected rows' positions in sorted order.
  void SortInMemory();
  // Writes the collected rows, sorted, to a new run file and forgets them.
  void SpillRun(ExecutionContext& context);
  // Whether row ra of a (keys from column ka on) sorts before row rb of b.
  bool KeyLess(const DataChunk& a, idx_t ra, idx_t ka, const DataChunk& b, idx_t rb, idx_t kb) const;
  // Heap order of the merge: whether run a's current row comes after run b's.
  bool RunAfter(idx_t a, idx_t b) const;
  void StartMerge();
  // Top-N: keeps the first top_n_ rows of rows_/keys_ in sorted order and
  // makes the last one the boundary.
  void CutToTopN();
  // Top-N: appends the rows of input/keys that sort before the boundary.
  void AppendBeforeBoundary(const DataChunk& input, const DataChunk& keys);
  bool MergeNext(ExecutionContext& context, DataChunk& out);

  std::vector<BoundOrder> orders_;
  std::vector<row_compare_t> compare_;
  MemoryReservation reservation_;
  std::vector<std::unique_ptr<SpillFile>> runs_;
  std::vector<RunCursor> cursors_;
  bool merging_ = false;
  std::vector<idx_t> heap_;  // runs with rows left, a min-heap on their current row
  idx_t spilled_runs_ = 0;   // for EXPLAIN ANALYZE
  bool sorted_ = false;
  ChunkCollection rows_;
  ChunkCollection keys_;
  std::vector<uint64_t> permutation_;
  // After SortInMemory: column-wise copies out of rows_ and keys_.
  std::unique_ptr<CollectionGather> row_gather_, key_gather_;
  idx_t position_ = 0;
  idx_t top_n_ = 0;
  bool has_boundary_ = false;
  DataChunk boundary_;  // top-N: the keys of the last row kept
  DataChunk picked_rows_, picked_keys_;
  std::vector<sel_t> sel_;
  // Parallel: the copy's morsel numbers (a last BIGINT key), the other copies.
  std::shared_ptr<NumberedMorsels> morsels_;
  std::vector<std::unique_ptr<PhysicalOrder>> workers_;
  idx_t threads_ = 1;  // for EXPLAIN ANALYZE
};

}  // namespace lakestream
