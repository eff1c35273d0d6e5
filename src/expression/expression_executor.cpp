#include "expression/expression_executor.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "expression/in_list_typed.hpp"

namespace lakestream {

static void SliceChunk(DataChunk& input, const std::vector<sel_t>& sel, idx_t count, DataChunk& out) {
  out.Initialize(input.GetTypes(), std::max<idx_t>(count, 1));
  out.Append(input, sel.data(), count);
}

// Copies slot 0 of a vector of T (as bytes) into slots 1..count-1.
template <class T>
static void BroadcastFirst(uint8_t* data, idx_t count) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  for (idx_t i = 1; i < count; i++) std::memcpy(data + i * sizeof(T), &value, sizeof(T));
}

DataChunk& ExpressionExecutor::Scratch(const BoundExpression& expr, idx_t count) {
  auto& slot = scratch_[&expr];
  if (!slot || slot->data.empty() || slot->data[0].Capacity() < count) {
    std::vector<LogicalType> types;
    if (expr.type == BoundExpressionType::AND || expr.type == BoundExpressionType::OR) {
      // A conjunction folds its operands into the result one at a time and
      // needs one vector, not one per operand (there may be 100,000).
      types.assign(2, LogicalType(TypeId::BOOLEAN));
    } else {
      for (auto& c : expr.children) types.push_back(c->return_type);
    }
    if (slot) {
      for (auto& v : slot->data) constant_fills_.erase(&v);  // a new vector may take a freed one's address
    }
    slot = std::make_unique<DataChunk>();
    slot->Initialize(types, std::max<idx_t>(count, STANDARD_VECTOR_SIZE));
  } else {
    slot->Reset();
  }
  return *slot;
}

void ExpressionExecutor::Execute(const BoundExpression& expr, DataChunk& input, Vector& result) {
  // The parser bounds the trees it builds; this catches trees built later
  // (rewrites, stored definitions) on a thread with a small stack.
  if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep to evaluate"));
  idx_t count = input.size();
  if (result.Capacity() < count) result.Resize(count);
  switch (expr.type) {
    case BoundExpressionType::CONSTANT: {
      if (expr.value.IsNull()) {
        for (idx_t i = 0; i < count; i++) result.SetValid(i, false);
        return;
      }
      if (count == 0) return;
      result.SetValue(0, expr.value);
      if (result.GetType().IsNested()) {
        for (idx_t i = 1; i < count; i++) result.SetValue(i, expr.value);
        return;
      }
      // Broadcast the first slot's bytes: strings share the bytes in the heap.
      idx_t width = result.GetType().PhysicalSize();
      auto* data = result.GetData<uint8_t>();
      // Typed per width: a memcpy call per row (the width not a constant)
      // made every comparison with a constant cost a call per row.
      switch (width) {
        case 1: BroadcastFirst<uint8_t>(data, count); break;
        case 4: BroadcastFirst<uint32_t>(data, count); break;
        case 8: BroadcastFirst<uint64_t>(data, count); break;
        case 16: BroadcastFirst<unsigned __int128>(data, count); break;
        default:
          for (idx_t i = 1; i < count; i++) std::memcpy(data + i * width, data, width);
      }
      result.SetAllValid(count);
      return;
    }
    case BoundExpressionType::COLUMN_REF:
      result.Reference(input.data[expr.column_index], count);
      return;
    case BoundExpressionType::CAST: {
      Vector& child = Scratch(expr, count).data[0];
      Execute(*expr.children[0], input, child);
      CastVector(child, result, count, expr.try_cast);
      return;
    }
    case BoundExpressionType::FUNCTION: {
      DataChunk& args = Scratch(expr, count);
      if (expr.function.evaluation == ArgumentEvaluation::ALL) {
        for (idx_t i = 0; i < expr.children.size(); i++) {
          const BoundExpression& child = *expr.children[i];
          Vector& arg = args.data[i];
          // Scratch's Reset keeps the values and marks every row valid, which
          // a non-NULL constant of a fixed-width type survives (a string's
          // bytes live in the heap Reset drops).
          const bool reusable = child.type == BoundExpressionType::CONSTANT && !child.value.IsNull() &&
                                !arg.GetType().IsNested() && arg.GetType().id() != TypeId::VARCHAR;
          if (reusable) {
            ConstantFill& fill = constant_fills_[&arg];
            const auto* data = std::as_const(arg).GetData<uint8_t>();
            if (fill.data == data && fill.count >= count && !arg.BufferShared()) continue;
            Execute(child, input, arg);
            fill = ConstantFill{std::as_const(arg).GetData<uint8_t>(), count};
            continue;
          }
          Execute(child, input, arg);
        }
      } else {
        ExecuteConditionalArguments(expr, input, args);
      }
      args.SetCardinality(count);
      expr.function.kernel(args, result, count, context_);
      return;
    }
    case BoundExpressionType::AND:
    case BoundExpressionType::OR:
      ExecuteConjunction(expr, input, result);
      return;
    case BoundExpressionType::NOT: {
      Vector& child = Scratch(expr, count).data[0];
      Execute(*expr.children[0], input, child);
      auto* in = child.GetData<bool>();
      auto* out = result.GetData<bool>();
      for (idx_t i = 0; i < count; i++) {
        // NULL slots hold arbitrary bytes: never load them as bool.
        bool valid = child.IsValid(i);
        out[i] = valid && !in[i];
        result.SetValid(i, valid);
      }
      return;
    }
    case BoundExpressionType::IS_NULL:
    case BoundExpressionType::IS_NOT_NULL: {
      Vector& child = Scratch(expr, count).data[0];
      Execute(*expr.children[0], input, child);
      bool want_null = expr.type == BoundExpressionType::IS_NULL;
      auto* out = result.GetData<bool>();
      for (idx_t i = 0; i < count; i++) {
        out[i] = child.IsValid(i) != want_null;
        result.SetValid(i, true);
      }
      return;
    }
    case BoundExpressionType::CASE:
      ExecuteCase(expr, input, result);
      return;
    case BoundExpressionType::IN_LIST:
      ExecuteInList(expr, input, result);
      return;
    case BoundExpressionType::SUBQUERY:
      // The physical planner replaces every subquery by its result.
      throw InternalError("a subquery reached expression evaluation without being run first");
  }
  throw InternalError("unknown bound expression type");
}

// Whether a node can raise by itself (its children aside).
static bool NodeMayRaise(const BoundExpression& expr) {
  switch (expr.type) {
    case BoundExpressionType::CONSTANT:
    case BoundExpressionType::COLUMN_REF:
    case BoundExpressionType::AND:
    case BoundExpressionType::OR:
    case BoundExpressionType::NOT:
    case BoundExpressionType::IS_NULL:
    case BoundExpressionType::IS_NOT_NULL:
    case BoundExpressionType::CASE:
    case BoundExpressionType::IN_LIST: return false;
    case BoundExpressionType::CAST: {
      if (expr.try_cast) return false;
      TypeId from = expr.children[0]->return_type.id();
      TypeId to = expr.return_type.id();
      return !(to == TypeId::VARCHAR || (from == TypeId::INTEGER && (to == TypeId::BIGINT || to == TypeId::DOUBLE)) ||
               (from == TypeId::BIGINT && to == TypeId::DOUBLE));
    }
    case BoundExpressionType::FUNCTION: {
      static const char* kSafe[] = {"=", "<>", "<", "<=", ">", ">=", "is_distinct_from", "is_not_distinct_from",
                                    "like", "not_like", "ilike", "not_ilike", "||", "concat", "lower", "upper",
                                    "length", "trim", "ltrim", "rtrim", "coalesce", "ifnull", "nvl", "nullif",
                                    "if", "iff", "greatest", "least", "hash", "typeof"};
      const std::string& name = expr.function.name;
      for (const char* safe : kSafe) {
        if (name == safe) return false;
      }
      // Integer and DOUBLE division and modulo give NULL for a zero divisor
      // and cannot overflow; DECIMAL ones can.
      if (name == "/" || name == "%") {
        for (auto& c : expr.children) {
          TypeId t = c->return_type.id();
          if (t != TypeId::INTEGER && t != TypeId::BIGINT && t != TypeId::DOUBLE) return true;
        }
        return false;
      }
      return true;
    }
    case BoundExpressionType::SUBQUERY: return true;
  }
  return true;
}

bool ExpressionExecutor::MayRaise(const BoundExpression& expr) {
  auto it = may_raise_.find(&expr);
  if (it != may_raise_.end()) return it->second;
  bool result = NodeMayRaise(expr);
  for (idx_t i = 0; i < expr.children.size() && !result; i++) result = MayRaise(*expr.children[i]);
  may_raise_[&expr] = result;
  return result;
}

void ExpressionExecutor::ExecuteOnRows(const BoundExpression& expr, DataChunk& input, const std::vector<sel_t>& rows,
                                       Vector& target, bool others_null) {
  idx_t count = input.size();
  if (target.Capacity() < count) target.Resize(count);
  if (rows.size() == count) {
    Execute(expr, input, target);
    return;
  }
  if (!MayRaise(expr)) {
    // Cheaper on every row than on a copy of the rows that need it.
    Execute(expr, input, target);
    if (others_null) {
      std::vector<bool> wanted(count, false);
      for (sel_t row : rows) wanted[row] = true;
      for (idx_t i = 0; i < count; i++) {
        if (!wanted[i]) target.SetValid(i, false);
      }
    }
    return;
  }
  if (others_null) {
    for (idx_t i = 0; i < count; i++) target.SetValid(i, false);
  }
  if (rows.empty()) return;
  DataChunk slice;
  SliceChunk(input, rows, rows.size(), slice);
  Vector part(expr.return_type, rows.size());
  Execute(expr, slice, part);
  for (idx_t j = 0; j < rows.size(); j++) target.Copy(part, nullptr, 1, j, rows[j]);
}

void ExpressionExecutor::ExecuteConditionalArguments(const BoundExpression& expr, DataChunk& input, DataChunk& args) {
  idx_t count = input.size();
  std::vector<sel_t> rows(count);
  for (idx_t i = 0; i < count; i++) rows[i] = static_cast<sel_t>(i);
  if (expr.function.evaluation == ArgumentEvaluation::FIRST_NON_NULL) {
    for (idx_t c = 0; c < expr.children.size(); c++) {
      Vector& arg = args.data[c];
      ExecuteOnRows(*expr.children[c], input, rows, arg, true);
      idx_t n = 0;
      for (sel_t row : rows) {
        if (!arg.IsValid(row)) rows[n++] = row;
      }
      rows.resize(n);
    }
    return;
  }
  // CONDITIONAL: if(cond, then, else).
  Vector& cond = args.data[0];
  Execute(*expr.children[0], input, cond);
  std::vector<sel_t> taken, not_taken;
  for (idx_t i = 0; i < count; i++) {
    bool take = cond.IsValid(i) && cond.GetData<bool>()[i];
    (take ? taken : not_taken).push_back(static_cast<sel_t>(i));
  }
  ExecuteOnRows(*expr.children[1], input, taken, args.data[1], true);
  ExecuteOnRows(*expr.children[2], input, not_taken, args.data[2], true);
}

// Three-valued logic: FALSE AND NULL = FALSE, TRUE OR NULL = TRUE, else NULL
// wins. An operand runs only on the rows the operands before it left open
// (not FALSE for AND, not TRUE for OR), so `s <> 'abc' AND CAST(s AS INT) > 1` and
// `false AND <overflow>` never evaluate what SQL's short circuit skips.
void ExpressionExecutor::ExecuteConjunction(const BoundExpression& expr, DataChunk& input, Vector& result) {
  idx_t count = input.size();
  bool is_and = expr.type == BoundExpressionType::AND;
  Execute(*expr.children[0], input, result);
  Vector& other = Scratch(expr, count).data[1];
  auto* out = result.GetData<bool>();
  std::vector<sel_t> open;
  for (idx_t c = 1; c < expr.children.size(); c++) {
    const BoundExpression& operand = *expr.children[c];
    open.clear();
    if (MayRaise(operand)) {
      for (idx_t i = 0; i < count; i++) {
        // NULL slots are never loaded as bool.
        bool decided = result.IsValid(i) && out[i] != is_and;
        if (!decided) open.push_back(static_cast<sel_t>(i));
      }
      if (open.empty()) return;
      ExecuteOnRows(operand, input, open, other, false);
    } else {
      // Evaluated on every row: a decided row stays decided whatever the operand says.
      Execute(operand, input, other);
    }
    // Bytes, not bools: a NULL row's slot may hold any value. Branch-free.
    const auto* in = std::as_const(other).GetData<uint8_t>();
    const uint8_t* rvalid = std::as_const(other).Validity();
    auto* bytes = reinterpret_cast<uint8_t*>(out);
    uint8_t* lvalid = result.Validity();
    auto combine = [&](idx_t i) {
      const uint8_t lv = lvalid[i] != 0;
      const uint8_t rv = rvalid[i] != 0;
      const uint8_t l = lv & (bytes[i] != 0);
      const uint8_t r = rv & (in[i] != 0);
      // AND: FALSE when either side is FALSE; OR: TRUE when either is TRUE;
      // else NULL unless both sides are valid.
      const uint8_t decided = is_and ? static_cast<uint8_t>((lv & !l) | (rv & !r)) : static_cast<uint8_t>(l | r);
      bytes[i] = is_and ? static_cast<uint8_t>((decided == 0) & lv & rv) : decided;
      lvalid[i] = decided | (lv & rv);
    };
    if (open.empty()) {
      for (idx_t i = 0; i < count; i++) combine(i);
    } else {
      for (sel_t i : open) combine(i);
    }
  }
}

// Branches run only on the rows that reach them, so an error in a branch
// that no row takes (e.g. a cast) is never raised.
void ExpressionExecutor::ExecuteCase(const BoundExpression& expr, DataChunk& input, Vector& result) {
  idx_t count = input.size();
  std::vector<sel_t> remaining(count);
  for (idx_t i = 0; i < count; i++) remaining[i] = static_cast<sel_t>(i);
  idx_t remaining_count = count;
  size_t pairs = (expr.children.size() - 1) / 2;
  for (size_t p = 0; p < pairs && remaining_count > 0; p++) {
    DataChunk slice;
    SliceChunk(input, remaining, remaining_count, slice);
    std::vector<sel_t> taken;
    idx_t taken_count = Select(*expr.children[2 * p], slice, taken);
    if (taken_count == 0) continue;
    DataChunk branch_input;
    SliceChunk(slice, taken, taken_count, branch_input);
    Vector branch(expr.return_type, std::max<idx_t>(taken_count, 1));
    Execute(*expr.children[2 * p + 1], branch_input, branch);
    std::vector<bool> is_taken(remaining_count, false);
    for (idx_t i = 0; i < taken_count; i++) {
      result.Copy(branch, nullptr, 1, i, remaining[taken[i]]);
      is_taken[taken[i]] = true;
    }
    idx_t n = 0;
    for (idx_t i = 0; i < remaining_count; i++) {
      if (!is_taken[i]) remaining[n++] = remaining[i];
    }
    remaining_count = n;
  }
  if (remaining_count > 0) {
    DataChunk slice;
    SliceChunk(input, remaining, remaining_count, slice);
    Vector branch(expr.return_type, std::max<idx_t>(remaining_count, 1));
    Execute(*expr.children.back(), slice, branch);
    for (idx_t i = 0; i < remaining_count; i++) result.Copy(branch, nullptr, 1, i, remaining[i]);
  }
}

void ExpressionExecutor::ExecuteInList(const BoundExpression& expr, DataChunk& input, Vector& result) {
  idx_t count = input.size();
  Vector probe(expr.children[0]->return_type, std::max<idx_t>(count, 1));
  Execute(*expr.children[0], input, probe);
  auto* out = result.GetData<bool>();
  // SQL's three-valued IN: true when found; else NULL when the list held a
  // NULL; else false (NOT IN the reverse, NULL staying NULL).
  auto set_in_result = [&](idx_t i, bool found, bool saw_null) {
    if (!found && saw_null) {
      result.SetValid(i, false);
      return;
    }
    out[i] = found != expr.negated;
    result.SetValid(i, true);
  };
  bool all_constant = std::all_of(expr.children.begin() + 1, expr.children.end(),
                                  [](const BoundExprPtr& c) { return c->type == BoundExpressionType::CONSTANT; });
  if (all_constant) {
    const InListConstants& constants = ConstantsOf(expr);
    if (constants.typed) {
      InListTyped(probe, *constants.typed, constants.has_null, expr.negated, result, count);
      return;
    }
    // The common case, `x IN (1, 2, ...)` with thousands of literals: a
    // sorted list (sorted once per executor, not per chunk) probed by binary search.
    auto less = [](const Value& a, const Value& b) { return a.Compare(b) < 0; };
    for (idx_t i = 0; i < count; i++) {
      if (!probe.IsValid(i)) {
        result.SetValid(i, false);
        continue;
      }
      Value v = probe.GetValue(i);
      set_in_result(i, std::binary_search(constants.sorted.begin(), constants.sorted.end(), v, less), constants.has_null);
    }
    return;
  }
  // Every list element is evaluated per row (they may reference columns).
  std::vector<std::unique_ptr<Vector>> items;
  for (size_t c = 1; c < expr.children.size(); c++) {
    items.push_back(std::make_unique<Vector>(expr.children[c]->return_type, std::max<idx_t>(count, 1)));
    Execute(*expr.children[c], input, *items.back());
  }
  for (idx_t i = 0; i < count; i++) {
    if (!probe.IsValid(i)) {
      result.SetValid(i, false);
      continue;
    }
    Value v = probe.GetValue(i);
    bool found = false, saw_null = false;
    for (auto& item : items) {
      if (!item->IsValid(i)) {
        saw_null = true;
        continue;
      }
      if (v.Compare(item->GetValue(i)) == 0) {
        found = true;
        break;
      }
    }
    set_in_result(i, found, saw_null);
  }
}

const ExpressionExecutor::InListConstants& ExpressionExecutor::ConstantsOf(const BoundExpression& in_list) {
  const BoundExpression* first = in_list.children[1].get();
  const BoundExpression* last = in_list.children.back().get();
  auto it = in_lists_.find(&in_list);
  if (it != in_lists_.end() && it->second.first == first && it->second.last == last &&
      it->second.size == in_list.children.size()) {
    return it->second;
  }
  InListConstants& constants = in_lists_[&in_list];
  constants = InListConstants{};
  constants.first = first;
  constants.last = last;
  constants.size = in_list.children.size();
  for (size_t c = 1; c < in_list.children.size(); c++) {
    const Value& v = in_list.children[c]->value;
    if (v.IsNull()) {
      constants.has_null = true;
    } else {
      constants.sorted.push_back(v);
    }
  }
  std::sort(constants.sorted.begin(), constants.sorted.end(), [](const Value& a, const Value& b) { return a.Compare(b) < 0; });
  constants.typed = TypedInList(in_list.children[0]->return_type, constants.sorted);
  return constants;
}

Value ExpressionExecutor::EvaluateConstant(const BoundExpression& expr) {
  DataChunk dummy;
  dummy.Initialize({TypeId::BOOLEAN}, 1);
  dummy.SetCardinality(1);
  Vector result(expr.return_type, 1);
  Execute(expr, dummy, result);
  return result.GetValue(0);
}

void EvaluateRows(ExpressionExecutor& executor, const std::vector<std::vector<BoundExprPtr>>& rows, ChunkCollection& out) {
  DataChunk chunk;
  chunk.Initialize(out.Types());
  for (auto& row : rows) {
    for (idx_t i = 0; i < row.size(); i++) {
      Value v = row[i]->IsConstant() ? row[i]->value : executor.EvaluateConstant(*row[i]);
      chunk.SetValue(i, chunk.size(), v);  // casts to the column's type
    }
    chunk.SetCardinality(chunk.size() + 1);
    if (chunk.size() == STANDARD_VECTOR_SIZE) {
      out.Append(chunk);
      chunk.Reset();
    }
  }
  if (chunk.size() > 0) out.Append(chunk);
}

}  // namespace lakestream
