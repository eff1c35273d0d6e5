#include "execution/physical_planner.hpp"

#include <set>

#include "common/exception.hpp"
#include "execution/operator/physical_filter.hpp"
#include "expression/repeatable.hpp"
#include "execution/operator/physical_hash_aggregate.hpp"
#include "execution/operator/physical_hash_join.hpp"
#include "execution/operator/physical_limit.hpp"
#include "execution/operator/physical_nested_loop_join.hpp"
#include "execution/operator/physical_order.hpp"
#include "execution/operator/physical_projection.hpp"
#include "execution/operator/physical_recursive_cte.hpp"
#include "execution/operator/physical_set_operation.hpp"
#include "execution/operator/physical_shared_scan.hpp"
#include "execution/operator/physical_table_function_scan.hpp"
#include "execution/operator/physical_table_scan.hpp"
#include "execution/operator/physical_top_n_window.hpp"
#include "execution/operator/physical_union.hpp"
#include "execution/operator/physical_unnest.hpp"
#include "execution/operator/physical_window.hpp"
#include "execution/parallel/numbered_morsels.hpp"
#include "execution/parallel/parallel_planning.hpp"
#include "execution/plan_executor.hpp"
#include "execution/subquery_resolver.hpp"
#include "planner/binder.hpp"
#include "planner/join_order/cardinality_estimator.hpp"
#include "planner/optimizer.hpp"
#include "stream/stream_reader.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

void ResolveColumns(BoundExpression& expr, const std::vector<ColumnBinding>& bindings) {
  VisitColumnRefs(expr, [&](BoundExpression& ref) {
    for (idx_t i = 0; i < bindings.size(); i++) {
      if (bindings[i] == ref.binding) {
        ref.column_index = i;
        return;
      }
    }
    throw InternalError("column " + ref.name + " (binding " + std::to_string(ref.binding.table_index) + "." +
                        std::to_string(ref.binding.column_index) + ") is not produced by the operator's input");
  });
}

// ORDER BY ... LIMIT n [OFFSET m] keeps only n + m rows in the sort
// (PhysicalOrder's top-N) up to this many; a larger limit sorts everything.
static constexpr int64_t kMaxTopN = int64_t{1} << 20;

static void TablesOf(const BoundExpression& expr, std::set<idx_t>& tables) {
  if (expr.type == BoundExpressionType::COLUMN_REF) tables.insert(expr.binding.table_index);
  for (auto& c : expr.children) TablesOf(*c, tables);
}

static bool Within(const BoundExpression& expr, const std::set<idx_t>& side) {
  std::set<idx_t> tables;
  TablesOf(expr, tables);
  if (tables.empty()) return false;
  for (idx_t t : tables) {
    if (!side.count(t)) return false;
  }
  return true;
}

static PhysicalOperatorPtr Plan(ClientContext& context, LogicalOperator& op);

// The aggregate's own expressions (groups, arguments, FILTERs) are safe to
// evaluate on several threads.
static bool AllParallelSafe(LogicalOperator& op) {
  for (auto& e : op.expressions) {
    if (!IsRepeatable(*e)) return false;
  }
  for (auto& a : op.aggregates) {
    for (auto* e : a.Expressions()) {
      if (!IsRepeatable(**e)) return false;
    }
  }
  return true;
}

// Planning the copies of a parallel pipeline: the only parts of them that
// run are the chain itself (joins in it probe the main copy's builds), so
// nothing inside them is given threads of its own.
static thread_local int planning_copies = 0;
struct PlanningCopies {
  PlanningCopies() { planning_copies++; }
  ~PlanningCopies() { planning_copies--; }
  PlanningCopies(const PlanningCopies&) = delete;
  PlanningCopies& operator=(const PlanningCopies&) = delete;
};
static idx_t PlanningThreads(ClientContext& context) { return planning_copies > 0 ? 1 : ThreadCount(context); }

// A hash join's build side that is a parallel chain (parallel_planning.hpp)
// is read on up to PlanningThreads() threads: copies of its logical plan,
// taken before the plan is consumed by planning it.
static std::vector<LogicalOperatorPtr> CopyParallelBuild(ClientContext& context, const LogicalOperator& build) {
  std::vector<LogicalOperatorPtr> copies;
  idx_t threads = PlanningThreads(context);
  if (threads <= 1 || !ParallelSafeChain(build)) return copies;
  for (idx_t t = 1; t < threads; t++) copies.push_back(CopyLogicalPlan(build));
  return copies;
}

// Plans `copies` as the build workers of `join`, sharing the morsels of the
// scan under its build side (none when the table gives fewer than two).
static void PlanParallelBuild(ClientContext& context, PhysicalHashJoin& join, std::vector<LogicalOperatorPtr> copies) {
  if (copies.empty()) return;
  PhysicalOperator& build = *join.children[1];
  PhysicalTableScan* scan = ChainScan(build);
  std::shared_ptr<MorselSource> morsels = scan ? scan->CreateMorselSource() : nullptr;
  if (!morsels || morsels->MorselCount() < 2) return;
  scan->SetMorsels(morsels, true);
  PlanningCopies scope;
  std::vector<PhysicalOperatorPtr> workers;
  for (idx_t t = 0; t < copies.size() && t + 1 < morsels->MorselCount(); t++) {
    auto worker = Plan(context, *copies[t]);
    PhysicalTableScan* worker_scan = ChainScan(*worker);
    if (!worker_scan) throw InternalError("a copy of a hash join's build side planned differently");
    worker_scan->SetMorsels(morsels, false);
    ShareJoinBuilds(build, *worker);
    build.ShareProfileWith(*worker);
    workers.push_back(std::move(worker));
  }
  join.SetBuildWorkers(std::move(workers), std::move(morsels));
}

static JoinKind KindOf(LogicalJoinType type) {
  switch (type) {
    case LogicalJoinType::INNER:
    case LogicalJoinType::CROSS: return JoinKind::INNER;
    case LogicalJoinType::LEFT: return JoinKind::LEFT;
    case LogicalJoinType::FULL: return JoinKind::FULL;
    case LogicalJoinType::SEMI: return JoinKind::SEMI;
    case LogicalJoinType::ANTI: return JoinKind::ANTI;
    case LogicalJoinType::MARK: return JoinKind::MARK;
    case LogicalJoinType::SINGLE: return JoinKind::SINGLE;
  }
  return JoinKind::INNER;
}

// Moves `e` into the key lists when it is `left side = right side` (or IS
// NOT DISTINCT FROM, recorded in `nulls_equal` when given).
static bool SplitEquiKey(BoundExprPtr& e, const std::set<idx_t>& left_tables, const std::set<idx_t>& right_tables,
                         std::vector<BoundExprPtr>& left_keys, std::vector<BoundExprPtr>& right_keys,
                         std::vector<bool>* nulls_equal = nullptr) {
  if (e->type != BoundExpressionType::FUNCTION || e->children.size() != 2) return false;
  bool not_distinct = nulls_equal && e->function.name == "is_not_distinct_from";
  if (e->function.name != "=" && !not_distinct) return false;
  if (nulls_equal) nulls_equal->push_back(not_distinct);
  auto& a = e->children[0];
  auto& b = e->children[1];
  if (Within(*a, left_tables) && Within(*b, right_tables)) {
    left_keys.push_back(std::move(a));
    right_keys.push_back(std::move(b));
    return true;
  }
  if (Within(*b, left_tables) && Within(*a, right_tables)) {
    left_keys.push_back(std::move(b));
    right_keys.push_back(std::move(a));
    return true;
  }
  if (nulls_equal) nulls_equal->pop_back();
  return false;
}

// A LEFT, SEMI or ANTI join's kept (left) side is the hash join's probe
// side; when it is estimated smaller than the other side (customer LEFT JOIN
// orders, TPC-H Q22's customers NOT EXISTS orders), the hash table is cheaper
// built from it: a RIGHT, RIGHT_SEMI or RIGHT_ANTI hash join then probes with
// the other side and emits the build rows as the join keeps them.
static bool BuildPreservedSide(const LogicalOperator& op) {
  return EstimateRelation(*op.children[0]).cardinality < EstimateRelation(*op.children[1]).cardinality;
}

// `op` (a LEFT, SEMI or ANTI join with keys) as a RIGHT, RIGHT_SEMI or
// RIGHT_ANTI hash join probing with its right input; a RIGHT join under a
// projection putting the columns back in the join's order.
static PhysicalOperatorPtr PlanRightJoin(const LogicalOperator& op, const std::vector<ColumnBinding>& left_bindings,
                                         const std::vector<ColumnBinding>& right_bindings, PhysicalOperatorPtr left,
                                         PhysicalOperatorPtr right, std::vector<BoundExprPtr> left_keys,
                                         std::vector<BoundExprPtr> right_keys, BoundExprPtr residual,
                                         std::vector<bool> nulls_equal, JoinKind kind, ClientContext& context,
                                         std::vector<LogicalOperatorPtr> build_copies) {
  auto swapped = right_bindings;
  swapped.insert(swapped.end(), left_bindings.begin(), left_bindings.end());
  if (residual) ResolveColumns(*residual, swapped);
  for (auto& k : left_keys) ResolveColumns(*k, left_bindings);
  for (auto& k : right_keys) ResolveColumns(*k, right_bindings);
  std::vector<LogicalType> left_types = left->types;
  std::vector<LogicalType> right_types = right->types;
  auto join = std::make_unique<PhysicalHashJoin>(std::move(right), std::move(left), std::move(right_keys),
                                                 std::move(left_keys), std::move(residual), kind);
  join->SetNullsEqual(std::move(nulls_equal));
  PlanParallelBuild(context, *join, std::move(build_copies));
  if (kind != JoinKind::RIGHT) return join;
  if (!join->HasResidual()) join->SetNeededOutputs(op.right_needed, op.left_needed);
  std::vector<BoundExprPtr> columns;
  for (idx_t i = 0; i < left_types.size(); i++) columns.push_back(MakeColumnRef(right_types.size() + i, left_types[i]));
  for (idx_t i = 0; i < right_types.size(); i++) columns.push_back(MakeColumnRef(i, right_types[i]));
  return std::make_unique<PhysicalProjection>(std::move(join), std::move(columns));
}

static PhysicalOperatorPtr PlanJoin(ClientContext& context, LogicalOperator& op) {
  auto left_bindings = op.children[0]->GetBindings();
  auto right_bindings = op.children[1]->GetBindings();
  std::set<idx_t> left_tables, right_tables;
  for (auto& b : left_bindings) left_tables.insert(b.table_index);
  for (auto& b : right_bindings) right_tables.insert(b.table_index);
  std::vector<BoundExprPtr> left_keys, right_keys, residual;
  std::vector<bool> nulls_equal;
  for (auto& e : op.expressions) {
    if (!SplitEquiKey(e, left_tables, right_tables, left_keys, right_keys, &nulls_equal)) residual.push_back(std::move(e));
  }
  JoinKind kind = KindOf(op.join_type);
  BoundExprPtr mark_condition = std::move(op.mark_condition);
  // x IN (SELECT y ...) with nothing else to match on: hashed on x = y, with
  // IN's NULL rules applied by the join (a NULL x or y makes a miss NULL).
  bool null_aware = false;
  if (kind == JoinKind::MARK && mark_condition && left_keys.empty() && residual.empty() &&
      SplitEquiKey(mark_condition, left_tables, right_tables, left_keys, right_keys)) {
    mark_condition = nullptr;
    null_aware = true;
  }
  auto combined = left_bindings;
  combined.insert(combined.end(), right_bindings.begin(), right_bindings.end());
  BoundExprPtr residual_expr = Conjunction(std::move(residual));
  // A LEFT join building its preserved side resolves the residual itself.
  bool build_left = (kind == JoinKind::LEFT || kind == JoinKind::SEMI || kind == JoinKind::ANTI) &&
                    !left_keys.empty() && BuildPreservedSide(op);
  if (residual_expr && !build_left) ResolveColumns(*residual_expr, combined);
  if (mark_condition) ResolveColumns(*mark_condition, combined);
  std::vector<LogicalOperatorPtr> build_copies;
  if (!left_keys.empty()) build_copies = CopyParallelBuild(context, *op.children[build_left ? 0 : 1]);
  auto left = Plan(context, *op.children[0]);
  auto right = Plan(context, *op.children[1]);
  if (left_keys.empty()) {
    auto join = std::make_unique<PhysicalNestedLoopJoin>(std::move(left), std::move(right), std::move(residual_expr), kind);
    join->SetMarkCondition(std::move(mark_condition));
    return join;
  }
  if (build_left) {
    return PlanRightJoin(op, left_bindings, right_bindings, std::move(left), std::move(right), std::move(left_keys), std::move(right_keys),
                         std::move(residual_expr), std::move(nulls_equal),
                         kind == JoinKind::LEFT ? JoinKind::RIGHT
                                                : (kind == JoinKind::SEMI ? JoinKind::RIGHT_SEMI : JoinKind::RIGHT_ANTI),
                         context, std::move(build_copies));
  }
  for (auto& k : left_keys) ResolveColumns(*k, left_bindings);
  for (auto& k : right_keys) ResolveColumns(*k, right_bindings);
  auto join = std::make_unique<PhysicalHashJoin>(std::move(left), std::move(right), std::move(left_keys), std::move(right_keys),
                                                 std::move(residual_expr), kind);
  join->SetMark(std::move(mark_condition), null_aware);
  join->SetNullsEqual(std::move(nulls_equal));
  PlanParallelBuild(context, *join, std::move(build_copies));
  // The residual predicate reads the joined row, so it needs every column.
  bool pairs_out = kind == JoinKind::INNER || kind == JoinKind::LEFT || kind == JoinKind::FULL || kind == JoinKind::SINGLE;
  if (!join->HasResidual() && pairs_out) join->SetNeededOutputs(op.left_needed, op.right_needed);
  return join;
}

// The rows of a VALUES list whose values are known only when the statement
// runs (a subquery, stream_has_data()); the subqueries are resolved already.
static std::vector<idx_t> AllColumns(idx_t count) {
  std::vector<idx_t> columns(count);
  for (idx_t c = 0; c < count; c++) columns[c] = c;
  return columns;
}

// Materialised rows (VALUES, a stream's changes) served through the same
// collection source the table functions use; `projected` picks the columns.
static PhysicalOperatorPtr ScanOf(std::shared_ptr<const ChunkCollection> rows, std::vector<idx_t> projected,
                                  const std::string& name) {
  std::vector<LogicalType> types;
  types.reserve(projected.size());
  for (idx_t c : projected) types.push_back(rows->Types()[c]);
  return std::make_unique<PhysicalTableFunctionScan>(std::move(types), MakeCollectionSource(std::move(rows), std::move(projected), name));
}

static std::shared_ptr<ChunkCollection> EvaluateValueRows(ClientContext& context, LogicalOperator& op) {
  FunctionContext fctx;
  fctx.statement_start = context.StatementStart();
  fctx.client = &context;
  ExpressionExecutor executor(fctx);
  auto rows = std::make_shared<ChunkCollection>(op.collection->Types());
  EvaluateRows(executor, op.value_rows, *rows);
  return rows;
}

static const Value& ConstantOf(const BoundExpression& expr) {
  if (!expr.IsConstant()) throw InternalError("a LIMIT/OFFSET subquery was not resolved to a constant");
  return expr.value;
}

static std::unique_ptr<PhysicalHashAggregate> PlanOneAggregate(ClientContext& context, LogicalOperator& op) {
  auto bindings = op.children[0]->GetBindings();
  for (auto& e : op.expressions) ResolveColumns(*e, bindings);
  for (auto& a : op.aggregates) {
    for (auto* e : a.Expressions()) ResolveColumns(**e, bindings);
  }
  auto child = Plan(context, *op.children[0]);
  bool count_only =
      op.grouping_sets.empty() && PhysicalHashAggregate::CanCountFromTable(op.expressions, op.aggregates, *child);
  auto aggregate = std::make_unique<PhysicalHashAggregate>(std::move(child), std::move(op.expressions),
                                                           std::move(op.aggregates), std::move(op.grouping_sets));
  if (count_only) aggregate->CountFromTable();
  return aggregate;
}

// A hash aggregate over a chain of filters and projections on a table scan
// runs on up to ThreadCount() threads (execution/parallel/parallel_planning.hpp):
// one copy of the aggregate and its chain per thread, planned from copies of
// the logical subtree, the scans sharing one morsel source.
static PhysicalOperatorPtr PlanAggregate(ClientContext& context, LogicalOperator& op) {
  idx_t threads = PlanningThreads(context);
  bool eligible = threads > 1 && PhysicalHashAggregate::Parallelizable(op.aggregates, op.grouping_sets) &&
                  ParallelSafeChain(*op.children[0]) && AllParallelSafe(op);
  std::vector<LogicalOperatorPtr> copies;
  for (idx_t t = 1; eligible && t < threads; t++) copies.push_back(CopyLogicalPlan(op));
  auto aggregate = PlanOneAggregate(context, op);
  PhysicalTableScan* scan = copies.empty() ? nullptr : ChainScan(*aggregate->children[0]);
  std::shared_ptr<MorselSource> morsels = scan && !aggregate->CountsFromTable() ? scan->CreateMorselSource() : nullptr;
  if (!morsels || morsels->MorselCount() < 2) return aggregate;
  scan->SetMorsels(morsels, true);
  std::vector<std::unique_ptr<PhysicalHashAggregate>> workers;
  PlanningCopies scope;
  for (idx_t t = 0; t < copies.size() && t + 1 < morsels->MorselCount(); t++) {
    auto worker = PlanOneAggregate(context, *copies[t]);
    PhysicalTableScan* worker_scan = ChainScan(*worker->children[0]);
    if (!worker_scan) throw InternalError("a copy of a parallel aggregate's input planned differently");
    worker_scan->SetMorsels(morsels, false);
    ShareJoinBuilds(*aggregate->children[0], *worker->children[0]);
    aggregate->ShareProfileWith(*worker);
    workers.push_back(std::move(worker));
  }
  aggregate->SetWorkers(std::move(workers), std::move(morsels));
  return aggregate;
}

// ORDER BY (and top-N) and WINDOW over a parallel chain (parallel_planning.hpp) runs on
// up to PlanningThreads() threads: copies of the operator planned from
// copies of its logical subtree, their scans sharing numbered morsels
// (numbered_morsels.hpp) so the result keeps the order of one thread.
// `plan_one` plans one copy; `eligible`: the operator's own expressions are
// repeatable.
template <class Sink, class PlanOne>
static std::unique_ptr<Sink> PlanOrderedSink(ClientContext& context, LogicalOperator& op, bool eligible,
                                             const PlanOne& plan_one) {
  idx_t threads = PlanningThreads(context);
  std::vector<LogicalOperatorPtr> copies;
  if (eligible && threads > 1 && ParallelSafeChain(*op.children[0])) {
    for (idx_t t = 1; t < threads; t++) copies.push_back(CopyLogicalPlan(op));
  }
  std::unique_ptr<Sink> sink = plan_one(op);
  PhysicalTableScan* scan = copies.empty() ? nullptr : ChainScan(*sink->children[0]);
  std::shared_ptr<MorselSource> morsels = scan ? scan->CreateMorselSource() : nullptr;
  if (!morsels || morsels->MorselCount() < 2) return sink;
  auto numbered = NumberedMorsels::Split(morsels, std::min<idx_t>(copies.size() + 1, morsels->MorselCount()));
  scan->SetMorsels(numbered[0], true);
  PlanningCopies scope;
  std::vector<std::unique_ptr<Sink>> workers;
  for (idx_t t = 0; t + 1 < numbered.size(); t++) {
    std::unique_ptr<Sink> worker = plan_one(*copies[t]);
    PhysicalTableScan* worker_scan = ChainScan(*worker->children[0]);
    if (!worker_scan) throw InternalError("a copy of a parallel " + sink->Name() + "'s input planned differently");
    worker_scan->SetMorsels(numbered[t + 1], false);
    ShareJoinBuilds(*sink->children[0], *worker->children[0]);
    sink->ShareProfileWith(*worker);
    workers.push_back(std::move(worker));
  }
  sink->SetWorkers(std::move(workers), std::move(numbered));
  return sink;
}

// ORDER BY, top-N when top_n > 0 (PhysicalOrder), on several threads when it can.
static PhysicalOperatorPtr PlanOrder(ClientContext& context, LogicalOperator& op, idx_t top_n) {
  bool eligible = true;
  for (auto& o : op.orders) eligible = eligible && IsRepeatable(*o.expression);
  return PlanOrderedSink<PhysicalOrder>(context, op, eligible, [&](LogicalOperator& order) {
    auto bindings = order.children[0]->GetBindings();
    for (auto& o : order.orders) ResolveColumns(*o.expression, bindings);
    return std::make_unique<PhysicalOrder>(Plan(context, *order.children[0]), std::move(order.orders), top_n);
  });
}

// WINDOW (PhysicalWindow), reading its input on several threads when it can.
static PhysicalOperatorPtr PlanWindow(ClientContext& context, LogicalOperator& op) {
  bool eligible = true;
  for (auto& e : op.expressions) eligible = eligible && IsRepeatable(*e);
  return PlanOrderedSink<PhysicalWindow>(context, op, eligible, [&](LogicalOperator& window) {
    auto bindings = window.children[0]->GetBindings();
    for (auto& e : window.expressions) ResolveColumns(*e, bindings);
    return std::make_unique<PhysicalWindow>(Plan(context, *window.children[0]), std::move(window.expressions),
                                            std::move(window.windows));
  });
}

static PhysicalOperatorPtr Plan(ClientContext& context, LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::GET: {
      auto bindings = op.GetBindings();
      for (auto& f : op.table_filters) ResolveColumns(*f, bindings);
      auto scan = std::make_unique<PhysicalTableScan>(op.table_name, *op.storage, op.column_ids, op.GetTypes(),
                                                      std::move(op.table_filters), op.emit_row_ids);
      scan->KeepAlive(op.owned_storage);
      return scan;
    }
    case LogicalOperatorType::CHUNK_GET: {
      if (op.materialized) {
        // The first reader owns the plan; every reader scans the rows it makes.
        MaterializedCTE& shared = *op.materialized;
        if (shared.run) return std::make_unique<PhysicalSharedScan>(shared.run, nullptr);
        if (!shared.plan) throw InternalError("the shared rows of " + shared.name + " have no plan");
        shared.run = std::make_shared<SharedScanRun>();
        shared.run->name = shared.name;
        shared.run->rows = shared.rows;
        shared.estimated_rows = EstimateRelation(*shared.plan).cardinality;
        shared.run->logical = shared.optimized ? std::move(shared.plan) : OptimizePlan(std::move(shared.plan));
        return std::make_unique<PhysicalSharedScan>(shared.run, CreatePhysicalPlan(context, *shared.run->logical));
      }
      std::shared_ptr<const ChunkCollection> rows = op.value_rows.empty() ? op.collection : EvaluateValueRows(context, op);
      return ScanOf(rows, AllColumns(rows->Types().size()), "VALUES");
    }
    case LogicalOperatorType::SOURCE:
      return std::make_unique<PhysicalTableFunctionScan>(op.GetTypes(), op.source_factory(op.column_ids));
    case LogicalOperatorType::STREAM_GET: {
      // The stream is read here, not when binding: once per statement (the
      // context keeps the read, which a DML statement then consumes).
      StreamCatalogEntry& stream = context.GetCatalog().GetStream(op.table_name);
      std::shared_ptr<const StreamChanges> changes = ReadStreamChanges(context, stream);
      if (changes->types != op.source_types) {
        throw CatalogError("Stream " + stream.name + " changed its columns while the statement was planned; run the statement again");
      }
      std::shared_ptr<const ChunkCollection> rows(changes, &changes->rows);
      return ScanOf(rows, op.column_ids, "STREAM_SCAN");
    }
    case LogicalOperatorType::FILTER: {
      auto bindings = op.children[0]->GetBindings();
      auto predicate = Conjunction(std::move(op.expressions));
      ResolveColumns(*predicate, bindings);
      return std::make_unique<PhysicalFilter>(Plan(context, *op.children[0]), std::move(predicate));
    }
    case LogicalOperatorType::PROJECTION: {
      auto bindings = op.children[0]->GetBindings();
      for (auto& e : op.expressions) ResolveColumns(*e, bindings);
      return std::make_unique<PhysicalProjection>(Plan(context, *op.children[0]), std::move(op.expressions));
    }
    case LogicalOperatorType::AGGREGATE: return PlanAggregate(context, op);
    case LogicalOperatorType::JOIN: return PlanJoin(context, op);
    case LogicalOperatorType::UNNEST: {
      ResolveColumns(*op.expressions[0], op.children[0]->GetBindings());
      return std::make_unique<PhysicalUnnest>(Plan(context, *op.children[0]), std::move(op.expressions[0]),
                                              op.source_types, op.unnest_position, op.unnest_outer);
    }
    case LogicalOperatorType::ORDER: return PlanOrder(context, op, 0);
    case LogicalOperatorType::LIMIT: {
      // LIMIT (SELECT ...): the subquery was resolved to a constant above.
      if (op.limit_expression) op.limit = LimitValueOf(ConstantOf(*op.limit_expression), "LIMIT");
      if (op.offset_expression) op.offset = std::max<int64_t>(0, LimitValueOf(ConstantOf(*op.offset_expression), "OFFSET"));
      // ORDER BY ... LIMIT: the sort keeps only the rows the limit can reach.
      LogicalOperator& child = *op.children[0];
      if (child.type == LogicalOperatorType::ORDER && op.limit >= 0 && op.limit + op.offset <= kMaxTopN) {
        auto order = PlanOrder(context, child, static_cast<idx_t>(std::max<int64_t>(1, op.limit + op.offset)));
        return std::make_unique<PhysicalLimit>(std::move(order), op.limit, op.offset);
      }
      return std::make_unique<PhysicalLimit>(Plan(context, *op.children[0]), op.limit, op.offset);
    }
    case LogicalOperatorType::WINDOW: {
      if (op.window_top_n == 0) return PlanWindow(context, op);
      auto bindings = op.children[0]->GetBindings();
      for (auto& e : op.expressions) ResolveColumns(*e, bindings);
      return std::make_unique<PhysicalTopNWindow>(Plan(context, *op.children[0]), std::move(op.expressions),
                                                  std::move(op.windows[0]), static_cast<idx_t>(op.window_top_n));
    }
    case LogicalOperatorType::UNION: {
      std::vector<PhysicalOperatorPtr> inputs;
      for (auto& c : op.children) inputs.push_back(Plan(context, *c));
      return std::make_unique<PhysicalUnionAll>(op.union_types, std::move(inputs));
    }
    case LogicalOperatorType::SET_OPERATION:
      return std::make_unique<PhysicalSetOperation>(op.union_types, Plan(context, *op.children[0]),
                                                    Plan(context, *op.children[1]), op.set_operation, op.set_all);
    case LogicalOperatorType::RECURSIVE_CTE: {
      // The recursive term is planned again for each iteration, from a copy
      // of its logical plan (operators run once).
      auto anchor = Plan(context, *op.children[0]);
      std::shared_ptr<LogicalOperator> term(std::move(op.children[1]));
      auto plan_term = [&context, term]() {
        auto copy = CopyLogicalPlan(*term);
        return Plan(context, *copy);
      };
      return std::make_unique<PhysicalRecursiveCTE>(op.union_types, op.table_name, std::move(anchor), std::move(plan_term),
                                                    op.collection, op.recursive_distinct);
    }
  }
  throw InternalError("CreatePhysicalPlan: unknown operator");
}

PhysicalOperatorPtr CreatePhysicalPlan(ClientContext& context, LogicalOperator& op) {
  ResolveSubqueries(context, op);
  return Plan(context, op);
}

}  // namespace lakestream
