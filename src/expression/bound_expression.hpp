// Bound expressions: names resolved to column positions, types checked,
// functions bound to kernels. Produced by the binder, evaluated by
// execution/expression_executor a vector at a time.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/vector.hpp"
#include "function/scalar_function.hpp"

namespace lakestream {

// A column as the binder names it: (table_index, column_index) of the plan
// node that produces it. The physical planner resolves bindings to positions
// in the input chunk (column_index below) once the plan is final.
struct ColumnBinding {
  idx_t table_index = 0;
  idx_t column_index = 0;
  bool operator==(const ColumnBinding& o) const { return table_index == o.table_index && column_index == o.column_index; }
  bool operator<(const ColumnBinding& o) const {
    return table_index != o.table_index ? table_index < o.table_index : column_index < o.column_index;
  }
};

// The column index of a scan's row id binding.
constexpr idx_t ROW_ID_COLUMN = static_cast<idx_t>(-1);

enum class BoundExpressionType : uint8_t {
  CONSTANT,      // value
  COLUMN_REF,    // column_index into the input chunk
  FUNCTION,      // function(children)
  CAST,          // CAST(children[0] AS return_type), try_cast
  CASE,          // children: when1, then1, ..., else (always present; NULL constant when omitted)
  AND,
  OR,
  NOT,
  IS_NULL,
  IS_NOT_NULL,
  IN_LIST,       // children[0] IN (children[1..]); negated for NOT IN
  SUBQUERY,      // a subquery used as a value; IN/NOT IN: children[0] is the probe
};

// What a SUBQUERY node asks of its subquery's rows.
// ANY_<op>: children[0] <op> ANY (subquery), the three-valued OR of the
// comparison over the rows (x op ALL is bound as NOT (x <negated op> ANY);
// = ANY is IN and <> ALL is NOT IN).
enum class SubqueryKind : uint8_t { SCALAR, EXISTS, NOT_EXISTS, IN, NOT_IN, ANY_NE, ANY_LT, ANY_LE, ANY_GT, ANY_GE };
// The operator of an ANY_<op> kind ("<>", "<", "<=", ">", ">="); nullptr for the others.
const char* AnyComparison(SubqueryKind kind);

// A bound subquery's plan (planner/logical_plan.hpp). The binder never runs
// it: the physical planner does (execution/subquery_resolver.hpp) and replaces
// the SUBQUERY node by what the rows make of it (a constant, an IN list).
struct BoundSubquery;

struct BoundExpression {
  BoundExpression(BoundExpressionType type_p, LogicalType return_type_p)
      : type(type_p), return_type(std::move(return_type_p)) {}

  BoundExpressionType type;
  LogicalType return_type;
  std::vector<std::unique_ptr<BoundExpression>> children;
  Value value;              // CONSTANT
  ColumnBinding binding;    // COLUMN_REF, as bound
  idx_t column_index = 0;   // COLUMN_REF, resolved position in the input chunk
  BoundScalarFunction function;  // FUNCTION
  bool try_cast = false;    // CAST
  bool negated = false;     // IN_LIST
  SubqueryKind subquery_kind = SubqueryKind::SCALAR;  // SUBQUERY
  // SUBQUERY: shared by copies of the node, so every copy in a statement
  // sees the rows of one run.
  std::shared_ptr<BoundSubquery> subquery;
  std::string name;         // column name this expression produces (for result headers)

  bool IsConstant() const { return type == BoundExpressionType::CONSTANT; }
  // True when no column reference, subquery (or anything non-deterministic) appears inside.
  bool IsFoldable() const;
  std::unique_ptr<BoundExpression> Copy() const;
  // Structural equality: same node kinds, types, constants, column bindings
  // and functions all the way down. A subquery equals only itself (its rows
  // are one run's), and a non-deterministic call never equals anything, so
  // an optimizer may treat equal expressions as one value.
  bool Equals(const BoundExpression& other) const;
  std::string ToString() const;
};

using BoundExprPtr = std::unique_ptr<BoundExpression>;

BoundExprPtr MakeConstant(Value value);
BoundExprPtr MakeColumnRef(idx_t index, LogicalType type, std::string name = "");
BoundExprPtr MakeBindingRef(ColumnBinding binding, LogicalType type, std::string name = "");
// Adds the table index of every COLUMN_REF's binding inside `expr` to `tables`.
void CollectBindingTables(const BoundExpression& expr, std::set<idx_t>& tables);
// Calls `fn` on every COLUMN_REF inside `expr` (mutable, to resolve or rewrite).
void VisitColumnRefs(BoundExpression& expr, const std::function<void(BoundExpression&)>& fn);
// CAST(expr AS target) unless it already has that type. Constants are cast
// right away; a constant that does not convert throws ConversionError, or with
// `defer_failure` stays a CAST node that throws if a row reaches it (an
// explicit CAST in a CASE branch no row takes must not fail the statement).
BoundExprPtr AddCast(BoundExprPtr expr, const LogicalType& target, bool try_cast = false, bool defer_failure = false);

}  // namespace lakestream
