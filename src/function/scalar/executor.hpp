// Vectorized loop helpers shared by every scalar kernel, plus the small bind
// helpers (argument-type errors, constant arguments) the function families use.
//
// Contract of the executors: inputs are flat vectors of `count` rows with one
// validity byte per row; the executor writes every result row and its
// validity. NULL in any input -> NULL out, and the operation is never called
// for a NULL row (so it may throw or divide without looking at garbage data).
// Operations returning bool through an out-parameter ("Nullable" variants) can
// turn a valid row into NULL (division by zero, unparsable input).
//
// The loops take the operation as a template parameter so each kernel compiles
// to one tight typed loop: no Value, no std::function, no virtual call per row.
#pragma once

#include <string>
#include <vector>

#include "common/exception.hpp"
#include "common/vector.hpp"
#include "function/scalar_function.hpp"

namespace lakestream {

// ---- Executors -------------------------------------------------------------

template <class IN, class OUT, class OP>
inline void UnaryExecute(const Vector& input, Vector& result, idx_t count, OP&& op) {
  const IN* in = input.GetData<IN>();
  OUT* out = result.GetData<OUT>();
  const uint8_t* valid = input.Validity();
  uint8_t* rvalid = result.Validity();
  for (idx_t i = 0; i < count; i++) {
    rvalid[i] = valid[i];
    if (valid[i]) out[i] = op(in[i]);
  }
}

// op(in, out&) -> bool: false makes the row NULL.
template <class IN, class OUT, class OP>
inline void UnaryExecuteNullable(const Vector& input, Vector& result, idx_t count, OP&& op) {
  const IN* in = input.GetData<IN>();
  OUT* out = result.GetData<OUT>();
  const uint8_t* valid = input.Validity();
  uint8_t* rvalid = result.Validity();
  for (idx_t i = 0; i < count; i++) {
    rvalid[i] = valid[i] && op(in[i], out[i]) ? 1 : 0;
  }
}

template <class L, class R, class OUT, class OP>
inline void BinaryExecute(const Vector& left, const Vector& right, Vector& result, idx_t count, OP&& op) {
  const L* l = left.GetData<L>();
  const R* r = right.GetData<R>();
  OUT* out = result.GetData<OUT>();
  const uint8_t* lv = left.Validity();
  const uint8_t* rv = right.Validity();
  uint8_t* res = result.Validity();
  for (idx_t i = 0; i < count; i++) {
    res[i] = lv[i] & rv[i];
    if (res[i]) out[i] = op(l[i], r[i]);
  }
}

// Branch-free variant for cheap, total operations (comparisons) on types for
// which every bit pattern is a valid value: integers, DATE/TIMESTAMP, DOUBLE,
// hugeint_t. The operation also runs on NULL rows, whose slots may hold stale
// or never-written bytes (vectors are not zero-filled); the result there is
// discarded by the validity. Not for bool (a stale byte is not a valid bool)
// nor strings (a NULL row's string_t may point into a released heap).
template <class L, class R, class OUT, class OP>
inline void BinaryExecuteFlat(const Vector& left, const Vector& right, Vector& result, idx_t count, OP&& op) {
  const L* l = left.GetData<L>();
  const R* r = right.GetData<R>();
  OUT* out = result.GetData<OUT>();
  const uint8_t* lv = left.Validity();
  const uint8_t* rv = right.Validity();
  uint8_t* res = result.Validity();
  for (idx_t i = 0; i < count; i++) {
    out[i] = op(l[i], r[i]);
    res[i] = lv[i] & rv[i];
  }
}

// op(l, r, out&) -> bool: false makes the row NULL.
template <class L, class R, class OUT, class OP>
inline void BinaryExecuteNullable(const Vector& left, const Vector& right, Vector& result, idx_t count, OP&& op) {
  const L* l = left.GetData<L>();
  const R* r = right.GetData<R>();
  OUT* out = result.GetData<OUT>();
  const uint8_t* lv = left.Validity();
  const uint8_t* rv = right.Validity();
  uint8_t* res = result.Validity();
  for (idx_t i = 0; i < count; i++) {
    res[i] = lv[i] && rv[i] && op(l[i], r[i], out[i]) ? 1 : 0;
  }
}

// True when row `row` is valid in every vector of `args`.
inline bool AllValid(const DataChunk& args, idx_t row) {
  for (auto& v : args.data) {
    if (!v.IsValid(row)) return false;
  }
  return true;
}

// Copies one row between vectors of the same type. The caller must have made
// `dst` reference `src`'s string heaps (AddHeapReference) for VARCHAR.
void CopyRow(const Vector& src, idx_t src_row, Vector& dst, idx_t dst_row);

// Equality of two rows of the same type (both valid), typed per physical type.
bool RowsEqual(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row);

// ---- Bind helpers ----------------------------------------------------------

inline BoundScalarFunction Bound(std::vector<LogicalType> args, LogicalType ret, scalar_kernel_t kernel) {
  BoundScalarFunction f;
  f.argument_types = std::move(args);
  f.return_type = std::move(ret);
  f.kernel = std::move(kernel);
  return f;
}

// "name(T1, T2)" as shown in error messages.
std::string SignatureString(const std::string& name, const std::vector<LogicalType>& types);

// Throws BinderError: No function matches the given name and argument types
// 'lower(INTEGER)'. Candidate functions: lower(VARCHAR). Add an explicit CAST ...
[[noreturn]] void ThrowArgumentError(const ScalarBindInput& input, const std::string& accepted);

// Throws a BinderError unless the call has between min and max arguments.
void CheckArgumentCount(const ScalarBindInput& input, idx_t min, idx_t max, const std::string& accepted);

// The constant VARCHAR value of argument i, or nullptr when not a constant
// string (NULL constants count as not constant strings).
const std::string* ConstantString(const ScalarBindInput& input, idx_t i);

// True for the types string functions take directly or through an implicit
// cast to VARCHAR (Spark style: concat('id-', 42)): everything but nested types.
bool ImplicitlyStringCastable(const LogicalType& type);

// Common type of all arguments by MaxLogicalType, with untyped NULL treated
// as `null_default`; INVALID when there is none.
LogicalType CommonType(const std::vector<LogicalType>& types, const LogicalType& null_default = TypeId::VARCHAR);

// Family registration helpers the public Register* functions call.
void RegisterMathFunctions(ScalarFunctionRegistry& registry);
void RegisterLikeFunctions(ScalarFunctionRegistry& registry);
void RegisterRegexpFunctions(ScalarFunctionRegistry& registry);

}  // namespace lakestream
