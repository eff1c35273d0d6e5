#include "planner/semi_join_reduction.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>
#include <set>

#include "expression/repeatable.hpp"
#include "planner/join_order/cardinality_estimator.hpp"
#include "planner/subquery/flatten_dependent_join.hpp"

namespace lakestream {

namespace {

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

void VisitPlanColumnRefs(LogicalOperator& op, const std::function<void(BoundExpression&)>& fn) {
  VisitOperatorExpressions(op, [&](BoundExprPtr& e) { VisitColumnRefs(*e, fn); });
  for (auto& c : op.children) VisitPlanColumnRefs(*c, fn);
}

void RewriteBindings(LogicalOperator& op, const std::map<ColumnBinding, ColumnBinding>& moved) {
  VisitPlanColumnRefs(op, [&](BoundExpression& ref) {
    auto it = moved.find(ref.binding);
    if (it != moved.end()) ref.binding = it->second;
  });
}

LogicalOperator* FindGet(LogicalOperator& op, idx_t table_index) {
  if (op.type == LogicalOperatorType::GET && op.table_index == table_index) return &op;
  for (auto& c : op.children) {
    if (auto* found = FindGet(*c, table_index)) return found;
  }
  return nullptr;
}

class Reducer {
 public:
  explicit Reducer(idx_t next_index) : next_index_(next_index) {}

  void VisitRoot(LogicalOperator& root) {
    root_ = &root;
    Visit(root);
  }

  // The relations to share and their copies; the first unused table index.
  ReducedBuildSides Result() { return {std::move(shares_), next_index_}; }

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
    std::map<const LogicalOperator*, LogicalOperator*> parent_on_path;
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
      parent_on_path[node->children[child].get()] = const_cast<LogicalOperator*>(node);
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
    auto parent = parent_on_path.find(source);
    if (parent != parent_on_path.end() && ReuseOuterJoin(join, *parent->second, source, *target, keys, columns, source_columns)) {
      return;
    }

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
    ShareOf(source).copies.push_back({copy.get(), std::move(renumber)});
    semi->children.push_back(std::move(copy));
    reducers_.insert(semi.get());
    *target = std::move(semi);
  }

  idx_t next_index_;
  std::set<const LogicalOperator*> reducers_;
  std::vector<ReducerShare> shares_;
  LogicalOperator* root_ = nullptr;

  ReducerShare& ShareOf(const LogicalOperator* source) {
    for (auto& s : shares_) {
      if (s.source == source) return s;
    }
    return shares_.emplace_back(ReducerShare{source, {}});
  }

  // When the left side joins the source, on exactly the reducer's keys, with
  // a scan of the target's table under the target's filters (TPC-H Q17:
  // lineitem JOIN part outside, lineitem SEMI part inside), `target SEMI
  // source` is that join's rows of the scan, each once. The target becomes
  // a GROUP BY row id (and the columns read) over a copy of that join, which
  // ShareReducerSources turns into a second read of it: the target's table
  // is scanned and probed once instead of twice.
  bool ReuseOuterJoin(LogicalOperator& join, LogicalOperator& joined, const LogicalOperator* source,
                      LogicalOperatorPtr& target, const std::vector<Key>& keys,
                      const std::vector<ColumnBinding>& target_columns, const std::vector<ColumnBinding>& source_columns) {
    if (joined.type != LogicalOperatorType::JOIN || joined.join_type != LogicalJoinType::INNER || joined.residual ||
        joined.expressions.size() != keys.size() || !Repeatable(joined, reducers_)) {
      return false;
    }
    LogicalOperator& scan = *joined.children[joined.children[0].get() == source ? 1 : 0];
    LogicalOperator& get = *target;
    if (scan.type != LogicalOperatorType::GET || get.type != LogicalOperatorType::GET || scan.storage != get.storage ||
        scan.emit_row_ids || get.emit_row_ids || scan.table_filters.size() != get.table_filters.size()) {
      return false;
    }
    // The same filters, each once (the target's read as the scan's columns).
    std::vector<bool> matched(scan.table_filters.size(), false);
    for (auto& f : get.table_filters) {
      auto renamed = f->Copy();
      VisitColumnRefs(*renamed, [&](BoundExpression& ref) { ref.binding.table_index = scan.table_index; });
      bool found = false;
      for (idx_t i = 0; i < matched.size() && !found; i++) {
        found = !matched[i] && scan.table_filters[i]->Equals(*renamed);
        if (found) matched[i] = true;
      }
      if (!found) return false;
    }
    // The join's conditions are the reducer's keys: scan column = source column.
    std::set<std::pair<ColumnBinding, ColumnBinding>> wanted, found;
    for (idx_t i = 0; i < keys.size(); i++) {
      if (keys[i].condition->function.name != "=" || target_columns[i].table_index != get.table_index) return false;
      wanted.insert({{scan.table_index, target_columns[i].column_index}, source_columns[i]});
    }
    for (auto& e : joined.expressions) {
      if (e->type != BoundExpressionType::FUNCTION || e->function.name != "=" || e->children.size() != 2 ||
          !IsColumn(*e->children[0]) || !IsColumn(*e->children[1])) {
        return false;
      }
      auto a = e->children[0]->binding, b = e->children[1]->binding;
      found.insert(a.table_index == scan.table_index ? std::make_pair(a, b) : std::make_pair(b, a));
    }
    if (found != wanted) return false;
    // Held in memory whole: only a join much smaller than the target.
    if (EstimateRelation(joined).cardinality * kReductionRatio > EstimateRelation(get).cardinality) return false;

    scan.emit_row_ids = true;
    for (idx_t c : get.column_ids) {
      if (std::find(scan.column_ids.begin(), scan.column_ids.end(), c) == scan.column_ids.end()) scan.column_ids.push_back(c);
    }
    std::map<idx_t, idx_t> renumber;
    auto copy = CopyWithFreshTables(joined, [this] { return next_index_++; }, renumber);
    idx_t copied_scan = renumber.at(scan.table_index);
    auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
    distinct->table_index = next_index_++;
    distinct->aggregate_index = next_index_++;
    distinct->expressions.push_back(MakeBindingRef({copied_scan, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
    // Grouped by the row id and the target's columns the plan reads (above
    // the join too: a LEFT join outputs them).
    std::map<idx_t, std::string> read;  // column: its name
    VisitPlanColumnRefs(*root_, [&](BoundExpression& ref) {
      if (ref.binding.table_index == get.table_index) read.emplace(ref.binding.column_index, ref.name);
    });
    std::map<ColumnBinding, ColumnBinding> moved;
    auto types = get.GetTypes();
    for (idx_t i = 0; i < get.column_ids.size(); i++) {
      if (!read.count(get.column_ids[i])) continue;
      moved[{get.table_index, get.column_ids[i]}] = {distinct->table_index, distinct->expressions.size()};
      distinct->expressions.push_back(MakeBindingRef({copied_scan, get.column_ids[i]}, types[i], read[get.column_ids[i]]));
    }
    ShareOf(&joined).copies.push_back({copy.get(), std::move(renumber)});
    distinct->children.push_back(std::move(copy));
    reducers_.insert(distinct.get());
    target = std::move(distinct);
    RewriteBindings(*root_, moved);
    return true;
  }
};

bool Contains(const LogicalOperator& tree, const LogicalOperator* node) {
  if (&tree == node) return true;
  for (auto& c : tree.children) {
    if (Contains(*c, node)) return true;
  }
  return false;
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
  reducer.VisitRoot(plan);
  return reducer.Result();
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
  // The shared plans made, each with the columns of its relation.
  std::vector<std::pair<LogicalOperator*, std::vector<ColumnBinding>>> plans;
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
  // A source inside another's keeps its copies (it moves into the other's
  // plan); known before any source moves.
  std::set<const LogicalOperator*> inside;
  for (auto& share : reduced.shares) {
    for (auto& other : reduced.shares) {
      if (&other != &share && Contains(*other.source, share.source)) inside.insert(share.source);
    }
  }
  for (auto& share : reduced.shares) {
    if (inside.count(share.source)) continue;
    auto* source = const_cast<LogicalOperator*>(share.source);
    // A column a copy's readers need that the relation's own readers did
    // not (pruned from its scan): read again.
    for (auto& [copy, renumber] : share.copies) {
      std::map<idx_t, idx_t> original;
      for (auto& [from, to] : renumber) original[to] = from;
      for (auto& b : copy->GetBindings()) {
        auto table = original.find(b.table_index);
        if (table == original.end() || b.column_index == ROW_ID_COLUMN || !read_above(*copy, b)) continue;
        LogicalOperator* get = FindGet(*source, table->second);
        if (get && std::find(get->column_ids.begin(), get->column_ids.end(), b.column_index) == get->column_ids.end()) {
          get->column_ids.push_back(b.column_index);
        }
      }
    }
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
    if (bindings.empty()) continue;
    auto shared = std::make_shared<MaterializedCTE>();
    shared->name = "shared #" + std::to_string(++number);
    shared->optimized = true;
    shared->rows = std::make_shared<ChunkCollection>(types);
    // A projection fixes the rows' column order (bindings' order).
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
    projection->table_index = reduced.next_index++;
    for (idx_t i = 0; i < bindings.size(); i++) {
      auto name = names.find(bindings[i]);
      projection->expressions.push_back(MakeBindingRef(
          bindings[i], types[i], name != names.end() ? name->second : bindings[i].column_index == ROW_ID_COLUMN ? "rowid" : ""));
    }
    projection->children.push_back(std::make_unique<LogicalOperator>(std::move(*source)));
    shared->plan = std::move(projection);
    plans.push_back({shared->plan.get(), bindings});

    idx_t reader = reduced.next_index++;
    for (idx_t i = 0; i < bindings.size(); i++) moved[bindings[i]] = {reader, i};
    ReadShared(*source, shared, reader);
    for (auto& [copy, renumber] : share.copies) {
      reader = reduced.next_index++;
      for (idx_t i = 0; i < bindings.size(); i++) moved[{renumber.at(bindings[i].table_index), bindings[i].column_index}] = {reader, i};
      ReadShared(*copy, shared, reader);
    }
  }
  // A copy can sit in another relation's plan (TPC-H Q20: the reducer of
  // the IN's build side is inside the relation of the reducer below it):
  // every plan is renamed, and only then prepared.
  RewriteBindings(plan, moved);
  for (auto& [shared, own] : plans) {
    auto renamed = moved;  // its own relation's columns stay what they are
    for (auto& b : own) renamed.erase(b);
    RewriteBindings(*shared, renamed);
    finish(*shared);
  }
}

}  // namespace lakestream
