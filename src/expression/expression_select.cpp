// ExpressionExecutor's Select over a selection (expression_executor.hpp):
// what scan filters and FILTER use to keep rows without a copy per filter.
#include <algorithm>
#include <utility>

#include "expression/expression_executor.hpp"
#include "expression/in_list_typed.hpp"

namespace lakestream {

const Vector& ExpressionExecutor::EvaluateMask(const BoundExpression& predicate, DataChunk& input) {
  auto& slot = select_masks_[&predicate];
  if (!slot) {
    slot = std::make_unique<Vector>(LogicalType(TypeId::BOOLEAN), std::max<idx_t>(input.size(), STANDARD_VECTOR_SIZE));
  }
  slot->Reset();
  Execute(predicate, input, *slot);
  return *slot;
}

bool ExpressionExecutor::SelectComparison(const BoundExpression& predicate, DataChunk& input, const sel_t* sel,
                                          idx_t count, sel_t* true_sel, idx_t& found) {
  if (predicate.type != BoundExpressionType::FUNCTION || !predicate.function.select || predicate.children.size() != 2 ||
      predicate.function.argument_types.size() != 2) {
    return false;
  }
  const Vector* args[2] = {nullptr, nullptr};
  bool constant[2] = {false, false};
  std::unique_ptr<Vector> constants[2];
  for (idx_t i = 0; i < 2; i++) {
    const BoundExpression& child = *predicate.children[i];
    const LogicalType& type = predicate.function.argument_types[i];
    if (child.type == BoundExpressionType::COLUMN_REF) {
      args[i] = &input.data[child.column_index];
    } else if (child.type == BoundExpressionType::CONSTANT && child.return_type == type) {
      if (child.value.IsNull()) {
        found = 0;  // NULL compared with anything: never TRUE
        return true;
      }
      // One row, not a broadcast: the selection form reads row 0.
      constants[i] = std::make_unique<Vector>(type, 1);
      constants[i]->SetValue(0, child.value);
      args[i] = constants[i].get();
      constant[i] = true;
    } else {
      return false;
    }
    // The kernel was chosen for the argument types (a DECIMAL's width and
    // scale among them): a column of another type goes the general way.
    if (!(args[i]->GetType() == type)) return false;
  }
  found = predicate.function.select(*args[0], constant[0], *args[1], constant[1], sel, count, true_sel);
  return true;
}

bool ExpressionExecutor::SelectInList(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count,
                                      sel_t* true_sel, idx_t& found) {
  if (predicate.type != BoundExpressionType::IN_LIST || predicate.children[0]->type != BoundExpressionType::COLUMN_REF) {
    return false;
  }
  for (idx_t c = 1; c < predicate.children.size(); c++) {
    if (predicate.children[c]->type != BoundExpressionType::CONSTANT) return false;
  }
  const Vector& probe = input.data[predicate.children[0]->column_index];
  const InListConstants& constants = ConstantsOf(predicate);
  if (!constants.typed || !(probe.GetType() == constants.typed->GetType())) return false;
  found = InListTypedSelect(probe, *constants.typed, constants.has_null, predicate.negated, sel, count, true_sel);
  return true;
}

idx_t ExpressionExecutor::SelectAny(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count,
                                    sel_t* true_sel) {
  // Each operand tests only the rows no operand before it found TRUE.
  std::vector<sel_t> open(count);
  for (idx_t k = 0; k < count; k++) open[k] = sel ? sel[k] : static_cast<sel_t>(k);
  std::vector<sel_t> found(count);
  std::vector<uint8_t> hit(input.size(), 0);
  idx_t open_count = count;
  for (auto& operand : predicate.children) {
    idx_t n = Select(*operand, input, open.data(), open_count, found.data());
    for (idx_t j = 0; j < n; j++) hit[found[j]] = 1;
    // open minus found (both ascending).
    idx_t still = 0;
    for (idx_t k = 0, j = 0; k < open_count; k++) {
      if (j < n && found[j] == open[k]) {
        j++;
        continue;
      }
      open[still++] = open[k];
    }
    open_count = still;
    if (open_count == 0) break;
  }
  idx_t n = 0;
  for (idx_t k = 0; k < count; k++) {
    const sel_t row = sel ? sel[k] : static_cast<sel_t>(k);
    true_sel[n] = row;
    n += hit[row];
  }
  return n;
}

idx_t ExpressionExecutor::Select(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count,
                                 sel_t* true_sel) {
  if (count == 0) return 0;
  // Branch-free: the predicate's outcome is data, often near 50/50. Reads
  // bytes: a NULL row's slot may hold any value.
  auto keep_true = [&](const Vector& mask, const sel_t* rows, bool mask_by_position) {
    const auto* m = mask.GetData<uint8_t>();
    const uint8_t* valid = mask.Validity();
    idx_t n = 0;
    for (idx_t k = 0; k < count; k++) {
      const idx_t row = rows ? rows[k] : k;
      const idx_t at = mask_by_position ? k : row;
      true_sel[n] = static_cast<sel_t>(row);
      n += static_cast<idx_t>(valid[at] != 0 && m[at] != 0);
    }
    return n;
  };
  if (!MayRaise(predicate)) {
    // Order does not matter for what cannot raise: test each row only as
    // long as it is still in.
    if (predicate.type == BoundExpressionType::AND) {
      for (auto& operand : predicate.children) {
        count = Select(*operand, input, sel, count, true_sel);
        sel = true_sel;
        if (count == 0) break;
      }
      return count;
    }
    if (predicate.type == BoundExpressionType::OR) return SelectAny(predicate, input, sel, count, true_sel);
    idx_t found = 0;
    if (SelectComparison(predicate, input, sel, count, true_sel, found)) return found;
    if (SelectInList(predicate, input, sel, count, true_sel, found)) return found;
    // On every row: cheaper than copying out the rows (every column of them).
    return keep_true(EvaluateMask(predicate, input), sel, false);
  }
  if (!sel) return keep_true(EvaluateMask(predicate, input), nullptr, false);
  DataChunk slice;
  slice.Initialize(input.GetTypes(), count);
  slice.Append(input, sel, count);
  return keep_true(EvaluateMask(predicate, slice), sel, true);
}

idx_t ExpressionExecutor::Select(const BoundExpression& predicate, DataChunk& input, std::vector<sel_t>& sel) {
  sel.resize(input.size());
  return Select(predicate, input, nullptr, input.size(), sel.data());
}

}  // namespace lakestream
