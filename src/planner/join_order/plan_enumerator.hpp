// Join-order enumeration over a join graph: relations with cardinality
// estimates and edges (join predicates between two relations) with
// selectivities. Produces a bushy join tree minimising C_out, the sum of the
// estimated rows of every intermediate join result.
//
// - A connected component of at most kExactLimit relations is planned
//   exactly by dynamic programming over its subsets (DPsub order, 3^n
//   splits): a subset is only built from two connected, disjoint halves
//   linked by an edge (the csg-cmp pairs DPccp enumerates directly), so no
//   plan with a cross product inside a component is ever considered.
// - A larger component is planned greedily (GOO): repeatedly join the two
//   connected subtrees whose join is estimated smallest.
// - Components are finally combined by cross products, smallest first;
//   that is the only place a cross product appears.
// In every join the smaller input is the right child, the hash join's build side.
#pragma once

#include <memory>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

// Exact enumeration up to this many relations per component (3^n steps).
constexpr idx_t kExactLimit = 12;

struct JoinGraph {
  std::vector<double> cardinalities;  // per relation, >= 1
  // selectivity[a][b] (symmetric) of the predicates between a and b; 1 and
  // connected[a][b] false when none joins them.
  std::vector<std::vector<double>> selectivity;
  std::vector<std::vector<bool>> connected;
  // The equivalence class (columns the predicates equate, such as TPC-H's
  // c_nationkey = s_nationkey = n_nationkey) of the edge's predicate, or -1:
  // adding a relation to a set counts only the most selective of its edges
  // in one class, since the others hold once that one does.
  std::vector<std::vector<int>> edge_class;

  explicit JoinGraph(idx_t relations);
  idx_t Size() const { return cardinalities.size(); }
  void AddEdge(idx_t a, idx_t b, double edge_selectivity, int equivalence_class = -1);
};

struct JoinTree {
  idx_t relation = 0;  // leaves only
  std::unique_ptr<JoinTree> left, right;  // both null for a leaf
  double cardinality = 1;
  double cost = 0;  // C_out of this subtree
  bool IsLeaf() const { return !left; }
};

std::unique_ptr<JoinTree> EnumerateJoinOrder(const JoinGraph& graph);

}  // namespace lakestream
