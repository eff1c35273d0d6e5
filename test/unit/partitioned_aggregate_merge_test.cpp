// The partitioned merge of a parallel hash aggregate
// (execution/operator/partitioned_aggregate_merge.hpp): how many partitions
// it makes, and AggregateState::Combine with `sources`, which folds a chosen
// subset of another thread's groups (one partition's) into this state. The
// whole merge is tested through SQL (test/sql/parallel/aggregate_partitioned_merge.test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "execution/operator/partitioned_aggregate_merge.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {
namespace {

TEST(PartitionedAggregateMerge, PartitionCountIsAPowerOfTwoFromThreadsAndGroups) {
  for (idx_t threads : {1, 2, 3, 4, 8, 16, 64}) {
    for (idx_t groups : {idx_t{1} << 15, idx_t{1500000}, idx_t{100000000}}) {
      idx_t p = PartitionedAggregateMerge::PartitionCount(threads, groups);
      EXPECT_EQ(p & (p - 1), 0U) << p;
      EXPECT_GE(p, 16U);
      EXPECT_LE(p, 256U);
      EXPECT_GE(p, std::min<idx_t>(threads * 8, 256));
    }
  }
  EXPECT_EQ(PartitionedAggregateMerge::PartitionCount(2, 1 << 15), 16U);
  EXPECT_EQ(PartitionedAggregateMerge::PartitionCount(4, 1 << 15), 32U);
  // TPC-H Q18's 1.5M groups: partitions of about 16K groups.
  EXPECT_EQ(PartitionedAggregateMerge::PartitionCount(2, 1500000), 128U);
}

// A state of aggregate `name` over `type`, with `values[g]` folded into group g.
std::unique_ptr<AggregateState> Filled(const std::string& name, const LogicalType& type, const std::vector<Value>& values) {
  auto signature = BindAggregate(name, {type}, false, false);
  auto state = CreateAggregateState(signature);
  state->Resize(values.size());
  Vector input(type, values.size());
  std::vector<uint32_t> groups;
  for (idx_t g = 0; g < values.size(); g++) {
    input.SetValue(g, values[g]);
    groups.push_back(static_cast<uint32_t>(g));
  }
  state->Update(&input, groups.data(), values.size());
  return state;
}

std::vector<std::string> Results(AggregateState& state, const LogicalType& type, idx_t groups) {
  Vector out(type, groups);
  state.Finalize(0, groups, out);
  std::vector<std::string> results;
  for (idx_t g = 0; g < groups; g++) results.push_back(out.IsValid(g) ? out.GetValue(g).ToString() : "NULL");
  return results;
}

// Folds groups 3 and 1 of a filled state (values[3], values[1]) into groups 0
// and 1 of a state already holding `base` in both.
std::vector<std::string> CombineSelected(const std::string& name, const LogicalType& type,
                                         const std::vector<Value>& values, const Value& base, const LogicalType& result) {
  auto from = Filled(name, type, values);
  auto into = Filled(name, type, {base, base});
  EXPECT_TRUE(into->CombinesSelected()) << name;
  const uint32_t sources[] = {3, 1};
  const uint32_t targets[] = {0, 1};
  into->Combine(*from, targets, 2, sources);
  return Results(*into, result, 2);
}

TEST(PartitionedAggregateMerge, CombineFoldsOnlyTheSourceGroups) {
  std::vector<Value> numbers{Value::BIGINT(1), Value::BIGINT(20), Value::BIGINT(300), Value::BIGINT(4000)};
  EXPECT_EQ(CombineSelected("sum", TypeId::BIGINT, numbers, Value::BIGINT(5), TypeId::BIGINT),
            (std::vector<std::string>{"4005", "25"}));
  EXPECT_EQ(CombineSelected("count", TypeId::BIGINT, numbers, Value::BIGINT(5), TypeId::BIGINT),
            (std::vector<std::string>{"2", "2"}));
  EXPECT_EQ(CombineSelected("min", TypeId::BIGINT, numbers, Value::BIGINT(5), TypeId::BIGINT),
            (std::vector<std::string>{"5", "5"}));
  EXPECT_EQ(CombineSelected("max", TypeId::BIGINT, numbers, Value::BIGINT(5), TypeId::BIGINT),
            (std::vector<std::string>{"4000", "20"}));
  EXPECT_EQ(CombineSelected("bit_or", TypeId::BIGINT, numbers, Value::BIGINT(1), TypeId::BIGINT),
            (std::vector<std::string>{"4001", "21"}));
  std::vector<Value> words{Value::VARCHAR("d"), Value::VARCHAR("b"), Value::VARCHAR("z"), Value::VARCHAR("a")};
  EXPECT_EQ(CombineSelected("min", TypeId::VARCHAR, words, Value::VARCHAR("c"), TypeId::VARCHAR),
            (std::vector<std::string>{"a", "b"}));
  std::vector<Value> truths{Value::BOOLEAN(true), Value::BOOLEAN(false), Value::BOOLEAN(false), Value::BOOLEAN(true)};
  EXPECT_EQ(CombineSelected("bool_and", TypeId::BOOLEAN, truths, Value::BOOLEAN(true), TypeId::BOOLEAN),
            (std::vector<std::string>{"true", "false"}));
  EXPECT_EQ(CombineSelected("count_if", TypeId::BOOLEAN, truths, Value::BOOLEAN(true), TypeId::BIGINT),
            (std::vector<std::string>{"2", "1"}));
}

TEST(PartitionedAggregateMerge, CountStarCombinesSelected) {
  auto signature = BindAggregate("count", {}, false, true);
  auto from = CreateAggregateState(signature);
  from->Resize(3);
  const uint32_t rows[] = {0, 2, 2, 2, 1};
  from->Update(nullptr, rows, 5);
  auto into = CreateAggregateState(signature);
  into->Resize(1);
  const uint32_t sources[] = {2};
  const uint32_t targets[] = {0};
  into->Combine(*from, targets, 1, sources);
  EXPECT_EQ(Results(*into, TypeId::BIGINT, 1), (std::vector<std::string>{"3"}));
}

// count(DISTINCT) merges every (group, value) pair of the other state at once:
// it cannot take one partition's groups, so such a GROUP BY keeps the serial merge.
TEST(PartitionedAggregateMerge, CountDistinctDoesNotCombineSelected) {
  auto signature = BindAggregate("count", {TypeId::BIGINT}, true, false);
  EXPECT_FALSE(CreateAggregateState(signature)->CombinesSelected());
}

}  // namespace
}  // namespace lakestream
