// Drives ScalarFunctionRegistry directly (no binder, no executor): bind with
// argument types, fill a DataChunk, run the kernel, read the result back.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/exception.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"
#include "function/scalar_function.hpp"

namespace lakestream {
// Readable gtest failure output.
inline void PrintTo(const LogicalType& t, std::ostream* os) { *os << t.ToString(); }
inline void PrintTo(const Value& v, std::ostream* os) { *os << v.ToSQLString() << " :: " << v.type().ToString(); }
}  // namespace lakestream

namespace lakestream::test {

struct ScalarRun {
  BoundScalarFunction bound;
  std::vector<Value> values;  // one per row
};

// Binds `name` for `types` (constants: values of constant arguments, or
// nullptr) and runs it on `rows` (each row one Value per argument, cast to
// the bound argument types as the binder would).
inline ScalarRun RunRows(const std::string& name, const std::vector<LogicalType>& types,
                         const std::vector<std::vector<Value>>& rows, const std::vector<const Value*>& constants = {},
                         const std::vector<std::string>& names = {}, timestamp_t now = 0) {
  ScalarRun run;
  run.bound = ScalarFunctionRegistry::Get().Bind(name, types, constants, names);
  idx_t capacity = std::max<idx_t>(rows.size(), STANDARD_VECTOR_SIZE);
  DataChunk args;
  args.Initialize(run.bound.argument_types, capacity);
  for (idx_t r = 0; r < rows.size(); r++) {
    for (idx_t c = 0; c < rows[r].size(); c++) args.SetValue(c, r, rows[r][c].CastAs(run.bound.argument_types[c]));
  }
  args.SetCardinality(rows.size());
  Vector result(run.bound.return_type, capacity);
  // Dirty the result so kernels must write every row's validity.
  for (idx_t r = 0; r < rows.size(); r++) result.SetValid(r, r % 2 == 0);
  FunctionContext ctx;
  ctx.statement_start = now;
  run.bound.kernel(args, result, rows.size(), ctx);
  for (idx_t r = 0; r < rows.size(); r++) run.values.push_back(result.GetValue(r));
  return run;
}

// One row whose arguments are all constants (as for literals).
inline Value Eval(const std::string& name, const std::vector<Value>& args, timestamp_t now = 0) {
  std::vector<LogicalType> types;
  std::vector<const Value*> constants;
  for (auto& a : args) {
    types.push_back(a.type());
    constants.push_back(&a);
  }
  return RunRows(name, types, {args}, constants, {}, now).values[0];
}

inline LogicalType EvalType(const std::string& name, const std::vector<LogicalType>& types) {
  return ScalarFunctionRegistry::Get().Bind(name, types, {}, {}).return_type;
}

inline Value Dec(const char* text, uint8_t width, uint8_t scale) { return Value(text).CastAs(LogicalType::Decimal(width, scale)); }
inline Value Null(TypeId id) { return Value(LogicalType(id)); }

// The message of the exception `fn` throws, "" when it does not throw.
template <class EXC, class FN>
std::string ErrorOf(FN&& fn) {
  try {
    fn();
  } catch (const EXC& e) {
    return e.RawMessage();
  }
  return "";
}

}  // namespace lakestream::test
