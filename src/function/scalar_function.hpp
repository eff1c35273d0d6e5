// Scalar functions and operators: lower(), round(), date_trunc(), `+`, `=`, ...
//
// A function is registered under one or more names with a bind callback. The
// binder calls Bind with the argument types (and the values of arguments that
// are constants, e.g. the unit of date_trunc); the callback either returns a
// BoundScalarFunction (the argument types the binder must cast to, the return
// type, and the vectorized kernel) or throws BinderError naming the function,
// the argument types it got and the signatures it accepts.
//
// Kernels run a vector at a time: `args` holds one vector per argument, already
// cast to the bound argument types, with `count` rows; the kernel writes
// `result` (of the bound return type) for all `count` rows, including its
// validity. Unless a function says otherwise, NULL in -> NULL out. Runtime
// failures (overflow, bad input) throw ConversionError/InvalidInputError
// naming the function and the value.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/vector.hpp"

namespace lakestream {

class ClientContext;

// Per-query state a kernel may need (the statement's start time for
// current_timestamp(); the session for stream_has_data(), null when an
// expression is folded while binding).
struct FunctionContext {
  timestamp_t statement_start = 0;
  ClientContext* client = nullptr;
};

// Which rows the executor evaluates each argument on. ALL: every row. The
// others are SQL's conditional forms, whose arguments run only on the rows
// that need them (so a branch no row takes never raises an overflow or a cast
// error); the rows an argument skips reach the kernel as NULL.
enum class ArgumentEvaluation : uint8_t {
  ALL,
  FIRST_NON_NULL,  // coalesce(a, b, ...): each argument on the rows where all before it are NULL
  CONDITIONAL,     // if(cond, a, b): cond everywhere, a where cond is TRUE, b elsewhere
};

using scalar_kernel_t = std::function<void(DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx)>;

// A predicate's selection form (comparisons): of the `count` rows named by
// `sel` (ascending; null: rows 0..count-1), writes to `true_sel` those where
// the function over the two arguments is TRUE (not FALSE, not NULL) and
// returns how many. An argument flagged constant holds its value in row 0
// for every row. `true_sel` may be `sel` itself. Filters use it to test only
// the rows earlier filters kept, with no boolean vector and no broadcast
// constant (expression/expression_executor.hpp).
using scalar_select_t = idx_t (*)(const Vector& left, bool left_constant, const Vector& right, bool right_constant,
                                  const sel_t* sel, idx_t count, sel_t* true_sel);

struct BoundScalarFunction {
  std::string name;
  std::vector<LogicalType> argument_types;  // the binder casts each argument to these
  LogicalType return_type;
  scalar_kernel_t kernel;
  // Optional (comparisons of two arguments): the same function as a selection.
  scalar_select_t select = nullptr;
  // False for current_timestamp() and similar: never constant-folded and
  // marks a view as needing recompute-and-diff.
  bool deterministic = true;
  // True when the kernel handles NULL inputs itself (coalesce, concat, to_json);
  // otherwise the caller may rely on NULL in -> NULL out.
  bool handles_nulls = false;
  ArgumentEvaluation evaluation = ArgumentEvaluation::ALL;
};

struct ScalarBindInput {
  const std::string& name;  // lower-cased name the user called
  const std::vector<LogicalType>& argument_types;
  // For each argument: the value when it is a constant, else nullptr.
  const std::vector<const Value*>& constant_arguments;
  // Field names for struct(...) / named_struct(...) built from columns
  // (the argument's column name or alias), "" where unknown.
  const std::vector<std::string>& argument_names;
};

using scalar_bind_t = std::function<BoundScalarFunction(const ScalarBindInput& input)>;

class ScalarFunctionRegistry {
 public:
  // The process-wide registry with every built-in function.
  static const ScalarFunctionRegistry& Get();

  void Register(const std::string& name, scalar_bind_t bind);
  bool Exists(const std::string& name) const;
  // Throws BinderError "Scalar function foo(INTEGER) does not exist" (with a
  // hint for close names) when the name is unknown.
  BoundScalarFunction Bind(const std::string& name, const std::vector<LogicalType>& argument_types,
                           const std::vector<const Value*>& constant_arguments,
                           const std::vector<std::string>& argument_names) const;
  std::vector<std::string> Names() const;

 private:
  std::unordered_map<std::string, scalar_bind_t> functions_;
};

// Each file under function/scalar/ registers its family through one of these;
// scalar_function.cpp calls them all when building the registry.
void RegisterArithmeticFunctions(ScalarFunctionRegistry& registry);  // + - * / % negate, abs, round, floor, ceil, mod, ...
void RegisterComparisonFunctions(ScalarFunctionRegistry& registry);  // = <> < <= > >= (operator names)
void RegisterStringFunctions(ScalarFunctionRegistry& registry);      // lower, upper, length, substring, concat, ||, trim, replace, split_part, like, ...
void RegisterDateFunctions(ScalarFunctionRegistry& registry);        // current_timestamp, date_trunc, date_part/extract, year, date_add, datediff, ...
void RegisterNestedFunctions(ScalarFunctionRegistry& registry);      // struct, named_struct, to_json
void RegisterGenericFunctions(ScalarFunctionRegistry& registry);     // coalesce, nullif, ifnull, greatest, least, hash
void RegisterStreamFunctions(ScalarFunctionRegistry& registry);      // stream_has_data

}  // namespace lakestream
