// Chunks handed on with a selection of their rows instead of a copy of them.
//
// A scan (or filter) whose predicates keep most rows of a chunk used to copy
// those rows of every column into a dense chunk; in TPC-H Q1 (98% of the
// rows kept, 7 columns) that copy was a third of the query. A consumer that
// can read rows through a selection (the hash aggregate) lets its child
// chain return the whole chunk with the kept rows named in a selection:
//
//   scan      the kept rows of the scanned chunk, when they are at least half
//             of it (below that a copy of the few rows is the cheaper one);
//   filter    narrows its child's selection (ExpressionExecutor::Select
//             tests only the selected rows), the same rule for the result;
//   projection evaluates its expressions on every row of the chunk and
//             hands its child's selection on. Only projections whose every
//             expression is repeatable (expression/repeatable.hpp) take part,
//             and a row outside the selection that raises an error (a cast,
//             an overflow) is not an error: the projection then evaluates a
//             copy of the selected rows instead (EvaluateOnSelection).
//
// A chunk with a selection has its full row count (size()); its rows are
// rows[0, count) of it. The selection stays valid until the next call of
// the operator's Next.
#pragma once

#include <functional>

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

struct ChunkSelection {
  const sel_t* rows = nullptr;  // null: every row of the chunk
  idx_t count = 0;
};

class SelectedOutput {
 public:
  virtual ~SelectedOutput() = default;
  // From now on, chunks may come with a selection (Selection()).
  virtual void AllowSelection() { selection_allowed_ = true; }
  // The selection of the chunk the last Next returned (rows null: none).
  const ChunkSelection& Selection() const { return selection_; }

 protected:
  // Whether `kept` of `count` rows are worth handing on as a selection.
  bool SelectKept(idx_t kept, idx_t count) const { return selection_allowed_ && kept < count && kept * 2 >= count; }
  bool selection_allowed_ = false;
  ChunkSelection selection_;
};

// Allows `op` to return selections when it can (a scan, a filter, a
// projection of repeatable expressions, each over a child that can or
// returning dense chunks); returns it as a SelectedOutput, else null.
SelectedOutput* AllowSelectedOutput(PhysicalOperator& op);

// Runs `evaluate` (which fills vectors from the rows of `input`) on every
// row of `input`, the selected ones and the others. When it raises an
// Exception (but an interrupt), a row outside the selection may be the
// cause: `input` is then cut down to the selected rows (a dense chunk of
// just that capacity), `selection` emptied and `evaluate` run again,
// raising what a selected row raises. Returns whether `input` was cut down.
bool EvaluateOnSelection(DataChunk& input, ChunkSelection& selection, const std::function<void()>& evaluate);
// Cuts `input` down to its selected rows, as EvaluateOnSelection does;
// false (nothing done) when it has no selection.
bool CutToSelection(DataChunk& input, ChunkSelection& selection);

}  // namespace lakestream
