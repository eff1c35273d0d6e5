// Comparison operators = <> != < <= > >= and is_distinct_from /
// is_not_distinct_from.
//
// Both sides are brought to one type with MaxLogicalType (the binder casts);
// a VARCHAR compared with a DATE/TIMESTAMP is read as one (types.hpp), and a
// VARCHAR compared with a number or BOOLEAN is cast to that type, as Spark and
// DuckDB do for `id = '1'`. NULL in -> NULL out, except the distinct-from pair,
// which treat NULL as a value and never return NULL.
// DOUBLE follows Spark's total order: NaN = NaN and NaN is above every number.
// VARCHAR compares bytes, which for UTF-8 is code point order (Spark's binary
// collation).
#include <cmath>
#include <type_traits>

#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

struct Eq {
  template <class T>
  static bool Op(const T& a, const T& b) { return a == b; }
  static bool Op(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
};
struct Ne {
  template <class T>
  static bool Op(const T& a, const T& b) { return !Eq::Op(a, b); }
};
struct Lt {
  template <class T>
  static bool Op(const T& a, const T& b) { return a < b; }
  static bool Op(double a, double b) { return std::isnan(a) ? false : (std::isnan(b) ? true : a < b); }
};
struct Gt {
  template <class T>
  static bool Op(const T& a, const T& b) { return Lt::Op(b, a); }
};
struct Le {
  template <class T>
  static bool Op(const T& a, const T& b) { return !Lt::Op(b, a); }
};
struct Ge {
  template <class T>
  static bool Op(const T& a, const T& b) { return !Lt::Op(a, b); }
};

template <class T, class OP>
void CompareLoop(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  auto op = [](const T& a, const T& b) { return OP::Op(a, b); };
  if constexpr (std::is_same_v<T, string_t> || std::is_same_v<T, bool>) {
    BinaryExecute<T, T, bool>(args.data[0], args.data[1], result, count, op);
  } else {
    BinaryExecuteFlat<T, T, bool>(args.data[0], args.data[1], result, count, op);
  }
}

// DECIMAL of at most 18 digits: its int128 values fit in int64, and the
// comparison of the low halves vectorizes where the int128 one does not.
template <class OP>
void CompareDecimal64(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  BinaryExecuteFlat<hugeint_t, hugeint_t, bool>(args.data[0], args.data[1], result, count, [](hugeint_t a, hugeint_t b) {
    return OP::Op(static_cast<int64_t>(a), static_cast<int64_t>(b));
  });
}

// Nested values (STRUCT, LIST, MAP) compare field by field through Value:
// rare in predicates, so clarity wins over speed here.
template <class OP>
void CompareNested(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  bool* out = result.GetData<bool>();
  for (idx_t i = 0; i < count; i++) {
    bool valid = args.data[0].IsValid(i) && args.data[1].IsValid(i);
    result.SetValid(i, valid);
    if (valid) out[i] = OP::Op(args.data[0].GetValue(i).Compare(args.data[1].GetValue(i)), 0);
  }
}

// The selection form of a comparison (scalar_select_t): the rows of `sel`
// where OP(left, right) is TRUE. STORED is the vector's physical type, CMP
// the type compared (a DECIMAL of at most 18 digits: the low 64 bits).
// Branch-free for fixed-width types, whose every bit pattern is a value (a
// NULL row's stale slot is compared and dropped by its validity); strings
// are compared only where both sides are valid (a NULL row's string_t may
// point into a released heap).
template <class STORED, class CMP, class OP, bool LC, bool RC, bool HAS_SEL>
idx_t SelectRows(const STORED* l, const uint8_t* lv, const STORED* r, const uint8_t* rv, const sel_t* sel, idx_t count,
                 sel_t* out) {
  idx_t n = 0;
  for (idx_t k = 0; k < count; k++) {
    const idx_t i = HAS_SEL ? sel[k] : k;
    const idx_t li = LC ? 0 : i;
    const idx_t ri = RC ? 0 : i;
    bool pass;
    if constexpr (std::is_same_v<STORED, string_t>) {
      pass = lv[li] != 0 && rv[ri] != 0 && OP::Op(l[li], r[ri]);
    } else {
      pass = OP::Op(static_cast<CMP>(l[li]), static_cast<CMP>(r[ri])) & ((lv[li] & rv[ri]) != 0);
    }
    out[n] = static_cast<sel_t>(i);
    n += static_cast<idx_t>(pass);
  }
  return n;
}

template <class STORED, class CMP, class OP, bool LC, bool RC>
idx_t SelectWith(const Vector& left, const Vector& right, const sel_t* sel, idx_t count, sel_t* out) {
  const STORED* l = left.GetData<STORED>();
  const STORED* r = right.GetData<STORED>();
  if (sel) return SelectRows<STORED, CMP, OP, LC, RC, true>(l, left.Validity(), r, right.Validity(), sel, count, out);
  return SelectRows<STORED, CMP, OP, LC, RC, false>(l, left.Validity(), r, right.Validity(), sel, count, out);
}

template <class STORED, class CMP, class OP>
idx_t SelectCompare(const Vector& left, bool left_constant, const Vector& right, bool right_constant, const sel_t* sel,
                    idx_t count, sel_t* out) {
  if (left_constant && right_constant) return SelectWith<STORED, CMP, OP, true, true>(left, right, sel, count, out);
  if (left_constant) return SelectWith<STORED, CMP, OP, true, false>(left, right, sel, count, out);
  if (right_constant) return SelectWith<STORED, CMP, OP, false, true>(left, right, sel, count, out);
  return SelectWith<STORED, CMP, OP, false, false>(left, right, sel, count, out);
}

// Null for the types without a selection form (BOOLEAN: a stale byte is not
// a valid bool; nested types): the caller evaluates the kernel instead.
template <class OP>
scalar_select_t ComparisonSelect(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::INTEGER:
    case TypeId::DATE: return SelectCompare<int32_t, int32_t, OP>;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return SelectCompare<int64_t, int64_t, OP>;
    case TypeId::DOUBLE: return SelectCompare<double, double, OP>;
    case TypeId::DECIMAL:
      return type.width() <= 18 ? SelectCompare<hugeint_t, int64_t, OP> : SelectCompare<hugeint_t, hugeint_t, OP>;
    case TypeId::VARCHAR: return SelectCompare<string_t, string_t, OP>;
    default: return nullptr;
  }
}

template <class OP>
scalar_kernel_t ComparisonKernel(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN: return CompareLoop<bool, OP>;
    case TypeId::INTEGER:
    case TypeId::DATE: return CompareLoop<int32_t, OP>;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return CompareLoop<int64_t, OP>;
    case TypeId::DOUBLE: return CompareLoop<double, OP>;
    case TypeId::DECIMAL: return type.width() <= 18 ? scalar_kernel_t(CompareDecimal64<OP>) : scalar_kernel_t(CompareLoop<hugeint_t, OP>);
    case TypeId::VARCHAR: return CompareLoop<string_t, OP>;
    default: return CompareNested<OP>;
  }
}

// The type both sides are compared in; BinderError when there is none.
LogicalType ComparisonType(const ScalarBindInput& input) {
  auto& t = input.argument_types;
  if (t.size() != 2) {
    throw BinderError("Operator \"" + input.name + "\" takes two arguments, got " + std::to_string(t.size()));
  }
  LogicalType common = CommonType(t, TypeId::BOOLEAN);
  if (common.id() == TypeId::INVALID) {
    auto castable = [](const LogicalType& x) { return x.IsNumeric() || x.id() == TypeId::BOOLEAN; };
    if (t[0].id() == TypeId::VARCHAR && castable(t[1])) return t[1];
    if (t[1].id() == TypeId::VARCHAR && castable(t[0])) return t[0];
    throw BinderError("Cannot compare values of type " + t[0].ToString() + " and " + t[1].ToString() + " with \"" +
                      input.name + "\": " + SignatureString(input.name, t) +
                      " has no common type. Add an explicit CAST so both sides have the same type.");
  }
  return common;
}

template <class OP>
BoundScalarFunction BindComparison(const ScalarBindInput& input) {
  LogicalType t = ComparisonType(input);
  BoundScalarFunction f = Bound({t, t}, TypeId::BOOLEAN, ComparisonKernel<OP>(t));
  f.select = ComparisonSelect<OP>(t);
  return f;
}

template <bool DISTINCT>
BoundScalarFunction BindDistinctFrom(const ScalarBindInput& input) {
  LogicalType t = ComparisonType(input);
  auto equal = ComparisonKernel<Eq>(t);
  BoundScalarFunction f = Bound({t, t}, TypeId::BOOLEAN, [equal](DataChunk& args, Vector& result, idx_t count,
                                                                 const FunctionContext& ctx) {
    equal(args, result, count, ctx);  // NULL where either side is NULL; fixed up below
    bool* out = result.GetData<bool>();
    for (idx_t i = 0; i < count; i++) {
      bool l = args.data[0].IsValid(i), r = args.data[1].IsValid(i);
      bool same = (l && r) ? out[i] : (l == r);  // NULL is not distinct from NULL
      out[i] = DISTINCT ? !same : same;
      result.SetValid(i, true);
    }
  });
  f.handles_nulls = true;
  return f;
}

}  // namespace

void RegisterComparisonFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("=", BindComparison<Eq>);
  registry.Register("==", BindComparison<Eq>);
  registry.Register("<>", BindComparison<Ne>);
  registry.Register("!=", BindComparison<Ne>);
  registry.Register("<", BindComparison<Lt>);
  registry.Register("<=", BindComparison<Le>);
  registry.Register(">", BindComparison<Gt>);
  registry.Register(">=", BindComparison<Ge>);
  registry.Register("is_distinct_from", BindDistinctFrom<true>);
  registry.Register("is_not_distinct_from", BindDistinctFrom<false>);
  registry.Register("<=>", BindDistinctFrom<false>);  // Spark's null-safe equality
}

}  // namespace lakestream
