// Top-N window rewrite. A FILTER that keeps only the first N rows of each
// partition of a row_number() window,
//
//   SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1
//   SELECT * FROM t QUALIFY row_number() OVER (PARTITION BY k ORDER BY ts) <= 3
//
// needs neither the other rows nor a full sort: the WINDOW is marked with
// window_top_n = N and runs as a grouped top-N (PhysicalTopNWindow), which
// yields exactly rows 1 to N with their row numbers. The FILTER stays as it
// is, so any N that bounds the kept rows from above is correct.
//
// It applies when:
//  - the WINDOW computes a single window function and it is row_number()
//    (another window function, even over the same window, needs every row);
//  - between the FILTER and the WINDOW there are only PROJECTIONs, which
//    pass the row number through as a plain column;
//  - one of the FILTER's conjuncts is rn = c, rn <= c or rn < c (or the same
//    with the operands swapped) for an integer constant c giving N >= 1;
//    with several, the smallest N. A disjunction (rn = 1 OR ...), rn > c,
//    rn <> c, rn compared with a column or a non-integer leave the plan as
//    it is.
// rank() and dense_rank() = 1 keep the general WINDOW (ties can make any
// number of rows rank 1).
#pragma once

#include "planner/logical_plan.hpp"

namespace lakestream {

// Marks each WINDOW the rewrite applies to (see above) in place.
void RewriteTopNWindows(LogicalOperator& plan);

}  // namespace lakestream
