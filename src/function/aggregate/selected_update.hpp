// Aggregate states that read the rows of a chunk handed on with a selection
// (execution/operator/selected_output.hpp) in place: count, sum, avg, min,
// max. The hash aggregate copies the selected rows out for the others.
#pragma once

#include "function/aggregate_function.hpp"

namespace lakestream {

class SelectedUpdate {
 public:
  virtual ~SelectedUpdate() = default;
  // AggregateState::Update over the rows sel[0, count) of `input`: row
  // sel[i] goes to group_ids[i] (input is unused for count(*)).
  virtual void UpdateSelected(const Vector* input, const sel_t* sel, const uint32_t* group_ids, idx_t count) = 0;
  // AggregateState::UpdateSingle over the rows sel[0, count) of `input`.
  virtual void UpdateSingleSelected(const Vector* input, const sel_t* sel, const uint32_t* zero_ids, idx_t count) = 0;
};

}  // namespace lakestream
