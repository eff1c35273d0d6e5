// The join-order optimizer: a FROM list of many tables joined through WHERE
// predicates, in a shuffled order, is planned from its predicates (no cross
// product, milliseconds to plan) and gives the answer computed here directly
// from the data. Also the enumerator on its own: exact and greedy orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "common/value.hpp"
#include "lakestream.hpp"
#include "planner/join_order/plan_enumerator.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

// ------------------------------------------------------------- enumerator

// Relations under a subtree, and whether every join in it has an edge
// between its two sides (no cross product).
bool Connected(const JoinTree& tree, const JoinGraph& graph, std::vector<idx_t>& relations) {
  if (tree.IsLeaf()) {
    relations = {tree.relation};
    return true;
  }
  std::vector<idx_t> left, right;
  bool ok = Connected(*tree.left, graph, left) && Connected(*tree.right, graph, right);
  bool edge = false;
  for (idx_t a : left) {
    for (idx_t b : right) edge = edge || graph.connected[a][b];
  }
  relations = left;
  relations.insert(relations.end(), right.begin(), right.end());
  return ok && edge && tree.right->cardinality <= tree.left->cardinality;
}

JoinGraph Chain(idx_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  JoinGraph graph(n);
  for (idx_t i = 0; i < n; i++) graph.cardinalities[i] = 1 + static_cast<double>(rng() % 10000);
  for (idx_t i = 1; i < n; i++) graph.AddEdge(i - 1, i, 1.0 / std::max(graph.cardinalities[i - 1], graph.cardinalities[i]));
  return graph;
}

TEST(JoinOrderEnumerator, ExactAndGreedyPlansHaveNoCrossProduct) {
  for (idx_t n : {2, 5, 12, 13, 40}) {
    JoinGraph graph = Chain(n, static_cast<uint32_t>(n));
    auto tree = EnumerateJoinOrder(graph);
    std::vector<idx_t> relations;
    EXPECT_TRUE(Connected(*tree, graph, relations)) << n << " relations";
    std::sort(relations.begin(), relations.end());
    ASSERT_EQ(relations.size(), n);
    for (idx_t i = 0; i < n; i++) EXPECT_EQ(relations[i], i);
  }
}

TEST(JoinOrderEnumerator, ExactOrderStartsFromTheSelectiveJoin) {
  // A star: a big fact table (0) and three dimensions; dimension 3 is
  // filtered to one row, so joining it first keeps every intermediate small.
  JoinGraph graph(4);
  graph.cardinalities = {1000000, 1000, 1000, 1};
  for (idx_t d = 1; d < 4; d++) graph.AddEdge(0, d, 1.0 / 1000);
  auto tree = EnumerateJoinOrder(graph);
  // C_out of ((0 x 3) x 1) x 2: 1000 + 1000 + 1000; any other order costs more.
  EXPECT_DOUBLE_EQ(tree->cost, 3000);
  // The lowest join (both inputs scans) is fact x filtered dimension.
  const JoinTree* node = tree.get();
  while (!(node->left->IsLeaf() && node->right->IsLeaf())) node = node->left->IsLeaf() ? node->right.get() : node->left.get();
  EXPECT_EQ(node->left->relation, 0u);
  EXPECT_EQ(node->right->relation, 3u);
}

TEST(JoinOrderEnumerator, DisconnectedPartsMeetOnlyAtTheTop) {
  JoinGraph graph(4);
  graph.cardinalities = {10, 20, 30, 40};
  graph.AddEdge(0, 1, 0.1);
  graph.AddEdge(2, 3, 0.1);
  auto tree = EnumerateJoinOrder(graph);
  std::vector<idx_t> left, right;
  EXPECT_TRUE(Connected(*tree->left, graph, left));
  EXPECT_TRUE(Connected(*tree->right, graph, right));
  EXPECT_EQ(left.size(), 2u);
  EXPECT_EQ(right.size(), 2u);
}

// ------------------------------------------------------------- end to end

class ManyTableJoinTest : public ::testing::Test {
 protected:
  static constexpr int kTables = 40;
  static constexpr int kKeys = 25;

  // The 40 tables are written once for all the tests here (80 commits).
  static void SetUpTestSuite() {
    dir_ = new lakestream::testing::ScopedTempDir("lakestream_join_order");
    db_ = new Database(dir_->path);
    con_ = new Connection(*db_);
    // Table i holds keys 0..24 (k = p), except one key dropped in every third
    // table and one key doubled in every fourth; v = 100 * i + k.
    multiplicity_.assign(kTables, std::vector<int>(kKeys, 1));
    for (int i = 0; i < kTables; i++) {
      if (i % 3 == 0) multiplicity_[i][(i * 7) % kKeys] = 0;
      if (i % 4 == 1) multiplicity_[i][(i * 11) % kKeys] = 2;
      std::string values;
      for (int k = 0; k < kKeys; k++) {
        for (int c = 0; c < multiplicity_[i][k]; c++) {
          values += (values.empty() ? "" : ", ") + std::string("(") + std::to_string(k) + ", " + std::to_string(k) + ", " +
                    std::to_string(100 * i + k) + ")";
        }
      }
      Run("CREATE TABLE t" + std::to_string(i) + " (k INT, p INT, v INT)");
      Run("INSERT INTO t" + std::to_string(i) + " VALUES " + values);
    }
    // A random spanning tree (t_i.p = t_j.k, j < i) plus a few extra edges
    // closing cycles, and one single-table filter.
    std::mt19937 rng(20);
    for (int i = 1; i < kTables; i++) {
      int j = static_cast<int>(rng() % static_cast<uint32_t>(i));
      predicates_.push_back("t" + std::to_string(i) + ".p = t" + std::to_string(j) + ".k");
    }
    for (int e = 0; e < 5; e++) {
      int a = static_cast<int>(rng() % kTables), b = static_cast<int>(rng() % kTables);
      if (a != b) predicates_.push_back("t" + std::to_string(a) + ".k = t" + std::to_string(b) + ".p");
    }
    predicates_.push_back("t5.v <> 517");
  }

  static void TearDownTestSuite() {
    delete con_;
    delete db_;
    delete dir_;
    con_ = nullptr;
    db_ = nullptr;
    dir_ = nullptr;
  }

  static void Run(const std::string& sql) {
    auto result = con_->Query(sql);
    ASSERT_FALSE(result->HasError()) << sql << "\n" << result->GetError();
  }

  static std::string Query(const std::vector<int>& order, const std::vector<std::string>& predicates, const std::string& prefix) {
    std::string sql = prefix + " FROM ";
    for (size_t i = 0; i < order.size(); i++) sql += (i ? ", t" : "t") + std::to_string(order[i]);
    sql += " WHERE ";
    for (size_t i = 0; i < predicates.size(); i++) sql += (i ? " AND " : "") + predicates[i];
    return sql;
  }

  static lakestream::testing::ScopedTempDir* dir_;
  static Database* db_;
  static Connection* con_;
  static std::vector<std::vector<int>> multiplicity_;
  static std::vector<std::string> predicates_;
};

lakestream::testing::ScopedTempDir* ManyTableJoinTest::dir_ = nullptr;
Database* ManyTableJoinTest::db_ = nullptr;
Connection* ManyTableJoinTest::con_ = nullptr;
std::vector<std::vector<int>> ManyTableJoinTest::multiplicity_;
std::vector<std::string> ManyTableJoinTest::predicates_;

TEST_F(ManyTableJoinTest, FortyTablesInShuffledOrderArePlannedFromTheirPredicates) {
  // Every predicate equates keys, so a result row is one key present in all
  // tables, repeated by the product of its multiplicities (key 17 also
  // fails t5.v <> 517).
  int64_t expected_count = 0, expected_sum = 0;
  for (int k = 0; k < kKeys; k++) {
    int64_t rows = k == 17 ? 0 : 1;
    for (int i = 0; i < kTables; i++) rows *= multiplicity_[i][k];
    expected_count += rows;
    expected_sum += rows * ((100 * 0 + k) + (100 * 39 + k) + (100 * 22 + k));
  }
  ASSERT_GT(expected_count, 0);
  const std::string select = "SELECT count(*), sum(t0.v + t39.v + t22.v)";

  std::vector<int> given(kTables);
  for (int i = 0; i < kTables; i++) given[i] = i;
  std::vector<int> shuffled = given;
  std::mt19937 rng(7);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::vector<std::string> predicates = predicates_;
  std::shuffle(predicates.begin(), predicates.end(), rng);

  for (auto* order : {&shuffled, &given}) {
    auto start = std::chrono::steady_clock::now();
    auto explain = con_->Query("EXPLAIN " + Query(*order, predicates, select));
    double plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_FALSE(explain->HasError()) << explain->GetError();
    std::string plan = explain->GetEngineValue(0, 0).ToString();
    // A cross product of dozens of tables would not finish: stop here.
    ASSERT_EQ(plan.find("NESTED_LOOP"), std::string::npos) << plan;
    size_t joins = 0;
    for (size_t at = plan.find("HASH_JOIN"); at != std::string::npos; at = plan.find("HASH_JOIN", at + 1)) joins++;
    EXPECT_EQ(joins, static_cast<size_t>(kTables - 1)) << plan;
    // Generous: planning takes milliseconds; before, the shuffled order ran
    // cross products of dozens of tables and did not finish.
    EXPECT_LT(plan_seconds, 5.0);

    start = std::chrono::steady_clock::now();
    auto result = con_->Query(Query(*order, predicates, select));
    double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_FALSE(result->HasError()) << result->GetError();
    EXPECT_EQ(result->GetEngineValue(0, 0).AsBigint(), expected_count);
    EXPECT_EQ(result->GetEngineValue(1, 0).AsBigint(), expected_sum);
    EXPECT_LT(run_seconds, 20.0);
    std::cout << (order == &shuffled ? "shuffled" : "given") << " order: EXPLAIN " << plan_seconds * 1000 << " ms, query "
              << run_seconds * 1000 << " ms\n";
  }
}

TEST_F(ManyTableJoinTest, ExactEnumerationOnTenTables) {
  // 10 tables: exact enumeration; the given order starts with a cross
  // product (t3, t9 are not joined to each other), the optimizer avoids it.
  std::vector<int> order = {3, 9, 0, 6, 1, 8, 2, 7, 4, 5};
  std::vector<std::string> predicates;
  for (int i = 1; i < 10; i++) predicates.push_back("t" + std::to_string(i) + ".p = t" + std::to_string(i - 1) + ".k");
  int64_t expected = 0;
  for (int k = 0; k < kKeys; k++) {
    int64_t rows = 1;
    for (int i = 0; i < 10; i++) rows *= multiplicity_[i][k];
    expected += rows;
  }
  auto explain = con_->Query("EXPLAIN " + Query(order, predicates, "SELECT count(*)"));
  ASSERT_FALSE(explain->HasError()) << explain->GetError();
  EXPECT_EQ(explain->GetEngineValue(0, 0).ToString().find("NESTED_LOOP"), std::string::npos);
  auto result = con_->Query(Query(order, predicates, "SELECT count(*)"));
  ASSERT_FALSE(result->HasError()) << result->GetError();
  EXPECT_EQ(result->GetEngineValue(0, 0).AsBigint(), expected);
}

TEST_F(ManyTableJoinTest, TablesNoPredicateConnectsStayACrossProduct) {
  auto result = con_->Query("SELECT count(*) FROM t1, t2, t3 WHERE t1.k = t2.k");
  ASSERT_FALSE(result->HasError()) << result->GetError();
  int64_t pairs = 0;
  for (int k = 0; k < kKeys; k++) pairs += multiplicity_[1][k] * multiplicity_[2][k];
  int64_t t3 = 0;
  for (int k = 0; k < kKeys; k++) t3 += multiplicity_[3][k];
  EXPECT_EQ(result->GetEngineValue(0, 0).AsBigint(), pairs * t3);
}

}  // namespace
}  // namespace lakestream
