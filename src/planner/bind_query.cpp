#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "common/string_util.hpp"
#include "expression/expression_executor.hpp"
#include "expression/repeatable.hpp"
#include "transaction/client_context.hpp"
#include "planner/binder.hpp"

namespace lakestream {

Binder::Binder(ClientContext& context, Binder* parent) : context_(context), parent_(parent) {}

idx_t Binder::NextTableIndex() {
  // One counter per statement: child binders share the root's.
  if (parent_) return parent_->NextTableIndex();
  return next_table_index_++;
}

void Binder::AddCTEs(const QueryNode& node) {
  for (auto& cte : node.ctes) ctes_[StringUtil::Lower(cte.name)] = &cte;
}

const CommonTableExpression* Binder::FindCTE(const std::string& name) const {
  auto it = ctes_.find(StringUtil::Lower(name));
  if (it != ctes_.end()) return it->second;
  // A view's query means the same wherever it is read: the reader's CTEs stay out.
  return parent_ && !binding_view_ ? parent_->FindCTE(name) : nullptr;
}

int64_t BindLimitValue(Binder& binder, const ParsedExpression* expr, const char* what) {
  if (!expr) return -1;
  BindContext empty;
  BoundExprPtr bound;
  try {
    bound = binder.FoldNow(binder.BindExpression(*expr, empty, what));
  } catch (const BinderError&) {
    throw BinderError(std::string(what) + " must be a constant integer, got " + expr->ToString());
  }
  if (!bound->IsConstant() || !(bound->return_type.IsIntegral() || bound->return_type.id() == TypeId::SQLNULL)) {
    throw BinderError(std::string(what) + " must be a constant integer, got " + expr->ToString());
  }
  return LimitValueOf(bound->value, what);
}

int64_t LimitValueOf(const Value& value, const char* what) {
  if (value.IsNull()) return -1;
  int64_t v = value.AsBigint();
  if (v < 0) throw BinderError(std::string(what) + " must not be negative, got " + std::to_string(v));
  return v;
}

// LIMIT (SELECT ...): the subquery runs with the plan, which then checks its value.
static BoundExprPtr BindLimitSubquery(Binder& binder, const ParsedExpression* expr, const char* what) {
  if (!expr || expr->type != ExpressionType::SUBQUERY_SCALAR) return nullptr;
  BindContext empty;
  auto bound = binder.BindExpression(*expr, empty, what);
  if (!(bound->return_type.IsIntegral() || bound->return_type.id() == TypeId::SQLNULL)) {
    throw BinderError(std::string(what) + " must be a constant integer, got " + expr->ToString());
  }
  return bound;
}

LogicalOperatorPtr BindLimit(Binder& binder, const QueryNode& node, LogicalOperatorPtr plan) {
  auto limit = std::make_unique<LogicalOperator>(LogicalOperatorType::LIMIT);
  limit->limit_expression = BindLimitSubquery(binder, node.limit.get(), "LIMIT");
  limit->offset_expression = BindLimitSubquery(binder, node.offset.get(), "OFFSET");
  if (!limit->limit_expression) limit->limit = BindLimitValue(binder, node.limit.get(), "LIMIT");
  if (!limit->offset_expression) limit->offset = std::max<int64_t>(0, BindLimitValue(binder, node.offset.get(), "OFFSET"));
  limit->children.push_back(std::move(plan));
  return limit;
}

// ORDER BY / LIMIT that apply on top of a bound query (set operations, VALUES):
// ORDER BY may name output columns or their positions.
static LogicalOperatorPtr AddOrderAndLimit(Binder& binder, const QueryNode& node, BoundQuery& query, LogicalOperatorPtr plan) {
  if (!node.order_by.empty()) {
    BindContext scope;
    BindEntry entry;
    entry.names = query.names;
    entry.types = query.types;
    entry.bindings = plan->GetBindings();
    scope.Add(entry);
    auto order = std::make_unique<LogicalOperator>(LogicalOperatorType::ORDER);
    for (auto& item : node.order_by) {
      BoundOrder bo;
      if (item.expression->type == ExpressionType::CONSTANT && item.expression->value.type().IsIntegral()) {
        int64_t k = item.expression->value.AsBigint();
        if (k < 1 || k > static_cast<int64_t>(query.names.size())) {
          throw BinderError("ORDER BY position " + std::to_string(k) + " is not in the select list (1 to " +
                            std::to_string(query.names.size()) + ")");
        }
        bo.expression = MakeBindingRef(entry.bindings[k - 1], entry.types[k - 1], entry.names[k - 1]);
      } else {
        bo.expression = binder.BindExpression(*item.expression, scope, "ORDER BY");
      }
      bo.descending = item.descending;
      bo.nulls_first = item.nulls_first.value_or(item.descending);
      order->orders.push_back(std::move(bo));
    }
    order->children.push_back(std::move(plan));
    plan = std::move(order);
  }
  if (node.limit || node.offset) plan = BindLimit(binder, node, std::move(plan));
  return plan;
}

BoundQuery Binder::BindQuery(const QueryNode& node) {
  if (StackNearlyExhausted()) throw BinderError(NestedTooDeeplyMessage("too many levels of subqueries, CTEs or set operations"));
  AddCTEs(node);
  switch (node.type) {
    case QueryNodeType::SELECT_NODE: return BindSelectNode(node);
    case QueryNodeType::SET_OPERATION_NODE: return BindSetOperation(node);
    case QueryNodeType::VALUES_NODE: return BindValues(node);
  }
  throw InternalError("unknown query node");
}

LogicalOperatorPtr CastPlanTo(Binder& binder, LogicalOperatorPtr plan, const std::vector<LogicalType>& types,
                              const std::vector<std::string>& names) {
  auto current = plan->GetTypes();
  if (current == types) return plan;
  auto bindings = plan->GetBindings();
  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  for (idx_t i = 0; i < types.size(); i++) {
    projection->expressions.push_back(AddCast(MakeBindingRef(bindings[i], current[i], i < names.size() ? names[i] : ""), types[i]));
  }
  projection->children.push_back(std::move(plan));
  return projection;
}

static const char* SetOperationName(SetOperationType type) {
  switch (type) {
    case SetOperationType::UNION_ALL: return "UNION ALL";
    case SetOperationType::UNION: return "UNION";
    case SetOperationType::EXCEPT: return "EXCEPT";
    case SetOperationType::INTERSECT: return "INTERSECT";
    case SetOperationType::EXCEPT_ALL: return "EXCEPT ALL";
    case SetOperationType::INTERSECT_ALL: return "INTERSECT ALL";
  }
  return "set operation";
}

static std::string Columns(idx_t count) { return std::to_string(count) + (count == 1 ? " column" : " columns"); }

BoundQuery Binder::BindSetOperation(const QueryNode& node) {
  const char* op_name = SetOperationName(node.set_op);
  Binder left_binder(context_, this);
  Binder right_binder(context_, this);
  BoundQuery left = left_binder.BindQuery(*node.left);
  BoundQuery right = right_binder.BindQuery(*node.right);
  if (left.types.size() != right.types.size()) {
    throw BinderError(std::string(op_name) + " needs the same number of columns on both sides: the left query has " +
                      Columns(left.types.size()) + ", the right query " + Columns(right.types.size()) +
                      "; select the same number of columns in each");
  }
  std::vector<LogicalType> types;
  for (idx_t i = 0; i < left.types.size(); i++) {
    LogicalType t = MaxLogicalType(left.types[i], right.types[i]);
    if (t.id() == TypeId::INVALID) {
      throw BinderError(std::string(op_name) + " column " + std::to_string(i + 1) + " (" + left.names[i] + ") has type " +
                        left.types[i].ToString() + " on the left and " + right.types[i].ToString() +
                        " on the right; CAST one side");
    }
    if (t.id() == TypeId::SQLNULL) t = TypeId::INTEGER;
    types.push_back(t);
  }
  bool is_union = node.set_op == SetOperationType::UNION || node.set_op == SetOperationType::UNION_ALL;
  auto op = std::make_unique<LogicalOperator>(is_union ? LogicalOperatorType::UNION : LogicalOperatorType::SET_OPERATION);
  op->table_index = NextTableIndex();
  op->union_types = types;
  op->set_operation = node.set_op == SetOperationType::INTERSECT || node.set_op == SetOperationType::INTERSECT_ALL
                          ? LogicalSetOperation::INTERSECT
                          : LogicalSetOperation::EXCEPT;
  op->set_all = node.set_op == SetOperationType::EXCEPT_ALL || node.set_op == SetOperationType::INTERSECT_ALL;
  op->children.push_back(CastPlanTo(*this, std::move(left.plan), types, left.names));
  op->children.push_back(CastPlanTo(*this, std::move(right.plan), types, left.names));
  BoundQuery result;
  result.names = left.names;
  result.types = types;
  LogicalOperatorPtr plan = std::move(op);
  if (node.set_op == SetOperationType::UNION) {
    // UNION = UNION ALL + DISTINCT (a group-by on every column).
    auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
    distinct->table_index = NextTableIndex();
    distinct->aggregate_index = NextTableIndex();
    auto bindings = plan->GetBindings();
    for (idx_t i = 0; i < types.size(); i++) distinct->expressions.push_back(MakeBindingRef(bindings[i], types[i], result.names[i]));
    distinct->children.push_back(std::move(plan));
    plan = std::move(distinct);
  }
  result.plan = AddOrderAndLimit(*this, node, result, std::move(plan));
  return result;
}

static bool ReadsColumn(const BoundExpression& expr) {
  if (expr.type == BoundExpressionType::COLUMN_REF) return true;
  for (auto& c : expr.children) {
    if (ReadsColumn(*c)) return true;
  }
  return false;
}

BoundQuery Binder::BindValues(const QueryNode& node) {
  BindContext empty;
  std::vector<std::vector<BoundExprPtr>> rows;
  std::vector<LogicalType> types;
  for (auto& row : node.values) {
    std::vector<BoundExprPtr> bound;
    bound.reserve(row.size());
    for (auto& e : row) bound.push_back(BindExpression(*e, empty, "VALUES"));
    if (!rows.empty() && bound.size() != types.size()) {
      throw BinderError("VALUES lists must all have the same length: the first has " + std::to_string(types.size()) +
                        " values, another has " + std::to_string(bound.size()));
    }
    if (rows.empty()) {
      for (auto& b : bound) types.push_back(b->return_type);
    } else {
      for (idx_t i = 0; i < bound.size(); i++) {
        LogicalType t = MaxLogicalType(types[i], bound[i]->return_type);
        if (t.id() == TypeId::INVALID) {
          throw BinderError("VALUES column " + std::to_string(i + 1) + " mixes " + types[i].ToString() + " and " +
                            bound[i]->return_type.ToString() + "; CAST the values to one type");
        }
        types[i] = t;
      }
    }
    rows.push_back(std::move(bound));
  }
  for (auto& t : types) {
    if (t.id() == TypeId::SQLNULL) t = TypeId::INTEGER;
  }
  auto collection = std::make_shared<ChunkCollection>(types);
  bool at_run = false;
  for (auto& row : rows) {
    // A column here is an outer query's (a correlated VALUES list): the
    // subquery planner turns the rows into one per outer value.
    // A subquery or a non-deterministic call (stream_has_data()) can only
    // be evaluated by the running statement.
    for (auto& e : row) at_run |= !IsRepeatable(*e) || ReadsColumn(*e);
  }
  std::vector<std::vector<BoundExprPtr>> value_rows;
  if (at_run) {
    // A subquery or stream_has_data() among the values: the physical planner evaluates the rows.
    value_rows = std::move(rows);
  } else {
    FunctionContext fctx;
    fctx.statement_start = context_.StatementStart();
    ExpressionExecutor executor(fctx);
    EvaluateRows(executor, rows, *collection);
  }
  BoundQuery result;
  for (idx_t i = 0; i < types.size(); i++) result.names.push_back("col" + std::to_string(i));
  result.types = types;
  auto get = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
  get->table_index = NextTableIndex();
  get->collection = collection;
  get->value_rows = std::move(value_rows);
  result.plan = AddOrderAndLimit(*this, node, result, std::move(get));
  return result;
}

}  // namespace lakestream
