#include "ivm/view_analysis.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "parser/parser.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

const char* MaintenanceKindToString(MaintenanceKind kind) {
  switch (kind) {
    case MaintenanceKind::ROWS: return "incremental";
    case MaintenanceKind::AGGREGATE: return "incremental";
    case MaintenanceKind::RECOMPUTE: return "recompute-and-diff";
  }
  return "recompute-and-diff";
}

BoundQuery BindViewQuery(Binder& binder, const std::string& definition) {
  auto node = Parser::ParseQuery(definition);
  return binder.BindQuery(*node);
}

LogicalOperatorPtr* FindAggregateSlot(LogicalOperatorPtr& root) {
  if (root->type == LogicalOperatorType::AGGREGATE) return &root;
  for (auto& child : root->children) {
    if (auto* slot = FindAggregateSlot(child)) return slot;
  }
  return nullptr;
}

void CollectScans(LogicalOperatorPtr& root, std::vector<LogicalOperatorPtr*>& out) {
  if (root->type == LogicalOperatorType::GET) out.push_back(&root);
  for (auto& child : root->children) CollectScans(child, out);
}

namespace {

// Window functions are recomputed: one changed row moves the ranks, running
// sums and neighbours of every later row of its partition.
const char* const kWindowReason = "a window function (OVER ...): its value depends on other rows of the partition";

// Walks a plan and records the first construct that rules out incremental maintenance.
class Analyzer {
 public:
  explicit Analyzer(ViewAnalysis& result) : result_(result) {}

  void Fail(const std::string& reason) {
    if (result_.reason.empty()) result_.reason = reason;
  }

  void CheckExpression(const BoundExpression& e) {
    if (e.type == BoundExpressionType::FUNCTION && !e.function.deterministic) {
      Fail("the non-deterministic function " + e.function.name + "() (its value changes without a source change)");
    }
    for (auto& c : e.children) CheckExpression(*c);
  }

  void CheckExpressions(const LogicalOperator& op) {
    for (auto& e : op.expressions) CheckExpression(*e);
    for (auto& a : op.aggregates) {
      for (const auto* e : a.Expressions()) CheckExpression(*e);
    }
    for (auto& e : op.left_keys) CheckExpression(*e);
    for (auto& e : op.right_keys) CheckExpression(*e);
    if (op.residual) CheckExpression(*op.residual);
    for (auto& o : op.orders) CheckExpression(*o.expression);
  }

  // The part of the plan the delta rule handles: linear operators over scans.
  void CheckLinear(const LogicalOperator& op) {
    CheckExpressions(op);
    switch (op.type) {
      case LogicalOperatorType::GET: {
        if (op.owned_storage) Fail("time travel (VERSION/TIMESTAMP AS OF " + op.table_name + ") in the query");
        if (op.table && op.table->kind == TableKind::TABLE &&
            StringUtil::Lower(op.table->GetProperty("delta.enableChangeDataFeed")) != "true") {
          Fail("its source " + op.table_name + " has no change data feed; turn it on with ALTER TABLE " + op.table_name +
               " SET TBLPROPERTIES (delta.enableChangeDataFeed = true)");
        }
        return;
      }
      case LogicalOperatorType::CHUNK_GET: return;
      case LogicalOperatorType::RECURSIVE_CTE: Fail("a recursive CTE (WITH RECURSIVE)"); break;
      case LogicalOperatorType::SOURCE:
      case LogicalOperatorType::STREAM_GET: Fail("a table function in FROM (its rows have no change data feed)"); return;
      case LogicalOperatorType::LIMIT: Fail("LIMIT/OFFSET (a top-N depends on rows outside the change)"); break;
      case LogicalOperatorType::AGGREGATE:
        Fail("an aggregate below a join, a union or another aggregate (nested aggregation)");
        break;
      case LogicalOperatorType::JOIN:
        if (op.join_type != LogicalJoinType::INNER && op.join_type != LogicalJoinType::CROSS) {
          Fail("an outer, semi or anti join (LEFT/RIGHT/FULL/SEMI/ANTI JOIN, or a subquery run as one)");
        }
        break;
      case LogicalOperatorType::WINDOW: Fail(kWindowReason); break;
      case LogicalOperatorType::FILTER:
      case LogicalOperatorType::PROJECTION:
      case LogicalOperatorType::ORDER:
      case LogicalOperatorType::UNION:
      case LogicalOperatorType::UNNEST: break;  // row by row, as a projection: the change of the output is the unnest of the change
      case LogicalOperatorType::SET_OPERATION:
        Fail("EXCEPT or INTERSECT (a row's presence depends on rows outside the change)");
        break;
    }
    for (auto& child : op.children) CheckLinear(*child);
  }

  // Output column of the view holding each GROUP BY key (empty when one is missing).
  std::vector<idx_t> GroupKeyColumns(const LogicalOperator& root, const LogicalOperator& aggregate) {
    const LogicalOperator* op = &root;
    while (op->type == LogicalOperatorType::ORDER || op->type == LogicalOperatorType::FILTER) op = op->children[0].get();
    std::vector<idx_t> keys;
    if (op == &aggregate) {
      for (idx_t g = 0; g < aggregate.expressions.size(); g++) keys.push_back(g);
      return keys;
    }
    if (op->type != LogicalOperatorType::PROJECTION) return {};
    for (idx_t g = 0; g < aggregate.expressions.size(); g++) {
      bool found = false;
      for (idx_t i = 0; i < op->expressions.size() && !found; i++) {
        const BoundExpression& e = *op->expressions[i];
        if (e.type == BoundExpressionType::COLUMN_REF && e.binding == ColumnBinding{aggregate.table_index, g}) {
          keys.push_back(i);
          found = true;
        }
      }
      if (!found) return {};
    }
    return keys;
  }

  // A view of the rows of one table with a PRIMARY KEY (projections, filters,
  // ORDER BY, LIMIT over its scan): the output columns holding the key, so a
  // changed row pairs into one update like a changed group does. Empty when a
  // key column is not selected as it is (then rows match as a whole).
  std::vector<idx_t> RowKeyColumns(const LogicalOperator& root) {
    std::vector<const LogicalOperator*> chain;  // root first
    const LogicalOperator* op = &root;
    while (op->type != LogicalOperatorType::GET) {
      bool passes = op->type == LogicalOperatorType::PROJECTION || op->type == LogicalOperatorType::FILTER ||
                    op->type == LogicalOperatorType::ORDER || op->type == LogicalOperatorType::LIMIT;
      if (!passes || op->children.size() != 1) return {};
      chain.push_back(op);
      op = op->children[0].get();
    }
    const LogicalOperator& get = *op;
    if (!get.table || get.table->primary_key.empty()) return {};
    std::vector<idx_t> keys;
    for (auto& name : get.table->primary_key) {
      int64_t column = get.table->ColumnIndex(name);
      auto at = std::find(get.column_ids.begin(), get.column_ids.end(), static_cast<idx_t>(column));
      if (column < 0 || at == get.column_ids.end()) return {};
      // Follow the key column up through the projections to the view's output.
      ColumnBinding binding{get.table_index, static_cast<idx_t>(at - get.column_ids.begin())};
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if ((*it)->type != LogicalOperatorType::PROJECTION) continue;
        const auto& exprs = (*it)->expressions;
        idx_t i = 0;
        while (i < exprs.size() && !(exprs[i]->type == BoundExpressionType::COLUMN_REF && exprs[i]->binding == binding)) i++;
        if (i == exprs.size()) return {};
        binding = {(*it)->table_index, i};
      }
      keys.push_back(binding.column_index);
    }
    return keys;
  }

  void Analyze(LogicalOperatorPtr& root) {
    LogicalOperatorPtr* slot = FindAggregateSlot(root);
    if (!slot) {
      CheckLinear(*root);
      result_.key_columns = RowKeyColumns(*root);
      if (result_.reason.empty()) result_.kind = MaintenanceKind::ROWS;
      return;
    }
    const LogicalOperator& aggregate = **slot;
    // Above the aggregate: a chain of projections, filters (HAVING) and ORDER BY.
    bool chain = true;
    for (const LogicalOperator* op = root.get(); op != &aggregate; op = op->children[0].get()) {
      CheckExpressions(*op);
      if (op->type == LogicalOperatorType::LIMIT) Fail("ORDER BY ... LIMIT (a top-N depends on rows outside the change)");
      if (op->type == LogicalOperatorType::WINDOW) Fail(kWindowReason);
      if (op->children.size() != 1) {
        Fail("an aggregate joined with or unioned to other rows");
        chain = false;
        break;
      }
    }
    CheckExpressions(aggregate);
    for (auto& child : aggregate.children) CheckLinear(*child);
    if (aggregate.expressions.empty()) Fail("an aggregate without GROUP BY (a global aggregate)");
    if (!aggregate.grouping_sets.empty()) Fail("GROUPING SETS/ROLLUP/CUBE");
    for (auto& a : aggregate.aggregates) {
      AggregateKind kind = a.signature.kind;
      if (kind == AggregateKind::ANY_VALUE) Fail("any_value()/first(), whose result is not determined by the rows");
      if (!a.signature.Incremental() && kind != AggregateKind::ANY_VALUE) {
        Fail(a.signature.name + "() (its state cannot be updated from the changed rows alone)");
      }
      if (a.filter || !a.order_keys.empty()) Fail(a.signature.name + "() with FILTER or ORDER BY");
      if (a.signature.distinct) {
        Fail(a.signature.name + "(DISTINCT ...) (a deleted row may or may not remove its value from the group)");
      }
      if ((kind == AggregateKind::SUM || kind == AggregateKind::AVG) && a.signature.input_type.id() == TypeId::DOUBLE) {
        Fail(a.signature.name + "() over DOUBLE (floating-point sums cannot be updated exactly; use DECIMAL)");
      }
    }
    // The keys also pair old and new rows in recompute-and-diff, so look for them either way.
    // Rolled-up rows repeat keys (a NULL from the data and a rolled-up NULL),
    // so grouping-set views diff whole rows.
    if (chain && !aggregate.expressions.empty() && aggregate.grouping_sets.empty()) {
      result_.key_columns = GroupKeyColumns(*root, aggregate);
      if (result_.key_columns.empty()) Fail("a GROUP BY key that is not a column of the view (select every GROUP BY key)");
    }
    if (result_.reason.empty()) result_.kind = MaintenanceKind::AGGREGATE;
  }

 private:
  ViewAnalysis& result_;
};

}  // namespace

ViewAnalysis AnalyzeView(ClientContext& context, const std::string& definition) {
  Binder binder(context);
  BoundQuery query = BindViewQuery(binder, definition);
  return AnalyzeBoundView(binder, query.plan);
}

ViewAnalysis AnalyzeBoundView(Binder& binder, LogicalOperatorPtr& plan) {
  ViewAnalysis result;
  Analyzer analyzer(result);
  if (binder.BoundSubqueryExpression()) {
    analyzer.Fail("a subquery used as a value (IN/EXISTS/scalar subquery): it reads rows outside the change");
  }
  std::vector<LogicalOperatorPtr*> scans;
  CollectScans(plan, scans);
  for (auto* scan : scans) {
    const std::string& name = (*scan)->table ? (*scan)->table->name : (*scan)->table_name;
    bool seen = false;
    for (auto& s : result.sources) seen = seen || StringUtil::CIEquals(s, name);
    if (!seen) result.sources.push_back(name);
  }
  analyzer.Analyze(plan);
  if (!result.reason.empty()) result.kind = MaintenanceKind::RECOMPUTE;
  return result;
}

}  // namespace lakestream
