// Binds f(...) OVER (...) into a BoundWindow of the query's WINDOW operator
// (function/window/window_function.hpp) and returns a reference to its
// output column. Semantics and the differences from DuckDB: docs/sql-windows.md.
#include <optional>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/window/window_function.hpp"
#include "planner/binder.hpp"

namespace lakestream {

bool LookupWindowFunction(const std::string& name, WindowKind& kind) {
  static const std::pair<const char*, WindowKind> kNames[] = {
      {"row_number", WindowKind::ROW_NUMBER},   {"rank", WindowKind::RANK},
      {"dense_rank", WindowKind::DENSE_RANK},   {"percent_rank", WindowKind::PERCENT_RANK},
      {"cume_dist", WindowKind::CUME_DIST},     {"ntile", WindowKind::NTILE},
      {"lag", WindowKind::LAG},                 {"lead", WindowKind::LEAD},
      {"first_value", WindowKind::FIRST_VALUE}, {"last_value", WindowKind::LAST_VALUE},
      {"nth_value", WindowKind::NTH_VALUE},
  };
  for (auto& [n, k] : kNames) {
    if (name == n) {
      kind = k;
      return true;
    }
  }
  return false;
}

bool UsesFrame(WindowKind kind) {
  return kind == WindowKind::FIRST_VALUE || kind == WindowKind::LAST_VALUE || kind == WindowKind::NTH_VALUE ||
         kind == WindowKind::AGGREGATE;
}

namespace {

// A window with its named-window references followed (WINDOW w AS (...),
// OVER (w ORDER BY ...)): pointers into the parse tree.
struct ResolvedSpec {
  const std::vector<ExprPtr>* partitions = nullptr;
  const std::vector<OrderByItem>* orders = nullptr;
  const WindowSpec* frame = nullptr;  // the spec whose frame applies (null: the default)
};

const WindowSpec* FindNamedWindow(const QueryNode* node, const std::string& name) {
  if (node) {
    for (auto& [n, spec] : node->windows) {
      if (StringUtil::CIEquals(n, name)) return spec.get();
    }
  }
  throw BinderError("window " + name + " is not defined; define it in the query's WINDOW clause, e.g. WINDOW " + name +
                    " AS (PARTITION BY ... ORDER BY ...)");
}

void Resolve(const WindowSpec& spec, const QueryNode* node, ResolvedSpec& out, int depth) {
  if (depth > 64) throw BinderError("window " + spec.base_name + " refers to itself through the WINDOW clause");
  if (!spec.base_name.empty()) {
    const WindowSpec& base = *FindNamedWindow(node, spec.base_name);
    Resolve(base, node, out, depth + 1);
    if (!spec.partitions.empty()) {
      throw BinderError("OVER (" + spec.base_name + " PARTITION BY ...) cannot change the partitioning of window " +
                        spec.base_name + "; put PARTITION BY in its WINDOW definition or write the whole window out");
    }
    if (!spec.orders.empty() && !out.orders->empty()) {
      throw BinderError("OVER (" + spec.base_name + " ORDER BY ...) cannot replace the ORDER BY of window " +
                        spec.base_name + "; remove one of the two ORDER BY clauses");
    }
    if (spec.has_frame && out.frame) {
      throw BinderError("window " + spec.base_name + " already has a frame; a window that refers to it cannot add another");
    }
    if (!spec.orders.empty()) out.orders = &spec.orders;
    if (spec.has_frame) out.frame = &spec;
    return;
  }
  out.partitions = &spec.partitions;
  out.orders = &spec.orders;
  out.frame = spec.has_frame ? &spec : nullptr;
}

bool IsWhereLike(const char* clause) {
  std::string c = clause ? clause : "";
  return c == "WHERE" || c == "GROUP BY" || c == "HAVING";
}

}  // namespace

idx_t AddWindowInput(WindowBindState& state, BoundExprPtr input, const std::string& key) {
  if (!key.empty()) {
    for (idx_t i = 0; i < state.input_keys.size(); i++) {
      if (state.input_keys[i] == key) return i;
    }
  }
  state.inputs.push_back(std::move(input));
  state.input_keys.push_back(key);
  return state.inputs.size() - 1;
}

BoundExprPtr Binder::BindWindow(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                                const char* clause) {
  std::string name = StringUtil::Lower(expr.function_name);
  if (!window_state_) {
    std::string fix = IsWhereLike(clause)
                          ? "; window functions are computed after WHERE, GROUP BY and HAVING: filter on the result "
                            "with QUALIFY, or compute it in a subquery and filter outside it"
                          : "; compute the window function in a subquery first";
    throw BinderError("window function " + expr.ToString() + " is not allowed in " + (clause ? clause : "this place") + fix);
  }
  WindowBindState& state = *window_state_;
  std::string key = scope.ExpressionKey(expr);
  for (idx_t i = 0; i < state.window_keys.size(); i++) {
    if (state.window_keys[i] == key) {
      return MakeBindingRef({state.window_index, i}, state.windows[i].return_type, expr.ToString());
    }
  }
  BoundWindow window;
  window.name = expr.ToString();
  window.ignore_nulls = expr.ignore_nulls;
  bool aggregate_function = !LookupWindowFunction(name, window.kind);
  if (aggregate_function) {
    if (name == "first" || name == "any_value") {
      window.kind = WindowKind::FIRST_VALUE;  // Spark's first(x) OVER (...) is first_value
      aggregate_function = false;
    } else if (name == "last") {
      window.kind = WindowKind::LAST_VALUE;
      aggregate_function = false;
    } else if (!IsAggregateFunction(name)) {
      throw BinderError(name + "() is not a window function: use an aggregate (sum, count, avg, min, max) or one of "
                               "row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead, first_value, "
                               "last_value, nth_value before OVER");
    }
  }
  if (aggregate_function) window.kind = WindowKind::AGGREGATE;

  if (expr.has_filter || expr.order_count > 0) {
    throw NotImplementedError(std::string(expr.has_filter ? "FILTER (WHERE ...)" : "ORDER BY inside the call") + " on " + name +
                              "() OVER (...); use CASE WHEN inside the call, or the window's own ORDER BY");
  }
  // Arguments, keys and offsets: window functions inside them are refused.
  WindowBindState* saved = window_state_;
  window_state_ = nullptr;
  struct Restore {
    Binder& b;
    WindowBindState* s;
    ~Restore() { b.window_state_ = s; }
  } restore{*this, saved};
  const char* arg_clause = "a window function's argument (window functions cannot be nested)";
  std::vector<BoundExprPtr> args;
  std::vector<std::string> arg_keys;
  for (auto& c : expr.children) {
    if (c->type == ExpressionType::STAR) continue;
    args.push_back(Bind(*c, scope, aggregate, arg_clause));
    arg_keys.push_back(scope.ExpressionKey(*c));
  }
  ResolvedSpec spec;
  Resolve(*expr.window, state.node, spec, 0);
  std::vector<BoundExprPtr> partitions;
  for (auto& p : *spec.partitions) partitions.push_back(Bind(*p, scope, aggregate, "PARTITION BY"));
  std::vector<BoundExprPtr> orders;
  for (auto& o : *spec.orders) orders.push_back(Bind(*o.expression, scope, aggregate, "the ORDER BY of a window"));
  window_state_ = saved;

  BindWindowFunction(expr, window, args, arg_keys, state);
  for (idx_t i = 0; i < partitions.size(); i++) {
    window.partitions.push_back(AddWindowInput(state, std::move(partitions[i]), scope.ExpressionKey(*(*spec.partitions)[i])));
  }
  for (idx_t i = 0; i < orders.size(); i++) {
    const OrderByItem& item = (*spec.orders)[i];
    BoundWindowOrder order;
    order.descending = item.descending;
    order.nulls_first = item.nulls_first.value_or(item.descending);
    order.input = AddWindowInput(state, std::move(orders[i]), scope.ExpressionKey(*item.expression));
    window.orders.push_back(order);
  }
  window_state_ = nullptr;
  BindWindowFrame(spec.frame, window, scope, aggregate, state);
  window_state_ = saved;
  LogicalType type = window.return_type;
  state.windows.push_back(std::move(window));
  state.window_keys.push_back(key);
  return MakeBindingRef({state.window_index, state.windows.size() - 1}, type, expr.ToString());
}

void Binder::BindWindowFunction(const ParsedExpression& expr, BoundWindow& window, std::vector<BoundExprPtr>& args,
                                const std::vector<std::string>& arg_keys, WindowBindState& state) {
  std::string name = StringUtil::Lower(expr.function_name);
  auto arity = [&](size_t low, size_t high, const char* usage) {
    if (args.size() < low || args.size() > high) {
      throw BinderError(name + "() takes " + usage + ", but " + std::to_string(args.size()) + " were given: " + expr.ToString());
    }
  };
  auto add = [&](idx_t i, const LogicalType& type) {
    window.arguments.push_back(AddWindowInput(state, AddCast(std::move(args[i]), type), arg_keys[i] + "::" + type.ToString()));
  };
  auto integral = [&](idx_t i, const char* what) {
    if (!args[i]->return_type.IsIntegral() && args[i]->return_type.id() != TypeId::SQLNULL) {
      throw BinderError(std::string(what) + " of " + name + "() must be an integer, but " + args[i]->ToString() + " is " +
                        args[i]->return_type.ToString());
    }
    add(i, TypeId::BIGINT);
  };
  if (expr.distinct && window.kind != WindowKind::AGGREGATE) {
    throw BinderError("DISTINCT is not allowed in " + name + "(); it applies to aggregates used as window functions");
  }
  bool nulls_option = window.kind == WindowKind::FIRST_VALUE || window.kind == WindowKind::LAST_VALUE ||
                      window.kind == WindowKind::NTH_VALUE || window.kind == WindowKind::LAG || window.kind == WindowKind::LEAD;
  if (expr.ignore_nulls && !nulls_option) {
    throw BinderError("IGNORE NULLS is not allowed in " + name + "(); it applies to first_value, last_value, nth_value, lag and lead");
  }
  switch (window.kind) {
    case WindowKind::ROW_NUMBER:
    case WindowKind::RANK:
    case WindowKind::DENSE_RANK:
      arity(0, 0, "no arguments");
      window.return_type = TypeId::BIGINT;
      return;
    case WindowKind::PERCENT_RANK:
    case WindowKind::CUME_DIST:
      arity(0, 0, "no arguments");
      window.return_type = TypeId::DOUBLE;
      return;
    case WindowKind::NTILE:
      arity(1, 1, "one argument, the number of buckets");
      integral(0, "the number of buckets");
      window.return_type = TypeId::BIGINT;
      return;
    case WindowKind::LAG:
    case WindowKind::LEAD: {
      arity(1, 3, "one to three arguments (value, offset, default)");
      LogicalType type = args[0]->return_type;
      if (args.size() == 3) {
        type = MaxLogicalType(type, args[2]->return_type);
        if (type.id() == TypeId::INVALID) {
          throw BinderError("the default of " + expr.ToString() + " is " + args[2]->return_type.ToString() +
                            ", which does not match the value's type " + args[0]->return_type.ToString() + "; CAST it");
        }
      }
      if (type.id() == TypeId::SQLNULL) type = TypeId::INTEGER;
      add(0, type);
      if (args.size() >= 2) {
        integral(1, "the offset");
      } else {
        window.arguments.push_back(AddWindowInput(state, MakeConstant(Value::BIGINT(1)), "#one"));
      }
      if (args.size() == 3) add(2, type);
      window.return_type = type;
      return;
    }
    case WindowKind::FIRST_VALUE:
    case WindowKind::LAST_VALUE: {
      arity(1, 2, "one argument (and optionally Spark's ignoreNulls flag)");
      if (args.size() == 2) {
        // Spark: first_value(x, true) means IGNORE NULLS.
        auto flag = FoldNow(std::move(args[1]));
        if (!flag->IsConstant() || flag->return_type.id() != TypeId::BOOLEAN || flag->value.IsNull()) {
          throw BinderError("the second argument of " + name + "() must be TRUE or FALSE (ignore NULLs or not)");
        }
        window.ignore_nulls = window.ignore_nulls || flag->value.GetBoolean();
      }
      LogicalType type = args[0]->return_type.id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : args[0]->return_type;
      add(0, type);
      window.return_type = type;
      return;
    }
    case WindowKind::NTH_VALUE: {
      arity(2, 2, "two arguments (value, n)");
      LogicalType type = args[0]->return_type.id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : args[0]->return_type;
      add(0, type);
      integral(1, "n");
      window.return_type = type;
      return;
    }
    case WindowKind::AGGREGATE: {
      std::vector<LogicalType> types;
      std::vector<std::optional<Value>> constants;
      types.reserve(args.size());
      for (auto& a : args) {
        types.push_back(a->return_type);
        // A quantile's fraction or string_agg's separator is read at bind time.
        BoundExprPtr folded = a->IsFoldable() ? FoldNow(a->Copy()) : nullptr;
        constants.push_back(folded && folded->IsConstant() ? std::optional<Value>(folded->value) : std::nullopt);
      }
      bool star = expr.star_argument || (args.empty() && name == "count");
      window.aggregate = BindAggregate(name, types, constants, expr.distinct, star);
      AggregateKind k = window.aggregate.kind;
      if (k == AggregateKind::GROUPING) throw BinderError(name + "() applies to GROUP BY, not to a window (OVER)");
      if (k != AggregateKind::COUNT_STAR) add(0, window.aggregate.input_type);
      if (window.aggregate.second_type.id() != TypeId::INVALID) add(1, window.aggregate.second_type);
      window.return_type = window.aggregate.return_type;
      return;
    }
  }
}

void Binder::BindWindowFrame(const WindowSpec* spec, BoundWindow& window, const BindContext& scope,
                             AggregateBindState* aggregate, WindowBindState& state) {
  BoundWindowFrame& frame = window.frame;
  if (!spec) {
    frame.range = true;
    frame.start = WindowBoundary::UNBOUNDED_PRECEDING;
    frame.end = window.orders.empty() ? WindowBoundary::UNBOUNDED_FOLLOWING : WindowBoundary::CURRENT_ROW;
    return;
  }
  frame.range = spec->range;
  frame.start = spec->start.boundary;
  frame.end = spec->end.boundary;
  if (frame.start == WindowBoundary::UNBOUNDED_FOLLOWING) {
    throw BinderError("a window frame cannot start at UNBOUNDED FOLLOWING: " + window.name);
  }
  if (frame.end == WindowBoundary::UNBOUNDED_PRECEDING) {
    throw BinderError("a window frame cannot end at UNBOUNDED PRECEDING: " + window.name);
  }
  if (!UsesFrame(window.kind)) return;  // ranking functions and lag/lead ignore the frame, as in Spark and DuckDB
  auto bind_offset = [&](const WindowFrameBound& bound, bool preceding) -> idx_t {
    auto offset = Bind(*bound.offset, scope, aggregate, "a window frame offset");
    if (!frame.range) {
      if (!offset->return_type.IsIntegral()) {
        throw BinderError("a ROWS frame offset must be an integer, but " + offset->ToString() + " is " +
                          offset->return_type.ToString() + ": " + window.name);
      }
      offset = FoldNow(std::move(offset));
      if (offset->IsConstant() && !offset->value.IsNull() && offset->value.AsBigint() < 0) {
        throw BinderError("a window frame offset must not be negative: " + window.name);
      }
      return AddWindowInput(state, AddCast(std::move(offset), TypeId::BIGINT), "");
    }
    if (window.orders.size() != 1) {
      throw BinderError("a RANGE frame with an offset needs exactly one ORDER BY key, but " + window.name + " has " +
                        std::to_string(window.orders.size()) + "; use ROWS, or order by one key");
    }
    offset = FoldNow(std::move(offset));
    if (!offset->IsConstant() || offset->value.IsNull()) {
      throw BinderError("a RANGE frame offset must be a constant: " + window.name);
    }
    if (offset->return_type.IsNumeric() && offset->value.AsDouble() < 0) {
      throw BinderError("a window frame offset must not be negative: " + window.name);
    }
    const BoundWindowOrder& order = window.orders[0];
    const BoundExpression& key = *state.inputs[order.input];
    TypeId key_type = key.return_type.id();
    if (!key.return_type.IsNumeric() && key_type != TypeId::DATE && key_type != TypeId::TIMESTAMP &&
        key_type != TypeId::TIMESTAMP_NTZ) {
      throw BinderError("a RANGE frame with an offset needs a numeric, DATE or TIMESTAMP ORDER BY key, but " +
                        key.ToString() + " is " + key.return_type.ToString() + ": " + window.name);
    }
    BoundExprPtr base = key.Copy();
    if (key.return_type.IsIntegral()) base = AddCast(std::move(base), TypeId::BIGINT);  // key - offset must not overflow INTEGER
    bool minus = preceding != order.descending;
    std::vector<BoundExprPtr> operands;
    operands.push_back(std::move(base));
    operands.push_back(std::move(offset));
    BoundExprPtr value;
    try {
      value = BindOperator(minus ? "-" : "+", std::move(operands), 0);
    } catch (const BinderError& e) {
      throw BinderError("the RANGE frame offset of " + window.name + " cannot be applied to its ORDER BY key of type " +
                        key.return_type.ToString() + ": " + e.RawMessage());
    }
    LogicalType value_type = value->return_type;
    frame.range_key = AddWindowInput(state, AddCast(key.Copy(), value_type), "");
    return AddWindowInput(state, std::move(value), "");
  };
  if (spec->start.offset) frame.start_input = bind_offset(spec->start, frame.start == WindowBoundary::OFFSET_PRECEDING);
  if (spec->end.offset) frame.end_input = bind_offset(spec->end, frame.end == WindowBoundary::OFFSET_PRECEDING);
}

}  // namespace lakestream
