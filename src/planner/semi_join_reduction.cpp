#include "planner/semi_join_reduction.hpp"

#include <limits>
#include <map>
#include <set>

#include "expression/repeatable.hpp"
#include "planner/join_order/cardinality_estimator.hpp"
#include "planner/subquery/flatten_dependent_join.hpp"

namespace lakestream {

namespace {

std::set<idx_t> TablesOf(const LogicalOperator& op) {
  std::set<idx_t> tables;
  for (auto& b : op.GetBindings()) tables.insert(b.table_index);
  return tables;
}

bool SubsetOf(const std::set<idx_t>& a, const std::set<idx_t>& b) {
  for (idx_t x : a) {
    if (!b.count(x)) return false;
  }
  return true;
}

bool IsInnerJoin(const LogicalOperator& op) {
  return op.type == LogicalOperatorType::JOIN &&
         (op.join_type == LogicalJoinType::INNER || op.join_type == LogicalJoinType::CROSS);
}

// Joins whose output is their left input's rows, each at most once or
// padded: a filter on left columns commutes with them.
bool KeepsLeftRows(const LogicalOperator& op) {
  return op.type == LogicalOperatorType::JOIN &&
         (op.join_type == LogicalJoinType::LEFT || op.join_type == LogicalJoinType::SINGLE ||
          op.join_type == LogicalJoinType::SEMI || op.join_type == LogicalJoinType::ANTI ||
          op.join_type == LogicalJoinType::MARK);
}

// Rewrites `bindings` (output columns of op) into the columns of the child
// they come from, and returns that child, or -1 when op's output columns
// are not plain columns of one child. `through_limit`: also through LIMIT,
// whose output keys are a subset of its input's (for the reducer's source;
// a filter cannot move below a LIMIT).
int Descend(const LogicalOperator& op, std::vector<ColumnBinding>& bindings, bool through_limit) {
  switch (op.type) {
    case LogicalOperatorType::FILTER:
    case LogicalOperatorType::ORDER: return 0;
    case LogicalOperatorType::LIMIT: return through_limit ? 0 : -1;
    case LogicalOperatorType::PROJECTION:
    case LogicalOperatorType::AGGREGATE: {
      if (op.type == LogicalOperatorType::AGGREGATE && !op.grouping_sets.empty()) return -1;
      // A projection's outputs, or an aggregate's group columns: a filter on
      // a group key filters the groups' input rows the same way.
      std::vector<ColumnBinding> below;  // `bindings` changes only when all map
      for (auto& b : bindings) {
        if (b.table_index != op.table_index || b.column_index >= op.expressions.size()) return -1;
        const auto& e = *op.expressions[b.column_index];
        if (e.type != BoundExpressionType::COLUMN_REF) return -1;
        below.push_back(e.binding);
      }
      bindings = std::move(below);
      return 0;
    }
    case LogicalOperatorType::JOIN: {
      std::set<idx_t> tables;
      for (auto& b : bindings) tables.insert(b.table_index);
      if (SubsetOf(tables, TablesOf(*op.children[0]))) return IsInnerJoin(op) || KeepsLeftRows(op) ? 0 : -1;
      if (IsInnerJoin(op) && SubsetOf(tables, TablesOf(*op.children[1]))) return 1;
      return -1;
    }
    default: return -1;
  }
}

// A plan that gives the same rows each time it runs, cheap to plan again.
bool Repeatable(const LogicalOperator& op, const std::set<const LogicalOperator*>& reducers) {
  if (reducers.count(&op)) return false;  // no copy of a copy
  switch (op.type) {
    case LogicalOperatorType::GET:
    case LogicalOperatorType::FILTER:
    case LogicalOperatorType::PROJECTION:
    case LogicalOperatorType::JOIN:
    case LogicalOperatorType::ORDER: break;
    default: return false;
  }
  for (auto* list : {&op.expressions, &op.table_filters}) {
    for (auto& e : *list) {
      if (e && !IsRepeatable(*e)) return false;
    }
  }
  if (op.mark_condition && !IsRepeatable(*op.mark_condition)) return false;
  for (auto& o : op.orders) {
    if (!IsRepeatable(*o.expression)) return false;
  }
  for (auto& c : op.children) {
    if (!Repeatable(*c, reducers)) return false;
  }
  return true;
}

// Rows the plan's scans read before their filters.
double ScannedRows(const LogicalOperator& op) {
  if (op.children.empty()) return EstimateRelation(op).domain;
  double rows = 0;
  for (auto& c : op.children) rows += ScannedRows(*c);
  return rows;
}

void MaxTableIndex(const BoundExpression& e, idx_t& max) {
  if (e.type == BoundExpressionType::COLUMN_REF) max = std::max(max, e.binding.table_index);
  for (auto& c : e.children) MaxTableIndex(*c, max);
}

void MaxTableIndex(LogicalOperator& op, idx_t& max) {
  max = std::max(max, op.table_index);
  if (op.type == LogicalOperatorType::AGGREGATE) max = std::max(max, op.aggregate_index);
  for (auto& b : op.GetBindings()) max = std::max(max, b.table_index);
  VisitOperatorExpressions(op, [&](BoundExprPtr& e) { MaxTableIndex(*e, max); });
  for (auto& c : op.children) MaxTableIndex(*c, max);
}

bool IsColumn(const BoundExpression& e) { return e.type == BoundExpressionType::COLUMN_REF; }

class Reducer {
 public:
  explicit Reducer(idx_t next_index) : next_index_(next_index) {}

  void Visit(LogicalOperator& op) {
    for (auto& c : op.children) Visit(*c);
    if (op.type == LogicalOperatorType::JOIN &&
        (op.join_type == LogicalJoinType::SEMI || op.join_type == LogicalJoinType::ANTI ||
         op.join_type == LogicalJoinType::LEFT || op.join_type == LogicalJoinType::SINGLE)) {
      Reduce(op);
    }
  }

 private:
  struct Key {
    const BoundExpression* condition;  // left column = right column (or IS NOT DISTINCT FROM)
    idx_t left_child;                  // which of its children is the left side's column
  };

  void Reduce(LogicalOperator& join) {
    auto left_tables = TablesOf(*join.children[0]);
    auto right_tables = TablesOf(*join.children[1]);
    std::vector<Key> keys;
    std::vector<ColumnBinding> left_columns, right_columns;
    for (auto& e : join.expressions) {
      bool equality = e->type == BoundExpressionType::FUNCTION && e->children.size() == 2 &&
                      (e->function.name == "=" || e->function.name == "is_not_distinct_from");
      if (!equality || !IsColumn(*e->children[0]) || !IsColumn(*e->children[1])) continue;
      for (idx_t side = 0; side < 2; side++) {
        const auto& l = e->children[side]->binding;
        const auto& r = e->children[1 - side]->binding;
        if (left_tables.count(l.table_index) && right_tables.count(r.table_index)) {
          keys.push_back({e.get(), side});
          left_columns.push_back(l);
          right_columns.push_back(r);
          break;
        }
      }
    }
    if (keys.empty()) return;

    // The source: the smallest repeatable subtree of the left side holding
    // all its key columns (the deepest of equal estimates: less to run again).
    const LogicalOperator* source = nullptr;
    std::vector<ColumnBinding> source_columns;
    double source_rows = std::numeric_limits<double>::infinity();
    const LogicalOperator* node = join.children[0].get();
    std::vector<ColumnBinding> columns = left_columns;
    while (true) {
      if (Repeatable(*node, reducers_)) {
        double rows = EstimateRelation(*node).cardinality;
        if (rows <= source_rows) {
          source = node;
          source_rows = rows;
          source_columns = columns;
        }
      }
      int child = Descend(*node, columns, true);
      if (child < 0) break;
      node = node->children[child].get();
    }
    if (!source) return;

    // The target: as far down the right side as its key columns stay plain columns.
    LogicalOperatorPtr* target = &join.children[1];
    columns = right_columns;
    while (true) {
      int child = Descend(**target, columns, false);
      if (child < 0) break;
      target = &(*target)->children[child];
    }
    // An unfiltered table holds every key a foreign key names (TPC-H Q18's
    // orders for lineitem): only a source its filters or joins shrank reduces.
    if (source_rows * kReductionRatio > std::min(EstimateRelation(**target).cardinality, ScannedRows(*source))) return;
    if (ScannedRows(*source) > kCopyReadRatio * ScannedRows(**target)) return;

    std::map<idx_t, idx_t> renumber;
    auto copy = CopyWithFreshTables(*source, [this] { return next_index_++; }, renumber);
    auto semi = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
    semi->join_type = LogicalJoinType::SEMI;
    for (idx_t i = 0; i < keys.size(); i++) {
      auto condition = keys[i].condition->Copy();
      condition->children[1 - keys[i].left_child]->binding = columns[i];
      ColumnBinding copied = source_columns[i];
      copied.table_index = renumber.at(copied.table_index);
      condition->children[keys[i].left_child]->binding = copied;
      semi->expressions.push_back(std::move(condition));
    }
    semi->children.push_back(std::move(*target));
    semi->children.push_back(std::move(copy));
    reducers_.insert(semi.get());
    *target = std::move(semi);
  }

  idx_t next_index_;
  std::set<const LogicalOperator*> reducers_;
};

}  // namespace

LogicalOperatorPtr PushSemiJoins(LogicalOperatorPtr op) {
  for (auto& c : op->children) c = PushSemiJoins(std::move(c));
  if (op->type != LogicalOperatorType::JOIN ||
      (op->join_type != LogicalJoinType::SEMI && op->join_type != LogicalJoinType::ANTI) ||
      !IsInnerJoin(*op->children[0])) {
    return op;
  }
  std::set<idx_t> read;
  for (auto& e : op->expressions) CollectBindingTables(*e, read);
  if (op->mark_condition) CollectBindingTables(*op->mark_condition, read);
  for (idx_t t : TablesOf(*op->children[1])) read.erase(t);
  if (read.empty()) return op;  // a condition on the right side alone: nowhere better
  auto& inner = op->children[0];
  double joined = EstimateRelation(*inner).cardinality;
  for (idx_t side = 0; side < 2; side++) {
    if (!SubsetOf(read, TablesOf(*inner->children[side]))) continue;
    // Not below a join that filters that side (TPC-H Q21's EXISTS on
    // lineitem stays above its join with one nation's suppliers): the semi
    // join would probe more rows, and filter what the join drops anyway.
    if (EstimateRelation(*inner->children[side]).cardinality > joined) return op;
    auto join = std::move(inner);
    op->children[0] = std::move(join->children[side]);
    join->children[side] = PushSemiJoins(std::move(op));
    return join;
  }
  return op;
}

void ReduceBuildSides(LogicalOperator& plan) {
  idx_t max = 0;
  MaxTableIndex(plan, max);
  Reducer reducer(max + 1);
  reducer.Visit(plan);
}

}  // namespace lakestream
