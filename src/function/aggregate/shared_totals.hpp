// sum(x) and avg(x) of the same argument keep the same running totals, a sum
// and a count per group (TPC-H Q1 asks for both of two columns). The hash
// aggregate updates one state and lets the others finalize from its totals
// instead of adding every row again.
#pragma once

#include "function/aggregate_function.hpp"

namespace lakestream {

class SharedTotals {
 public:
  virtual ~SharedTotals() = default;
  // Makes this state finalize from `source`'s totals when `source` keeps the
  // same ones (a state of the same kind over the same input type, updated
  // with the same rows); false otherwise. Once it has, this state is never
  // updated: Resize and Combine do nothing (the source's do the work), and
  // Update must not be called.
  virtual bool FinalizeFrom(AggregateState& source) = 0;
};

}  // namespace lakestream
