#include "planner/semi_join_reduction.hpp"

#include <limits>
#include <map>
#include <utility>
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
    ReducerShare* share = nullptr;
    for (auto& s : shares_) {
      if (s.source == source) share = &s;
    }
    if (!share) share = &shares_.emplace_back(ReducerShare{source, {}});
    share->copies.push_back({copy.get(), std::move(renumber)});
    semi->children.push_back(std::move(copy));
    reducers_.insert(semi.get());
    *target = std::move(semi);
  }

 public:
  idx_t next_index_;
  std::set<const LogicalOperator*> reducers_;
  std::vector<ReducerShare> shares_;
};

bool Contains(const LogicalOperator& tree, const LogicalOperator* node) {
  if (&tree == node) return true;
  for (auto& c : tree.children) {
    if (Contains(*c, node)) return true;
  }
  return false;
}

void RewriteBindings(LogicalOperator& op, const std::map<ColumnBinding, ColumnBinding>& moved) {
  VisitOperatorExpressions(op, [&](BoundExprPtr& e) {
    VisitColumnRefs(*e, [&](BoundExpression& ref) {
      auto it = moved.find(ref.binding);
      if (it != moved.end()) ref.binding = it->second;
    });
  });
  for (auto& c : op.children) RewriteBindings(*c, moved);
}

// `op` becomes a reader of `shared`, its columns {table_index, 0..}.
void ReadShared(LogicalOperator& op, const std::shared_ptr<MaterializedCTE>& shared, idx_t table_index) {
  op = LogicalOperator(LogicalOperatorType::CHUNK_GET);
  op.table_index = table_index;
  op.collection = shared->rows;
  op.materialized = shared;
}

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

ReducedBuildSides ReduceBuildSides(LogicalOperator& plan) {
  idx_t max = 0;
  MaxTableIndex(plan, max);
  Reducer reducer(max + 1);
  reducer.Visit(plan);
  return {std::move(reducer.shares_), reducer.next_index_};
}

// The name some column reference of `op` gives each binding (for EXPLAIN).
void CollectNames(LogicalOperator& op, std::map<ColumnBinding, std::string>& names) {
  VisitOperatorExpressions(op, [&](BoundExprPtr& e) {
    VisitColumnRefs(*e, [&](BoundExpression& ref) {
      if (!ref.name.empty()) names.emplace(ref.binding, ref.name);
    });
  });
  for (auto& c : op.children) CollectNames(*c, names);
}

void ShareReducerSources(LogicalOperator& plan, ReducedBuildSides& reduced, const ReferenceCounter& references,
                         const std::function<void(LogicalOperator&)>& finish) {
  std::map<ColumnBinding, ColumnBinding> moved;
  idx_t number = 0;
  auto total = references(plan);
  for (auto& b : plan.GetBindings()) total[b]++;
  std::map<ColumnBinding, std::string> names;
  CollectNames(plan, names);
  // A column is read above `node` when the plan reads it more often than node's subtree does.
  auto read_above = [&](LogicalOperator& node, const ColumnBinding& b) {
    auto inner = references(node);
    auto it = total.find(b);
    auto mine = inner.find(b);
    return it != total.end() && it->second > (mine == inner.end() ? 0 : mine->second);
  };
  for (auto& share : reduced.shares) {
    // A source inside another's (or around it) keeps its copies: sharing
    // one would change the other's subtree under it.
    bool nested = false;
    for (auto& other : reduced.shares) {
      nested = nested || (&other != &share && (Contains(*other.source, share.source) || Contains(*share.source, other.source)));
    }
    auto* source = const_cast<LogicalOperator*>(share.source);
    // Only the columns read above the relation or a copy of it are kept.
    std::vector<ColumnBinding> bindings;
    std::vector<LogicalType> types;
    auto all_bindings = source->GetBindings();
    auto all_types = source->GetTypes();
    for (idx_t i = 0; i < all_bindings.size(); i++) {
      const ColumnBinding& b = all_bindings[i];
      bool read = read_above(*source, b);
      for (auto& [copy, renumber] : share.copies) {
        read = read || read_above(*copy, {renumber.at(b.table_index), b.column_index});
      }
      if (!read) continue;
      bindings.push_back(b);
      types.push_back(all_types[i]);
    }
    if (nested || bindings.empty()) continue;
    auto shared = std::make_shared<MaterializedCTE>();
    shared->name = "shared #" + std::to_string(++number);
    shared->optimized = true;
    shared->rows = std::make_shared<ChunkCollection>(types);
    // A projection fixes the rows' column order (bindings' order).
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    projection->table_index = reduced.next_index++;
    for (idx_t i = 0; i < bindings.size(); i++) {
      auto name = names.find(bindings[i]);
      projection->expressions.push_back(MakeBindingRef(bindings[i], types[i], name == names.end() ? "" : name->second));
    }
    projection->children.push_back(std::make_unique<LogicalOperator>(std::move(*source)));
    shared->plan = std::move(projection);
    finish(*shared->plan);

    idx_t reader = reduced.next_index++;
    for (idx_t i = 0; i < bindings.size(); i++) moved[bindings[i]] = {reader, i};
    ReadShared(*source, shared, reader);
    for (auto& [copy, renumber] : share.copies) {
      reader = reduced.next_index++;
      for (idx_t i = 0; i < bindings.size(); i++) moved[{renumber.at(bindings[i].table_index), bindings[i].column_index}] = {reader, i};
      ReadShared(*copy, shared, reader);
    }
  }
  if (!moved.empty()) RewriteBindings(plan, moved);
}

}  // namespace lakestream
