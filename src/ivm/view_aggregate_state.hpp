// The per-group state of an aggregate view (aggregate_maintainer.hpp), kept
// column by column: the state a refresh updates from its change rows.
//
// A state row (the layout of the decomposed aggregate's output, of the state
// file and of RunStatePlan) is: the GROUP BY keys, count(*), then one value
// per sub-aggregate. Here each group has a dense id; count(*), the counters
// (COUNT, COUNT(DISTINCT)) and the sums live in typed arrays indexed by id
// (int64 for BIGINT, the unscaled __int128 for DECIMAL), so that applying a
// chunk of change rows reads its vectors directly and builds no Value per
// row. Only the keys of a new group and MIN/MAX extremes are kept as Values.
//
// Groups are found by their keys' encoding (EncodeVectorValue, the same bytes
// as EncodeRow of the key values, so the maintainer's stored view rows are
// found by the same key). A single INTEGER or BIGINT key is also indexed by
// its value, so applying a chunk encodes no key of a group it already has.
// Ids of erased groups are reused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/value.hpp"
#include "common/vector.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

using Row = std::vector<Value>;

class ViewAggregateState {
 public:
  using GroupId = uint32_t;

  // `key_types`: the GROUP BY keys' types; `subs`: the sub-aggregates that
  // follow count(*) (COUNT, SUM over BIGINT/DECIMAL, MIN, MAX, COUNT(DISTINCT)).
  ViewAggregateState(std::vector<LogicalType> key_types, const std::vector<AggregateSignature>& subs);

  // Adds (sign = +1) or subtracts (-1) the partial aggregates in `partial`
  // (state rows) to their groups, creating groups not seen yet; appends the
  // id of each row's group to `touched`. A subtracted MIN/MAX value at least
  // as extreme as the current one, and any COUNT(DISTINCT) change, marks the
  // group for recomputation (NeedsRecompute).
  void Apply(const DataChunk& partial, int sign, std::vector<GroupId>& touched);

  // Makes the group of `row` (a state row) hold exactly `row`; clears its
  // recompute mark. Returns its id.
  GroupId Set(const Row& row);
  // The group whose keys encode to `key`, if any.
  std::optional<GroupId> Find(const std::string& key) const;
  void Erase(GroupId id);
  void Clear();

  // Live groups; ids run below IdLimit() (some of them erased: Live()).
  idx_t Size() const { return index_.size(); }
  GroupId IdLimit() const { return static_cast<GroupId>(live_.size()); }
  bool Live(GroupId id) const { return live_[id] != 0; }

  const std::string& Key(GroupId id) const { return keys_[id]; }
  const Value& KeyValue(GroupId id, idx_t k) const { return key_values_[id * key_types_.size() + k]; }
  int64_t Count(GroupId id) const { return count_[id]; }
  bool NeedsRecompute(GroupId id) const { return recompute_[id] != 0; }
  // Sub-aggregate `s` as a Value of its return type (a SUM no row ever
  // added to is NULL, as the aggregate's own output).
  Value Sub(GroupId id, idx_t s) const;
  // A counter sub-aggregate (COUNT, COUNT(DISTINCT)).
  int64_t Counter(GroupId id, idx_t s) const { return columns_[s].ints[id]; }
  // A SUM over DECIMAL sub-aggregate, unscaled (0 while nothing was added).
  hugeint_t Wide(GroupId id, idx_t s) const { return columns_[s].wides[id]; }
  // The group as a state row.
  Row StateRow(GroupId id) const;

 private:
  // One sub-aggregate's values by group id (only the member its kind uses).
  struct Column {
    AggregateKind kind;
    LogicalType type;
    bool decimal = false;
    std::vector<int64_t> ints;       // COUNT, COUNT(DISTINCT), SUM over BIGINT
    std::vector<hugeint_t> wides;    // SUM over DECIMAL (unscaled)
    std::vector<uint8_t> valid;      // SUM: a value was added; MIN/MAX: `values` holds one
    std::vector<Value> values;       // MIN, MAX
  };
  GroupId FindOrAdd(const std::string& key, const DataChunk& partial, idx_t row);
  GroupId NewId();
  // The value of a single integer key (int_key_) in `v`; false for NULL.
  bool IntKeyOf(const Value& v, int64_t& out) const;
  // Records group `id` (new) under its integer key `v` (int_key_).
  void IndexIntKey(GroupId id, const Value& v);

  std::vector<LogicalType> key_types_;
  std::vector<idx_t> key_columns_;  // 0 .. key count - 1
  std::vector<Column> columns_;
  std::unordered_map<std::string, GroupId> index_;
  // With one INTEGER/BIGINT key: the groups by key value, and the NULL key's group.
  bool int_key_ = false;
  std::unordered_map<int64_t, GroupId> int_index_;
  GroupId null_group_ = ~GroupId(0);
  std::vector<std::string> keys_;
  std::vector<Value> key_values_;  // IdLimit() x key count
  std::vector<int64_t> count_;
  std::vector<uint8_t> recompute_;
  std::vector<uint8_t> live_;
  std::vector<GroupId> free_;
  std::string scratch_;  // the key being encoded
};

}  // namespace lakestream
