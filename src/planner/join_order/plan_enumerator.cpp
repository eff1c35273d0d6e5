#include "planner/join_order/plan_enumerator.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "common/exception.hpp"

namespace lakestream {

JoinGraph::JoinGraph(idx_t relations)
    : cardinalities(relations, 1),
      selectivity(relations, std::vector<double>(relations, 1)),
      connected(relations, std::vector<bool>(relations, false)),
      edge_class(relations, std::vector<int>(relations, -1)) {}

void JoinGraph::AddEdge(idx_t a, idx_t b, double edge_selectivity, int equivalence_class) {
  // Several predicates between one pair are rarely independent (a composite
  // key): the most selective one stands for them all.
  double s = connected[a][b] ? std::min(selectivity[a][b], edge_selectivity) : edge_selectivity;
  int cls = connected[a][b] && edge_class[a][b] != equivalence_class ? -1 : equivalence_class;
  selectivity[a][b] = selectivity[b][a] = s;
  edge_class[a][b] = edge_class[b][a] = cls;
  connected[a][b] = connected[b][a] = true;
}

namespace {

std::unique_ptr<JoinTree> Leaf(const JoinGraph& graph, idx_t relation) {
  auto leaf = std::make_unique<JoinTree>();
  leaf->relation = relation;
  leaf->cardinality = graph.cardinalities[relation];
  return leaf;
}

// The join of two subtrees, the smaller one on the build (right) side.
std::unique_ptr<JoinTree> Join(std::unique_ptr<JoinTree> a, std::unique_ptr<JoinTree> b, double cardinality) {
  auto join = std::make_unique<JoinTree>();
  join->cardinality = std::max(1.0, cardinality);
  join->cost = join->cardinality + a->cost + b->cost;
  if (a->cardinality < b->cardinality) std::swap(a, b);
  join->left = std::move(a);
  join->right = std::move(b);
  return join;
}

std::vector<std::vector<idx_t>> Components(const JoinGraph& graph) {
  std::vector<std::vector<idx_t>> components;
  std::vector<bool> seen(graph.Size(), false);
  for (idx_t start = 0; start < graph.Size(); start++) {
    if (seen[start]) continue;
    std::vector<idx_t> component{start};
    seen[start] = true;
    for (idx_t k = 0; k < component.size(); k++) {
      for (idx_t other = 0; other < graph.Size(); other++) {
        if (!seen[other] && graph.connected[component[k]][other]) {
          seen[other] = true;
          component.push_back(other);
        }
      }
    }
    std::sort(component.begin(), component.end());
    components.push_back(std::move(component));
  }
  return components;
}

// Dynamic programming over the connected subsets of `rels` (bit i = rels[i]).
class ExactEnumerator {
 public:
  ExactEnumerator(const JoinGraph& graph, const std::vector<idx_t>& rels) : graph_(graph), rels_(rels) {}

  std::unique_ptr<JoinTree> Run() {
    idx_t n = rels_.size();
    uint32_t full = (1u << n) - 1;
    best_.assign(full + 1, Entry());
    neighbours_.assign(full + 1, 0);
    cardinality_.assign(full + 1, 1);
    std::vector<uint32_t> adjacent(n, 0);
    for (idx_t i = 0; i < n; i++) {
      for (idx_t j = 0; j < n; j++) {
        if (graph_.connected[rels_[i]][rels_[j]]) adjacent[i] |= 1u << j;
      }
    }
    for (uint32_t set = 1; set <= full; set++) {
      idx_t low = LowestBit(set);
      uint32_t rest = set & (set - 1);
      neighbours_[set] = neighbours_[rest] | adjacent[low];
      // Order-independent estimate: the new relation times its edges into the rest.
      double card = cardinality_[rest] * graph_.cardinalities[rels_[low]];
      class_selectivity_.clear();
      for (uint32_t r = rest; r; r &= r - 1) {
        idx_t a = rels_[low], b = rels_[LowestBit(r)];
        int cls = graph_.edge_class[a][b];
        if (cls < 0) {
          card *= graph_.selectivity[a][b];
          continue;
        }
        auto [it, added] = class_selectivity_.emplace(cls, graph_.selectivity[a][b]);
        if (!added) it->second = std::min(it->second, graph_.selectivity[a][b]);
      }
      for (auto& [cls, selectivity] : class_selectivity_) card *= selectivity;
      cardinality_[set] = std::max(1.0, card);
      if (rest == 0) {
        best_[set] = {0, 0, 0, true};
        continue;
      }
      // Only connected subsets get a plan: skip the others' 2^|set| splits.
      uint32_t reached = set & (~set + 1);
      for (uint32_t grown = 0; grown != reached;) {
        grown = reached;
        reached = (reached | neighbours_[reached]) & set;
      }
      if (reached != set) continue;
      // Halves containing the lowest relation, so each pair is seen once.
      uint32_t low_bit = set & (~set + 1);
      for (uint32_t sub = (set - 1) & set; sub; sub = (sub - 1) & set) {
        if (!(sub & low_bit)) continue;
        uint32_t other = set ^ sub;
        if (!best_[sub].valid || !best_[other].valid || !(neighbours_[sub] & other)) continue;
        double cost = cardinality_[set] + best_[sub].cost + best_[other].cost;
        if (!best_[set].valid || cost < best_[set].cost) best_[set] = {cost, sub, other, true};
      }
    }
    if (!best_[full].valid) throw InternalError("join order: a connected component has no connected plan");
    return Build(full);
  }

 private:
  struct Entry {
    double cost = 0;
    uint32_t left = 0, right = 0;
    bool valid = false;
  };

  static idx_t LowestBit(uint32_t set) { return static_cast<idx_t>(__builtin_ctz(set)); }

  std::unique_ptr<JoinTree> Build(uint32_t set) {
    const Entry& entry = best_[set];
    if (entry.left == 0) return Leaf(graph_, rels_[LowestBit(set)]);
    return Join(Build(entry.left), Build(entry.right), cardinality_[set]);
  }

  const JoinGraph& graph_;
  const std::vector<idx_t>& rels_;
  std::vector<Entry> best_;
  std::vector<uint32_t> neighbours_;
  std::vector<double> cardinality_;
  std::map<int, double> class_selectivity_;  // scratch: per class, its most selective edge
};

// Greedy operator ordering: merge the connected pair with the smallest result.
std::unique_ptr<JoinTree> Greedy(const JoinGraph& graph, const std::vector<idx_t>& rels) {
  idx_t n = rels.size();
  std::vector<std::unique_ptr<JoinTree>> trees;
  // Between subtrees: the product of the selectivities of the edges linking them.
  std::vector<std::vector<double>> selectivity(n, std::vector<double>(n, 1));
  std::vector<std::vector<bool>> linked(n, std::vector<bool>(n, false));
  for (idx_t i = 0; i < n; i++) {
    trees.push_back(Leaf(graph, rels[i]));
    for (idx_t j = 0; j < n; j++) {
      selectivity[i][j] = graph.selectivity[rels[i]][rels[j]];
      linked[i][j] = graph.connected[rels[i]][rels[j]];
    }
  }
  for (idx_t step = 1; step < n; step++) {
    idx_t best_i = n, best_j = n;
    double best_card = std::numeric_limits<double>::infinity();
    double best_cost = best_card;
    for (idx_t i = 0; i < n; i++) {
      if (!trees[i]) continue;
      for (idx_t j = i + 1; j < n; j++) {
        if (!trees[j] || !linked[i][j]) continue;
        double card = trees[i]->cardinality * trees[j]->cardinality * selectivity[i][j];
        double cost = card + trees[i]->cost + trees[j]->cost;
        if (card < best_card || (card == best_card && cost < best_cost)) {
          best_card = card;
          best_cost = cost;
          best_i = i;
          best_j = j;
        }
      }
    }
    if (best_i == n) throw InternalError("join order: a connected component fell apart in greedy ordering");
    trees[best_i] = Join(std::move(trees[best_i]), std::move(trees[best_j]), best_card);
    for (idx_t k = 0; k < n; k++) {
      selectivity[best_i][k] = selectivity[k][best_i] = selectivity[best_i][k] * selectivity[best_j][k];
      bool link = linked[best_i][k] || linked[best_j][k];
      linked[best_i][k] = linked[k][best_i] = link;
    }
    linked[best_i][best_i] = false;
  }
  for (auto& tree : trees) {
    if (tree) return std::move(tree);
  }
  throw InternalError("join order: empty component");
}

}  // namespace

std::unique_ptr<JoinTree> EnumerateJoinOrder(const JoinGraph& graph) {
  std::vector<std::unique_ptr<JoinTree>> parts;
  for (auto& component : Components(graph)) {
    if (component.size() == 1) {
      parts.push_back(Leaf(graph, component[0]));
    } else if (component.size() <= kExactLimit) {
      parts.push_back(ExactEnumerator(graph, component).Run());
    } else {
      parts.push_back(Greedy(graph, component));
    }
  }
  // Cross products between components, the smallest first (no predicate
  // links them, so the result size is the same in any order; the cost is not).
  std::stable_sort(parts.begin(), parts.end(),
                   [](const std::unique_ptr<JoinTree>& a, const std::unique_ptr<JoinTree>& b) {
                     return a->cardinality < b->cardinality;
                   });
  std::unique_ptr<JoinTree> tree = std::move(parts[0]);
  for (idx_t i = 1; i < parts.size(); i++) {
    double card = tree->cardinality * parts[i]->cardinality;
    tree = Join(std::move(tree), std::move(parts[i]), card);
  }
  return tree;
}

}  // namespace lakestream
