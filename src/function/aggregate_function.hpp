// Aggregate functions: count, sum, avg, min, max, any_value, and count, sum
// and avg of DISTINCT values.
//
// The hash aggregate keeps one AggregateState per aggregate, holding the
// states of all groups in flat arrays indexed by group id. Update is called
// once per input chunk with each row's group id, so the per-row work is a
// tight typed loop with no virtual call.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/vector.hpp"

namespace lakestream {

enum class AggregateKind : uint8_t { COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, COUNT_DISTINCT, ANY_VALUE };

struct AggregateSignature {
  AggregateKind kind;
  std::string name;         // as shown in errors and EXPLAIN
  LogicalType input_type;   // the binder casts the argument to this (INVALID for count(*))
  LogicalType return_type;
  // sum/avg(DISTINCT x): each distinct non-NULL value once per group.
  // (count(DISTINCT) is its own kind; min/max ignore DISTINCT.)
  bool distinct = false;
};

// Resolves name + argument types (+ DISTINCT) or throws BinderError naming the
// function and the types it accepts. Returns false when `name` is not an aggregate.
bool IsAggregateFunction(const std::string& lower_name);
AggregateSignature BindAggregate(const std::string& name, const std::vector<LogicalType>& args,
                                 bool distinct, bool star_argument);

class AggregateState {
 public:
  virtual ~AggregateState() = default;
  // Makes room for groups [0, group_count); new groups start empty.
  virtual void Resize(idx_t group_count) = 0;
  // Folds rows [0, count) of `input` into the groups named by group_ids
  // (input is unused for count(*)).
  virtual void Update(const Vector* input, const uint32_t* group_ids, idx_t count) = 0;
  // Update with every row in group 0 (an aggregate without GROUP BY);
  // `zero_ids` holds `count` zeros for states without a faster loop. States
  // override it to keep the running value in a register.
  virtual void UpdateSingle(const Vector* input, const uint32_t* zero_ids, idx_t count) {
    Update(input, zero_ids, count);
  }
  // Writes the results of groups [first, first + count) into result[0, count).
  virtual void Finalize(idx_t first, idx_t count, Vector& result) = 0;
};

std::unique_ptr<AggregateState> CreateAggregateState(const AggregateSignature& signature);

}  // namespace lakestream
