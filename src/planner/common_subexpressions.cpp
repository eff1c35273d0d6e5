#include "planner/common_subexpressions.hpp"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/vector_operations.hpp"
#include "expression/repeatable.hpp"

namespace lakestream {

namespace {

// Whether child `i` of `e` is evaluated on every row `e` is (see the header
// for the positions that are not).
bool EvaluatedOnEveryRow(const BoundExpression& e, idx_t i) {
  switch (e.type) {
    case BoundExpressionType::CASE:
    case BoundExpressionType::AND:
    case BoundExpressionType::OR:
    case BoundExpressionType::IN_LIST: return i == 0;
    case BoundExpressionType::FUNCTION: return i == 0 || e.function.evaluation == ArgumentEvaluation::ALL;
    case BoundExpressionType::SUBQUERY: return false;
    default: return true;
  }
}

// The expressions of one operator, each with whether the operator evaluates
// it on every input row.
std::vector<std::pair<BoundExprPtr*, bool>> OperatorExpressions(LogicalOperator& op) {
  std::vector<std::pair<BoundExprPtr*, bool>> all;
  for (auto& e : op.expressions) all.emplace_back(&e, true);
  for (auto& a : op.aggregates) {
    for (BoundExprPtr* e : a.Expressions()) all.emplace_back(e, !(a.filter && e == &a.argument));
  }
  return all;
}

// Finds the expressions an operator evaluates more than once per row and
// replaces them with columns of a projection.
class Eliminator {
 public:
  // Counts the occurrences of every subexpression of `e` (bottom-up, so
  // each node's hash and repeatability come from its children's); only
  // nodes evaluated on every row (`counted`) are recorded.
  std::pair<uint64_t, bool> Count(const BoundExpression& e, bool counted) {
    uint64_t hash = MixHash((static_cast<uint64_t>(e.type) << 8) ^ static_cast<uint64_t>(e.return_type.id()));
    bool repeatable = e.type != BoundExpressionType::SUBQUERY &&
                      !(e.type == BoundExpressionType::FUNCTION && !e.function.deterministic);
    switch (e.type) {
      case BoundExpressionType::COLUMN_REF:
        hash = MixHash(hash ^ (e.binding.table_index * 0x9e3779b97f4a7c15ULL) ^ e.binding.column_index);
        break;
      case BoundExpressionType::CONSTANT: hash = MixHash(hash ^ std::hash<std::string>()(e.value.ToString())); break;
      case BoundExpressionType::FUNCTION: hash = MixHash(hash ^ std::hash<std::string>()(e.function.name)); break;
      default: break;
    }
    for (idx_t i = 0; i < e.children.size(); i++) {
      auto [child_hash, child_repeatable] = Count(*e.children[i], counted && EvaluatedOnEveryRow(e, i));
      hash = MixHash(hash * 31 + child_hash);
      repeatable = repeatable && child_repeatable;
    }
    bool worth = e.type != BoundExpressionType::COLUMN_REF && e.type != BoundExpressionType::CONSTANT;
    if (counted && worth && repeatable) Record(e, hash);
    return {hash, repeatable};
  }

  bool AnyRepeated() const {
    for (auto& g : groups_) {
      if (g.count > 1) return true;
    }
    return false;
  }

  // Replaces, top-down, each recorded expression occurring more than once
  // by a column of the projection (table `projection_index`); the first
  // occurrence moves into `hoisted`.
  void Rewrite(BoundExprPtr& e, idx_t projection_index, std::vector<BoundExprPtr>& hoisted) {
    auto found = group_of_.find(e.get());
    if (found != group_of_.end() && groups_[found->second].count > 1) {
      Group& group = groups_[found->second];
      if (group.column == kNone) {
        group.column = hoisted.size();
        hoisted.push_back(nullptr);
        LogicalType type = e->return_type;
        std::string name = e->ToString();
        hoisted.back() = std::move(e);
        e = MakeBindingRef({projection_index, group.column}, std::move(type), std::move(name));
      } else {
        e = MakeBindingRef({projection_index, group.column}, e->return_type, e->ToString());
      }
      return;
    }
    for (idx_t i = 0; i < e->children.size(); i++) {
      if (EvaluatedOnEveryRow(*e, i)) Rewrite(e->children[i], projection_index, hoisted);
    }
  }

 private:
  static constexpr idx_t kNone = static_cast<idx_t>(-1);
  struct Group {
    const BoundExpression* first;
    idx_t count;
    idx_t column;  // in the projection, once hoisted
  };

  void Record(const BoundExpression& e, uint64_t hash) {
    auto& candidates = by_hash_[hash];
    for (idx_t g : candidates) {
      if (groups_[g].first->Equals(e)) {
        groups_[g].count++;
        group_of_[&e] = g;
        return;
      }
    }
    candidates.push_back(groups_.size());
    group_of_[&e] = groups_.size();
    groups_.push_back(Group{&e, 1, kNone});
  }

  std::vector<Group> groups_;
  std::unordered_map<uint64_t, std::vector<idx_t>> by_hash_;
  std::unordered_map<const BoundExpression*, idx_t> group_of_;
};

// Whether every column `op` reads is one of its only child's.
bool ReadsOnlyChild(LogicalOperator& op) {
  if (op.children.size() != 1) return false;
  auto bindings = op.children[0]->GetBindings();
  std::set<ColumnBinding> child(bindings.begin(), bindings.end());
  bool only = true;
  for (auto& [e, every_row] : OperatorExpressions(op)) {
    VisitColumnRefs(**e, [&](BoundExpression& ref) { only = only && child.count(ref.binding) > 0; });
  }
  return only;
}

void Eliminate(LogicalOperator& op, idx_t& next_table_index) {
  if (op.type != LogicalOperatorType::PROJECTION && op.type != LogicalOperatorType::AGGREGATE) return;
  if (!ReadsOnlyChild(op)) return;
  Eliminator eliminator;
  auto expressions = OperatorExpressions(op);
  for (auto& [e, every_row] : expressions) eliminator.Count(**e, every_row);
  if (!eliminator.AnyRepeated()) return;
  idx_t projection_index = next_table_index++;
  std::vector<BoundExprPtr> columns;
  for (auto& [e, every_row] : expressions) {
    if (every_row) eliminator.Rewrite(*e, projection_index, columns);
  }
  // The child's columns the operator still reads pass through the projection.
  std::map<ColumnBinding, idx_t> passed;
  for (auto& [e, every_row] : expressions) {
    VisitColumnRefs(**e, [&](BoundExpression& ref) {
      if (ref.binding.table_index == projection_index) return;
      auto it = passed.find(ref.binding);
      if (it == passed.end()) {
        it = passed.emplace(ref.binding, columns.size()).first;
        columns.push_back(MakeBindingRef(ref.binding, ref.return_type, ref.name));
      }
      ref.binding = {projection_index, it->second};
    });
  }
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = projection_index;
  projection->expressions = std::move(columns);
  projection->children.push_back(std::move(op.children[0]));
  op.children[0] = std::move(projection);
}

}  // namespace

void EliminateCommonSubexpressions(LogicalOperator& plan, idx_t& next_table_index) {
  for (auto& child : plan.children) EliminateCommonSubexpressions(*child, next_table_index);
  Eliminate(plan, next_table_index);
}

}  // namespace lakestream
