// Aggregate functions: count, sum, avg, min, max, any_value, and count, sum
// and avg of DISTINCT values; the families in src/function/aggregate/ add
// statistics (stddev/variance), boolean (bool_and/bool_or/count_if),
// quantiles (median, quantile_cont/disc, percentile_approx), lists
// (collect_list/collect_set/string_agg), max_by/min_by/last, HyperLogLog
// (approx_count_distinct), grouping()/grouping_id(), DuckDB's moments
// (kurtosis, skewness, product, fsum), regression (corr, covar_*, regr_*),
// bit_and/bit_or/bit_xor and mode/histogram/entropy. Semantics and the
// differences from DuckDB: docs/sql-aggregates.md.
//
// The hash aggregate keeps one AggregateState per aggregate, holding the
// states of all groups in flat arrays indexed by group id. Update is called
// once per input chunk with each row's group id, so the per-row work is a
// tight typed loop with no virtual call.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/value.hpp"
#include "common/vector.hpp"

namespace lakestream {

enum class AggregateKind : uint8_t {
  COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, COUNT_DISTINCT, ANY_VALUE,
  VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP,   // statistics.cpp (Welford, DOUBLE)
  BOOL_AND, BOOL_OR, COUNT_IF,                  // boolean.cpp
  QUANTILE_CONT, QUANTILE_DISC, PERCENTILE_APPROX,  // quantile.cpp (parameter: the fraction)
  COLLECT_LIST, COLLECT_SET, STRING_AGG,        // list.cpp
  MAX_BY, MIN_BY, LAST,                         // arg_extreme.cpp
  APPROX_COUNT_DISTINCT,                        // hyperloglog.cpp (parameter: the relative error)
  GROUPING,  // grouping()/grouping_id(): the operator feeds each group's bit mask (BIGINT)
  KURTOSIS, KURTOSIS_POP, SKEWNESS, PRODUCT, KAHAN_SUM,  // statistics.cpp (DOUBLE)
  CORR, COVAR_POP, COVAR_SAMP, REGR_SLOPE, REGR_INTERCEPT, REGR_R2, REGR_COUNT,  // regression.cpp (y, x DOUBLE)
  REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY, REGR_SXY,
  BIT_AND, BIT_OR, BIT_XOR,                     // bitwise.cpp (INTEGER, BIGINT)
  MODE, HISTOGRAM, ENTROPY,                     // frequency.cpp (any comparable type)
};

struct AggregateSignature {
  AggregateKind kind;
  std::string name;         // as shown in errors and EXPLAIN
  LogicalType input_type;   // the binder casts the argument to this (INVALID for count(*))
  LogicalType return_type;
  // sum/avg(DISTINCT x): each distinct non-NULL value once per group.
  // (count(DISTINCT) is its own kind; min/max ignore DISTINCT.)
  bool distinct = false;
  // max_by(x, y)/min_by(x, y): the type y is cast to; INVALID for one-argument aggregates.
  LogicalType second_type{};
  double parameter = 0;   // quantile fraction, approx_count_distinct's relative error
  std::string separator{};  // string_agg/listagg
  // percentile_cont/disc(p) WITHIN GROUP (ORDER BY x DESC): the values are
  // ranked from the largest.
  bool descending = false;
  // True when the result depends on the order rows arrive in, so that
  // agg(x ORDER BY k) means something (string_agg, collect_list, first, last).
  bool OrderSensitive() const;
  // True when a materialized view can keep the result up to date from the
  // changed rows alone (count/sum/avg/min/max): the others recompute.
  bool Incremental() const;
  // True when states of this aggregate filled by different threads can be
  // merged (AggregateState::Combine) into exactly the result one thread
  // gives: not for DISTINCT, order-sensitive aggregates, nor sums of DOUBLE
  // (whose rounding depends on the order of the additions).
  bool Combinable() const;
};

// Resolves name + argument types (+ DISTINCT) or throws BinderError naming the
// function and the types it accepts. Returns false when `name` is not an aggregate.
bool IsAggregateFunction(const std::string& lower_name);
AggregateSignature BindAggregate(const std::string& name, const std::vector<LogicalType>& args,
                                 bool distinct, bool star_argument);
// The same for a call whose arguments may include constants the aggregate
// needs at bind time (a quantile's fraction, string_agg's separator):
// constants[i] is set when argument i folded to a constant. The signature's
// argument count (1, or 2 with second_type) says how many arguments remain
// run-time inputs: the first one, or the first two.
AggregateSignature BindAggregate(const std::string& name, const std::vector<LogicalType>& args,
                                 const std::vector<std::optional<Value>>& constants, bool distinct, bool star_argument);

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
  // Two-argument aggregates (max_by(x, y)): `second` holds y. Others do not override it.
  virtual void UpdateBinary(const Vector* input, const Vector* second, const uint32_t* group_ids, idx_t count);
  // Writes the results of groups [first, first + count) into result[0, count).
  virtual void Finalize(idx_t first, idx_t count, Vector& result) = 0;
  // Folds groups [0, count) of `other` (a state of the same signature, filled
  // by another thread) into this state's groups targets[0, count), which
  // Resize has made room for. With `sources` (only when CombinesSelected()),
  // group sources[i] of `other` folds into targets[i] instead: the
  // partitioned merge of a parallel aggregate takes one partition's groups
  // of each thread's table. `other` is only read, so several threads may
  // combine different groups of it at once. Only states whose signature is
  // Combinable() implement it; the others throw InternalError.
  virtual void Combine(AggregateState& other, const uint32_t* targets, idx_t count, const uint32_t* sources);
  virtual bool CombinesSelected() const { return false; }
};

// The group of `other` that Combine folds into targets[g].
inline uint32_t CombineSource(const uint32_t* sources, idx_t g) { return sources ? sources[g] : static_cast<uint32_t>(g); }

std::unique_ptr<AggregateState> CreateAggregateState(const AggregateSignature& signature);

// agg(x ORDER BY k1 [DESC] [NULLS FIRST], ...) and agg(...) WITHIN GROUP
// (ORDER BY ...): one key of the order.
struct AggregateOrderKey {
  LogicalType type;
  bool descending = false;
  bool nulls_first = false;
};

// Buffers each row's arguments and order keys, and at the first Finalize
// feeds the wrapped state every group's rows sorted by the keys (a stable
// sort: ties keep arrival order). Update/UpdateBinary are not used: the hash
// aggregate calls UpdateOrdered.
class OrderedAggregateState : public AggregateState {
 public:
  OrderedAggregateState(std::unique_ptr<AggregateState> inner, const AggregateSignature& signature,
                        std::vector<AggregateOrderKey> keys);
  void Resize(idx_t group_count) override;
  void Update(const Vector* input, const uint32_t* group_ids, idx_t count) override;
  // `second` is null for one-argument aggregates; keys[i] is order key i.
  void UpdateOrdered(const Vector* input, const Vector* second, const std::vector<const Vector*>& keys,
                     const uint32_t* group_ids, idx_t count);
  void Finalize(idx_t first, idx_t count, Vector& result) override;

 private:
  void Feed();

  std::unique_ptr<AggregateState> inner_;
  std::vector<AggregateOrderKey> order_;
  std::unique_ptr<Vector> inputs_;
  std::unique_ptr<Vector> seconds_;
  std::vector<std::unique_ptr<Vector>> keys_;
  std::vector<uint32_t> group_ids_;
  bool fed_ = false;
};

}  // namespace lakestream
