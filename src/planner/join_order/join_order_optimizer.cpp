#include "planner/join_order/join_order_optimizer.hpp"

#include <map>
#include <set>

#include "planner/join_order/cardinality_estimator.hpp"
#include "planner/join_order/plan_enumerator.hpp"

namespace lakestream {

namespace {

bool IsReorderable(const LogicalOperator& op) {
  return op.type == LogicalOperatorType::JOIN &&
         (op.join_type == LogicalJoinType::INNER || op.join_type == LogicalJoinType::CROSS);
}

struct Predicate {
  BoundExprPtr expression;
  std::vector<idx_t> relations;  // sorted; empty when it names none of the graph's relations
  bool outside = false;          // names a table that none of the relations produce
  int equivalence_class = -1;    // a column equality's class (AddImpliedEqualities)
};

// Union-find over the columns that equalities between two relations equate.
class ColumnClasses {
 public:
  ColumnBinding Find(ColumnBinding c) {
    auto it = parent_.find(c);
    if (it == parent_.end() || it->second == c) return c;
    ColumnBinding root = Find(it->second);
    parent_[c] = root;
    return root;
  }
  void Union(ColumnBinding a, ColumnBinding b) {
    parent_.emplace(a, a);
    parent_.emplace(b, b);
    parent_[Find(a)] = Find(b);
  }

 private:
  std::map<ColumnBinding, ColumnBinding> parent_;
};

// Gives the column equalities their classes and adds the equalities they
// imply between relations no equality of the class links yet: from
// c_nationkey = s_nationkey and s_nationkey = n_nationkey (TPC-H Q5), also
// c_nationkey = n_nationkey, so customer may join nation before supplier.
// Redundant where all three meet, and only for columns of one type.
void AddImpliedEqualities(std::vector<Predicate>& predicates, const std::map<idx_t, idx_t>& relation_of_table) {
  ColumnClasses classes;
  for (auto& p : predicates) {
    if (p.outside || p.relations.size() != 2 || !IsColumnEquality(*p.expression)) continue;
    classes.Union(p.expression->children[0]->binding, p.expression->children[1]->binding);
  }
  struct Member {
    const BoundExpression* column;
    idx_t relation;
  };
  std::map<ColumnBinding, std::vector<Member>> members;
  std::map<ColumnBinding, const BoundExpression*> example;  // an equality of the class
  std::map<ColumnBinding, std::set<std::pair<idx_t, idx_t>>> linked;
  std::set<ColumnBinding> seen;
  for (auto& p : predicates) {
    if (p.outside || p.relations.size() != 2 || !IsColumnEquality(*p.expression)) continue;
    ColumnBinding root = classes.Find(p.expression->children[0]->binding);
    example.emplace(root, p.expression.get());
    linked[root].insert({p.relations[0], p.relations[1]});
    for (auto& child : p.expression->children) {
      if (seen.insert(child->binding).second) {
        members[root].push_back({child.get(), relation_of_table.at(child->binding.table_index)});
      }
    }
  }
  std::map<ColumnBinding, int> class_ids;
  for (auto& [root, list] : members) class_ids.emplace(root, static_cast<int>(class_ids.size()));
  for (auto& p : predicates) {
    if (p.outside || p.relations.size() != 2 || !IsColumnEquality(*p.expression)) continue;
    p.equivalence_class = class_ids[classes.Find(p.expression->children[0]->binding)];
  }
  std::vector<Predicate> implied;
  for (auto& [root, list] : members) {
    const BoundExpression& model = *example[root];
    bool same_types = true;
    for (auto& m : list) same_types = same_types && m.column->return_type == model.children[0]->return_type;
    if (list.size() < 3 || !same_types || model.children[1]->return_type != model.children[0]->return_type) continue;
    auto& pairs = linked[root];
    for (idx_t i = 0; i < list.size(); i++) {
      for (idx_t j = i + 1; j < list.size(); j++) {
        idx_t a = std::min(list[i].relation, list[j].relation), b = std::max(list[i].relation, list[j].relation);
        if (a == b || pairs.count({a, b})) continue;
        pairs.insert({a, b});
        Predicate p;
        p.expression = model.Copy();
        p.expression->children[0] = list[i].column->Copy();
        p.expression->children[1] = list[j].column->Copy();
        p.relations = {a, b};
        p.equivalence_class = class_ids[root];
        implied.push_back(std::move(p));
      }
    }
  }
  for (auto& p : implied) predicates.push_back(std::move(p));
}

class JoinOrderOptimizer {
 public:
  LogicalOperatorPtr Optimize(LogicalOperatorPtr op, bool positional) {
    if (IsReorderable(*op) && !positional) return ReorderCluster(std::move(op));
    // Which inputs are read by position: those of a UNION or a set
    // operation; a filter, ORDER BY or LIMIT passes its own reader's way on.
    bool by_position = op->type == LogicalOperatorType::UNION || op->type == LogicalOperatorType::SET_OPERATION ||
                       (positional && (op->type == LogicalOperatorType::FILTER || op->type == LogicalOperatorType::ORDER ||
                                       op->type == LogicalOperatorType::LIMIT || op->type == LogicalOperatorType::JOIN));
    for (auto& child : op->children) child = Optimize(std::move(child), by_position);
    return op;
  }

 private:
  // Splits the inner/cross join tree at `op` into relations (each
  // optimized in turn) and predicates.
  void Flatten(LogicalOperatorPtr op, std::vector<LogicalOperatorPtr>& relations, std::vector<BoundExprPtr>& conjuncts) {
    if (!IsReorderable(*op)) {
      relations.push_back(Optimize(std::move(op), false));
      return;
    }
    for (auto& e : op->expressions) conjuncts.push_back(std::move(e));
    Flatten(std::move(op->children[0]), relations, conjuncts);
    Flatten(std::move(op->children[1]), relations, conjuncts);
  }

  LogicalOperatorPtr ReorderCluster(LogicalOperatorPtr root) {
    std::vector<LogicalOperatorPtr> relations;
    std::vector<BoundExprPtr> conjuncts;
    Flatten(std::move(root), relations, conjuncts);

    std::map<idx_t, idx_t> relation_of_table;
    for (idx_t r = 0; r < relations.size(); r++) {
      for (auto& b : relations[r]->GetBindings()) relation_of_table[b.table_index] = r;
    }
    std::vector<Predicate> predicates;
    std::vector<std::vector<BoundExprPtr>> single(relations.size());
    for (auto& e : conjuncts) {
      std::set<idx_t> tables;
      CollectBindingTables(*e, tables);
      Predicate p;
      std::set<idx_t> rels;
      for (idx_t t : tables) {
        auto it = relation_of_table.find(t);
        if (it == relation_of_table.end()) {
          p.outside = true;
        } else {
          rels.insert(it->second);
        }
      }
      p.relations.assign(rels.begin(), rels.end());
      if (!p.outside && p.relations.size() == 1) {
        single[p.relations[0]].push_back(std::move(e));
        continue;
      }
      p.expression = std::move(e);
      predicates.push_back(std::move(p));
    }
    // A conjunct on one relation filters it before any join (pushdown leaves
    // none, but a plan built elsewhere may).
    for (idx_t r = 0; r < relations.size(); r++) {
      if (single[r].empty()) continue;
      auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
      filter->expressions = std::move(single[r]);
      filter->children.push_back(std::move(relations[r]));
      relations[r] = std::move(filter);
    }

    AddImpliedEqualities(predicates, relation_of_table);
    JoinGraph graph(relations.size());
    std::vector<RelationEstimate> estimates;
    for (idx_t r = 0; r < relations.size(); r++) {
      estimates.push_back(EstimateRelation(*relations[r]));
      graph.cardinalities[r] = estimates.back().cardinality;
    }
    for (auto& p : predicates) {
      // Only predicates between exactly two relations are edges; one over
      // three or more is applied where all of them have been joined.
      if (p.outside || p.relations.size() != 2) continue;
      idx_t a = p.relations[0], b = p.relations[1];
      graph.AddEdge(a, b, JoinSelectivity(*p.expression, estimates[a], estimates[b]), p.equivalence_class);
    }
    auto tree = EnumerateJoinOrder(graph);
    std::vector<bool> covered;
    auto plan = Build(*tree, relations, predicates, covered);
    // Conjuncts naming no relation (constants, outer references) go on the top join.
    for (auto& p : predicates) {
      if (p.expression) plan->expressions.push_back(std::move(p.expression));
    }
    if (plan->type == LogicalOperatorType::JOIN && !plan->expressions.empty()) plan->join_type = LogicalJoinType::INNER;
    return plan;
  }

  // The plan of `tree`; `covered` becomes the relations it holds. Every
  // predicate whose relations it holds, and that no subtree took, goes here.
  LogicalOperatorPtr Build(const JoinTree& tree, std::vector<LogicalOperatorPtr>& relations,
                           std::vector<Predicate>& predicates, std::vector<bool>& covered) {
    if (tree.IsLeaf()) {
      covered.assign(relations.size(), false);
      covered[tree.relation] = true;
      return std::move(relations[tree.relation]);
    }
    std::vector<bool> right_covered;
    auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
    join->children.push_back(Build(*tree.left, relations, predicates, covered));
    join->children.push_back(Build(*tree.right, relations, predicates, right_covered));
    for (idx_t r = 0; r < covered.size(); r++) covered[r] = covered[r] || right_covered[r];
    for (auto& p : predicates) {
      if (!p.expression || p.outside || p.relations.empty()) continue;
      bool all = true;
      for (idx_t r : p.relations) all = all && covered[r];
      if (all) join->expressions.push_back(std::move(p.expression));
    }
    join->join_type = join->expressions.empty() ? LogicalJoinType::CROSS : LogicalJoinType::INNER;
    return join;
  }
};

}  // namespace

LogicalOperatorPtr ReorderJoins(LogicalOperatorPtr plan) {
  JoinOrderOptimizer optimizer;
  return optimizer.Optimize(std::move(plan), true);
}

}  // namespace lakestream
