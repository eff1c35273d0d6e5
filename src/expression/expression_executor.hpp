// Evaluates bound expressions over a DataChunk, one vector at a time.
#pragma once

#include <memory>
#include <unordered_map>

#include "common/chunk_collection.hpp"
#include "common/vector.hpp"
#include "expression/bound_expression.hpp"

namespace lakestream {

// An executor keeps scratch vectors per expression node between calls, so an
// operator that owns one evaluates chunk after chunk without allocating.
class ExpressionExecutor {
 public:
  explicit ExpressionExecutor(FunctionContext context = {}) : context_(context) {}

  // result[i] = expr(input row i) for every row of `input`. `result` must have
  // expr.return_type; it grows to input.size() when needed.
  void Execute(const BoundExpression& expr, DataChunk& input, Vector& result);

  // Evaluates a BOOLEAN predicate and writes the rows where it is TRUE (not
  // NULL, not FALSE) into `sel`; returns how many.
  idx_t Select(const BoundExpression& predicate, DataChunk& input, std::vector<sel_t>& sel);

  // The rows of `sel` (`count` of them, ascending; null: rows 0..count-1 of
  // `input`) where `predicate` is TRUE, written to `true_sel` (which may be
  // `sel` itself); returns how many. A predicate that cannot raise (MayRaise)
  // is tested on those rows only where it can be: a comparison of columns and
  // constants through its selection form (scalar_select_t), an AND operand
  // by operand on the rows the operands before it kept, an OR operand by
  // operand on the rows no operand before it found TRUE, `column IN
  // (constants)` by the typed search; anything else is evaluated on every
  // row of `input` (cheaper than copying out the rows: every column of
  // them). A predicate that may raise is evaluated on a copy of the rows, so
  // rows dropped earlier never raise.
  idx_t Select(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count, sel_t* true_sel);

  // Evaluates an expression with no column references (constant folding).
  Value EvaluateConstant(const BoundExpression& expr);

 private:
  void ExecuteCase(const BoundExpression& expr, DataChunk& input, Vector& result);
  void ExecuteInList(const BoundExpression& expr, DataChunk& input, Vector& result);
  void ExecuteConjunction(const BoundExpression& expr, DataChunk& input, Vector& result);
  // coalesce/if: fills `args` evaluating each argument only on the rows its
  // function's ArgumentEvaluation names (NULL on the others).
  void ExecuteConditionalArguments(const BoundExpression& expr, DataChunk& input, DataChunk& args);
  // target[rows[j]] = expr(input row rows[j]) for each j, evaluated on those
  // rows only; target's other rows are NULL when `others_null`, else untouched.
  void ExecuteOnRows(const BoundExpression& expr, DataChunk& input, const std::vector<sel_t>& rows, Vector& target,
                     bool others_null);

  // False when evaluating `expr` cannot raise (column references, constants,
  // comparisons, ...): the short circuits then run it on every row, which
  // is cheaper than cutting out the rows that need it. Cached per node.
  bool MayRaise(const BoundExpression& expr);

  // Evaluates `predicate` on every row of `input` into its mask vector
  // (select_masks_), which it returns.
  const Vector& EvaluateMask(const BoundExpression& predicate, DataChunk& input);
  // Select through the function's selection form when `predicate` is a
  // comparison of columns and constants; false (nothing written) otherwise.
  bool SelectComparison(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count,
                        sel_t* true_sel, idx_t& found);

  // Select through the typed constants when `predicate` is `column IN
  // (constants)`; false (nothing written) otherwise.
  bool SelectInList(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count, sel_t* true_sel,
                    idx_t& found);
  // Select of an OR that cannot raise: the union of its operands' rows.
  idx_t SelectAny(const BoundExpression& predicate, DataChunk& input, const sel_t* sel, idx_t count, sel_t* true_sel);

  // Scratch chunk for the children of `expr`, sized for `count` rows.
  DataChunk& Scratch(const BoundExpression& expr, idx_t count);

  // The constants of an all-constant IN list, sorted once per node.
  struct InListConstants {
    std::vector<Value> sorted;
    bool has_null = false;
    // The non-NULL constants as a vector of the probe's type, sorted and
    // without duplicates, when every constant has that type and the type is
    // an integer, DATE, TIMESTAMP, DECIMAL or VARCHAR: searched without a
    // Value per row. Null otherwise.
    std::unique_ptr<Vector> typed;
    // Which node the entry was made for (a freed node's address may be reused).
    const BoundExpression* first = nullptr;
    const BoundExpression* last = nullptr;
    size_t size = 0;
  };
  const InListConstants& ConstantsOf(const BoundExpression& in_list);

  FunctionContext context_;
  std::unordered_map<const BoundExpression*, std::unique_ptr<DataChunk>> scratch_;
  std::unordered_map<const BoundExpression*, InListConstants> in_lists_;
  std::unordered_map<const BoundExpression*, bool> may_raise_;
  // A function's constant argument of a fixed-width type, broadcast into its
  // scratch vector once and kept for the next chunks while the vector keeps
  // the same buffer (nothing else writes a function's argument vectors).
  struct ConstantFill {
    const uint8_t* data = nullptr;
    idx_t count = 0;
  };
  std::unordered_map<const Vector*, ConstantFill> constant_fills_;
  // Select's result vector per predicate, reused chunk after chunk.
  std::unordered_map<const BoundExpression*, std::unique_ptr<Vector>> select_masks_;
};

// Appends one row per entry of `rows` (VALUES) to `out`: each expression,
// which has no column reference, evaluated and cast to out's column type.
void EvaluateRows(ExpressionExecutor& executor, const std::vector<std::vector<BoundExprPtr>>& rows, ChunkCollection& out);

}  // namespace lakestream
