// The typed per-group state of aggregate views (ivm/view_aggregate_state.hpp):
// random batches of rows added and removed, each row fed as its own partial
// aggregate, and after every batch each group's state equals the aggregates
// recomputed from the rows the groups hold then. Also: the vector encoding of
// keys is the row encoding, and state rows round-trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ivm/view_aggregate_state.hpp"
#include "ivm/view_diff.hpp"

namespace lakestream {
namespace {

const LogicalType kDec = LogicalType::Decimal(12, 2);
const LogicalType kSumDec = LogicalType::Decimal(22, 2);

// Sub-aggregates after count(*): COUNT(v), SUM(v) (DECIMAL), SUM(n) (BIGINT), MIN(v), MAX(v).
std::vector<AggregateSignature> Subs() {
  AggregateSignature count = BindAggregate("count", {kDec}, false, false);
  return {count, BindAggregate("sum", {kDec}, false, false), BindAggregate("sum", {LogicalType(TypeId::BIGINT)}, false, false),
          BindAggregate("min", {kDec}, false, false), BindAggregate("max", {kDec}, false, false)};
}

// One source row: keys (BIGINT, VARCHAR), v DECIMAL(12,2) (maybe NULL), n BIGINT.
struct Input {
  Value g, name, v;
  int64_t n = 0;
};

// The row as a partial aggregate of one row, in state layout.
DataChunk Partials(const std::vector<Input>& rows) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR, TypeId::BIGINT, TypeId::BIGINT, kSumDec,
                                    TypeId::BIGINT, kDec, kDec};
  DataChunk chunk;
  chunk.Initialize(types, rows.size());
  for (idx_t r = 0; r < rows.size(); r++) {
    const Input& in = rows[r];
    bool has = !in.v.IsNull();
    Row row = {in.g, in.name, Value::BIGINT(1), Value::BIGINT(has ? 1 : 0),
               has ? Value::DECIMAL(in.v.GetHugeint(), 22, 2) : Value(kSumDec), Value::BIGINT(in.n), in.v, in.v};
    for (idx_t c = 0; c < row.size(); c++) chunk.SetValue(c, r, row[c]);
  }
  chunk.SetCardinality(rows.size());
  return chunk;
}

TEST(ViewAggregateState, RandomChangesEqualRecompute) {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  ViewAggregateState state({TypeId::BIGINT, TypeId::VARCHAR}, Subs());
  std::vector<Input> held;  // the source rows now
  for (int step = 0; step < 300; step++) {
    // Some rows leave (the minus side first, as a refresh applies them), some come.
    std::vector<Input> minus, plus;
    for (int i = pick(6); i > 0 && !held.empty(); i--) {
      idx_t at = static_cast<idx_t>(pick(static_cast<int>(held.size())));
      minus.push_back(held[at]);
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(at));
    }
    for (int i = pick(8); i > 0; i--) {
      Input in;
      in.g = pick(8) == 0 ? Value(LogicalType(TypeId::BIGINT)) : Value::BIGINT(pick(5));
      in.name = pick(2) == 0 ? Value("a") : Value("b");
      in.v = pick(5) == 0 ? Value(kDec) : Value::DECIMAL(pick(2001) - 1000, 12, 2);
      in.n = pick(100) - 50;
      plus.push_back(in);
      held.push_back(in);
    }
    std::vector<ViewAggregateState::GroupId> touched;
    if (!minus.empty()) state.Apply(Partials(minus), -1, touched);
    if (!plus.empty()) state.Apply(Partials(plus), +1, touched);
    EXPECT_EQ(touched.size(), minus.size() + plus.size());
    // Recompute: per group, its rows' aggregates.
    struct Expected {
      Row keys;
      int64_t count = 0, count_v = 0, sum_n = 0;
      hugeint_t sum_v = 0;
      Value min, max;
    };
    std::map<std::string, Expected> expected;
    for (auto& in : held) {
      Row keys = {in.g, in.name};
      Expected& e = expected[EncodeRow(keys)];
      e.keys = keys;
      e.count++;
      e.sum_n += in.n;
      if (in.v.IsNull()) continue;
      e.count_v++;
      e.sum_v += in.v.GetHugeint();
      if (e.min.IsNull() || in.v.Compare(e.min) < 0) e.min = in.v;
      if (e.max.IsNull() || in.v.Compare(e.max) > 0) e.max = in.v;
    }
    // Groups that lost every row leave, as the maintainer erases them; a
    // group whose extreme left is recomputed from its rows (Set).
    for (ViewAggregateState::GroupId id = 0; id < state.IdLimit(); id++) {
      if (!state.Live(id)) continue;
      auto it = expected.find(state.Key(id));
      if (state.Count(id) == 0) {
        EXPECT_TRUE(it == expected.end()) << "step " << step;
        state.Erase(id);
        continue;
      }
      ASSERT_TRUE(it != expected.end()) << "step " << step;
      const Expected& e = it->second;
      if (state.NeedsRecompute(id)) {
        state.Set({e.keys[0], e.keys[1], Value::BIGINT(e.count), Value::BIGINT(e.count_v),
                   e.count_v ? Value::DECIMAL(e.sum_v, 22, 2) : Value(kSumDec), Value::BIGINT(e.sum_n), e.min, e.max});
        EXPECT_FALSE(state.NeedsRecompute(id));
      }
      EXPECT_EQ(state.Count(id), e.count) << "step " << step;
      EXPECT_EQ(state.Counter(id, 0), e.count_v) << "step " << step;
      if (e.count_v > 0) EXPECT_EQ(state.Sub(id, 1).GetHugeint(), e.sum_v) << "step " << step;
      EXPECT_EQ(state.Sub(id, 2).AsBigint(), e.sum_n) << "step " << step;
      EXPECT_EQ(state.Sub(id, 3).ToString(), e.min.ToString()) << "step " << step;
      EXPECT_EQ(state.Sub(id, 4).ToString(), e.max.ToString()) << "step " << step;
      EXPECT_EQ(EncodeRow({state.KeyValue(id, 0), state.KeyValue(id, 1)}), state.Key(id));
    }
    EXPECT_EQ(state.Size(), expected.size()) << "step " << step;
    // Erased ids are reused: the id space stays near the group count.
    EXPECT_LE(state.IdLimit(), 2 * 5 * 2 + 2u);
  }
}

// A single INTEGER or BIGINT key is found by its value (and the NULL key by
// itself) as well as by its encoding: groups emptied and erased come back
// under a reused id, a Set() group is found by Apply, and each group's
// count follows the rows it holds.
TEST(ViewAggregateState, SingleIntegerKeysFoundByValue) {
  for (TypeId key_type : {TypeId::INTEGER, TypeId::BIGINT}) {
    AggregateSignature sum = BindAggregate("sum", {LogicalType(TypeId::BIGINT)}, false, false);
    ViewAggregateState state({key_type}, {sum});
    auto key = [&](int k) { return k < 0 ? Value(LogicalType(key_type)) : key_type == TypeId::INTEGER ? Value::INTEGER(k) : Value::BIGINT(k); };
    // Partials of one row each: key, count(*) = 1, sum = n.
    auto partials = [&](const std::vector<std::pair<int, int64_t>>& rows) {
      DataChunk chunk;
      chunk.Initialize({key_type, TypeId::BIGINT, TypeId::BIGINT}, rows.size());
      for (idx_t r = 0; r < rows.size(); r++) {
        chunk.SetValue(0, r, key(rows[r].first));
        chunk.SetValue(1, r, Value::BIGINT(1));
        chunk.SetValue(2, r, Value::BIGINT(rows[r].second));
      }
      chunk.SetCardinality(rows.size());
      return chunk;
    };
    std::mt19937 rng(11);
    std::map<int, std::pair<int64_t, int64_t>> expected;  // key (-1: NULL) -> (count, sum)
    std::vector<std::pair<int, int64_t>> held;
    for (int step = 0; step < 200; step++) {
      std::vector<std::pair<int, int64_t>> minus, plus;
      for (int i = static_cast<int>(rng() % 5); i > 0 && !held.empty(); i--) {
        idx_t at = rng() % held.size();
        minus.push_back(held[at]);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(at));
      }
      for (int i = static_cast<int>(rng() % 5); i > 0; i--) {
        int k = static_cast<int>(rng() % 7) - 1;  // -1: the NULL key
        plus.emplace_back(k, static_cast<int64_t>(rng() % 100) - 50);
        held.push_back(plus.back());
      }
      std::vector<ViewAggregateState::GroupId> touched;
      if (!minus.empty()) state.Apply(partials(minus), -1, touched);
      if (!plus.empty()) state.Apply(partials(plus), +1, touched);
      expected.clear();
      for (auto& [k, n] : held) {
        expected[k].first++;
        expected[k].second += n;
      }
      for (ViewAggregateState::GroupId id = 0; id < state.IdLimit(); id++) {
        if (!state.Live(id)) continue;
        const Value& v = state.KeyValue(id, 0);
        int k = v.IsNull() ? -1 : static_cast<int>(v.AsBigint());
        auto it = expected.find(k);
        if (state.Count(id) == 0) {
          EXPECT_TRUE(it == expected.end()) << "step " << step;
          state.Erase(id);
          continue;
        }
        ASSERT_TRUE(it != expected.end()) << "step " << step;
        EXPECT_EQ(state.Count(id), it->second.first) << "step " << step << " key " << k;
        EXPECT_EQ(state.Counter(id, 0), it->second.second) << "step " << step << " key " << k;
        EXPECT_EQ(state.Find(EncodeRow({key(k)})), std::optional<ViewAggregateState::GroupId>(id));
      }
      EXPECT_EQ(state.Size(), expected.size()) << "step " << step;
      EXPECT_LE(state.IdLimit(), 8u);  // 7 keys: every group once, erased ids reused
    }
    // A group made by Set() (a state file, a recompute) is found by Apply.
    state.Clear();
    ViewAggregateState::GroupId set = state.Set({key(42), Value::BIGINT(2), Value::BIGINT(10)});
    ViewAggregateState::GroupId set_null = state.Set({key(-1), Value::BIGINT(1), Value::BIGINT(5)});
    std::vector<ViewAggregateState::GroupId> touched;
    state.Apply(partials({{42, 3}, {-1, 4}}), +1, touched);
    EXPECT_EQ(touched, (std::vector<ViewAggregateState::GroupId>{set, set_null}));
    EXPECT_EQ(state.Count(set), 3);
    EXPECT_EQ(state.Counter(set, 0), 13);
    EXPECT_EQ(state.Counter(set_null, 0), 9);
    EXPECT_EQ(state.Size(), 2u);
  }
}

TEST(ViewAggregateState, StateRowsRoundTripAndSumsStartNull) {
  ViewAggregateState state({TypeId::BIGINT, TypeId::VARCHAR}, Subs());
  std::vector<ViewAggregateState::GroupId> touched;
  Input only_null{Value::BIGINT(1), Value("a"), Value(kDec), 4};
  state.Apply(Partials({only_null}), +1, touched);
  ASSERT_EQ(touched.size(), 1u);
  // A SUM no value was added to is NULL, as sum() over NULLs.
  Row row = state.StateRow(touched[0]);
  EXPECT_EQ(row.size(), 8u);
  EXPECT_TRUE(row[4].IsNull());
  EXPECT_EQ(row[5].AsBigint(), 4);
  // Set() with a state row gives the same group back, holding that row.
  Row next = {Value::BIGINT(1), Value("a"), Value::BIGINT(3), Value::BIGINT(2), Value::DECIMAL(250, 22, 2),
              Value::BIGINT(-7), Value::DECIMAL(100, 12, 2), Value::DECIMAL(150, 12, 2)};
  EXPECT_EQ(state.Set(next), touched[0]);
  EXPECT_EQ(EncodeRow(state.StateRow(touched[0])), EncodeRow(next));
  EXPECT_EQ(state.Size(), 1u);
  state.Clear();
  EXPECT_EQ(state.Size(), 0u);
  EXPECT_FALSE(state.Find(EncodeRow({Value::BIGINT(1), Value("a")})).has_value());
}

TEST(ViewAggregateState, VectorEncodingIsTheRowEncoding) {
  std::vector<LogicalType> types = {TypeId::BOOLEAN, TypeId::INTEGER, TypeId::BIGINT, TypeId::DOUBLE, kDec,
                                    TypeId::VARCHAR, TypeId::DATE, TypeId::TIMESTAMP, LogicalType::List(TypeId::BIGINT)};
  std::vector<Row> rows = {
      {Value::BOOLEAN(true), Value::INTEGER(-5), Value::BIGINT(1LL << 40), Value::DOUBLE(-0.0), Value::DECIMAL(-12345, 12, 2),
       Value(std::string("x\0y", 3)), Value::DATE(19000), Value::TIMESTAMP(1700000000000000LL),
       Value::LIST(LogicalType::List(TypeId::BIGINT), {Value::BIGINT(1), Value::BIGINT(2)})},
  };
  Row nulls;
  for (auto& t : types) nulls.emplace_back(t);
  rows.push_back(nulls);
  DataChunk chunk;
  chunk.Initialize(types, rows.size());
  for (idx_t r = 0; r < rows.size(); r++) {
    for (idx_t c = 0; c < types.size(); c++) chunk.SetValue(c, r, rows[r][c]);
  }
  chunk.SetCardinality(rows.size());
  for (idx_t r = 0; r < rows.size(); r++) {
    for (idx_t c = 0; c < types.size(); c++) {
      std::string encoded;
      AppendVectorValue(chunk.data[c], r, encoded);
      EXPECT_EQ(encoded, EncodeRow({rows[r][c]})) << "row " << r << ", column " << types[c].ToString();
    }
  }
}

}  // namespace
}  // namespace lakestream
