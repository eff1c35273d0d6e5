// Array functions, with Spark's NULL rules (ANSI off):
//
//   array_contains(a, v)     TRUE when found; else NULL when a has a NULL
//                            element, else FALSE
//   array_position(a, v)     1-based BIGINT position of the first match, 0 if none
//   array_distinct(a)        first occurrences in order; NULL is kept once
//   sort_array(a[, asc])     NULLs first ascending, last descending
//   array_sort(a)            ascending, NULLs last
//   array_max / array_min    NULL elements skipped
//   array_join(a, sep[, null_replacement])  NULL elements skipped unless replaced
//   flatten(a)               NULL when any inner array is NULL
//   slice(a, start, length)  start 1-based (negative: from the end); 0 is an error
//   array_union / array_intersect / array_except: distinct, in first-seen order
//   concat(a, b, ...)        on arrays (string.cpp hands array arguments here):
//                            NULL when any argument is NULL
#include <algorithm>

#include "common/exception.hpp"
#include "function/scalar/nested.hpp"

namespace lakestream {
namespace {

// Argument i as a LIST type; an untyped NULL is a NULL list of `null_element`.
LogicalType ListArgument(const ScalarBindInput& input, idx_t i, const char* accepted,
                         const LogicalType& null_element = TypeId::VARCHAR) {
  const LogicalType& t = input.argument_types[i];
  if (t.id() == TypeId::SQLNULL) return LogicalType::List(null_element);
  if (t.id() != TypeId::LIST) ThrowArgumentError(input, accepted);
  return t;
}

bool Contains(const std::vector<Value>& values, const Value& v) {
  return std::any_of(values.begin(), values.end(), [&](const Value& e) { return e == v; });
}

BoundScalarFunction BindArrayContains(const ScalarBindInput& input, bool position) {
  const char* accepted = position ? "array_position(ARRAY, value)" : "array_contains(ARRAY, value)";
  CheckArgumentCount(input, 2, 2, accepted);
  const LogicalType& value = input.argument_types[1];
  LogicalType list = ListArgument(input, 0, accepted, value.id() == TypeId::SQLNULL ? LogicalType(TypeId::VARCHAR) : value);
  LogicalType common = MaxLogicalType(list.ListChild(), input.argument_types[1]);
  if (common.id() == TypeId::INVALID) {
    throw BinderError(std::string(accepted) + ": cannot look for a " + input.argument_types[1].ToString() + " in a " +
                      list.ToString() + "; CAST the value to " + list.ListChild().ToString());
  }
  LogicalType list_type = LogicalType::List(common);
  if (position) {
    return Bound({list_type, common}, TypeId::BIGINT, RowValueKernel([](const std::vector<Value>& a) {
                   auto& elements = a[0].Children();
                   for (size_t i = 0; i < elements.size(); i++) {
                     if (!elements[i].IsNull() && elements[i] == a[1]) return Value::BIGINT(static_cast<int64_t>(i + 1));
                   }
                   return Value::BIGINT(0);
                 }));
  }
  return Bound({list_type, common}, TypeId::BOOLEAN, RowValueKernel([](const std::vector<Value>& a) {
                 bool saw_null = false;
                 for (auto& e : a[0].Children()) {
                   if (e.IsNull()) {
                     saw_null = true;
                   } else if (e == a[1]) {
                     return Value::BOOLEAN(true);
                   }
                 }
                 return saw_null ? Value(LogicalType(TypeId::BOOLEAN)) : Value::BOOLEAN(false);
               }));
}

std::vector<Value> Distinct(const std::vector<Value>& values) {
  std::vector<Value> out;
  for (auto& v : values) {
    if (!Contains(out, v)) out.push_back(v);
  }
  return out;
}

BoundScalarFunction BindArrayDistinct(const ScalarBindInput& input) {
  const char* accepted = "array_distinct(ARRAY)";
  CheckArgumentCount(input, 1, 1, accepted);
  LogicalType list = ListArgument(input, 0, accepted);
  return Bound({list}, list, RowValueKernel([list](const std::vector<Value>& a) {
                 return Value::LIST(list, Distinct(a[0].Children()));
               }));
}

// Ascending with NULLs at `nulls_first` end; descending reverses the non-NULLs.
std::vector<Value> Sorted(std::vector<Value> values, bool ascending, bool nulls_first) {
  std::stable_sort(values.begin(), values.end(), [&](const Value& l, const Value& r) {
    if (l.IsNull() || r.IsNull()) return !r.IsNull() ? nulls_first : (!l.IsNull() && !nulls_first);
    int c = l.Compare(r);
    return ascending ? c < 0 : c > 0;
  });
  return values;
}

BoundScalarFunction BindSortArray(const ScalarBindInput& input, bool spark_sort_array) {
  const char* accepted = spark_sort_array ? "sort_array(ARRAY[, ascending BOOLEAN])" : "array_sort(ARRAY)";
  CheckArgumentCount(input, 1, spark_sort_array ? 2 : 1, accepted);
  LogicalType list = ListArgument(input, 0, accepted);
  bool ascending = true;
  if (input.argument_types.size() == 2) {
    const Value* v = input.constant_arguments[1];
    if (!v || v->IsNull() || v->type().id() != TypeId::BOOLEAN) {
      throw BinderError("sort_array(): the sort direction must be a constant TRUE (ascending) or FALSE (descending)");
    }
    ascending = v->GetBoolean();
  }
  std::vector<LogicalType> args{list};
  if (input.argument_types.size() == 2) args.emplace_back(TypeId::BOOLEAN);
  // sort_array puts NULLs first ascending and last descending; array_sort always last.
  bool nulls_first = spark_sort_array && ascending;
  return Bound(std::move(args), list, RowValueKernel([list, ascending, nulls_first](const std::vector<Value>& a) {
                 return Value::LIST(list, Sorted(a[0].Children(), ascending, nulls_first));
               }));
}

BoundScalarFunction BindArrayExtreme(const ScalarBindInput& input, bool max) {
  const char* accepted = max ? "array_max(ARRAY)" : "array_min(ARRAY)";
  CheckArgumentCount(input, 1, 1, accepted);
  LogicalType list = ListArgument(input, 0, accepted);
  return Bound({list}, list.ListChild(), RowValueKernel([list, max](const std::vector<Value>& a) {
                 Value best(list.ListChild());
                 for (auto& e : a[0].Children()) {
                   if (e.IsNull()) continue;
                   if (best.IsNull() || (max ? e.Compare(best) > 0 : e.Compare(best) < 0)) best = e;
                 }
                 return best;
               }));
}

BoundScalarFunction BindArrayJoin(const ScalarBindInput& input) {
  const char* accepted = "array_join(ARRAY, delimiter STRING[, null_replacement STRING])";
  CheckArgumentCount(input, 2, 3, accepted);
  LogicalType list = ListArgument(input, 0, accepted);
  if (!ImplicitlyStringCastable(list.ListChild())) ThrowArgumentError(input, accepted);
  std::vector<LogicalType> args{LogicalType::List(TypeId::VARCHAR), TypeId::VARCHAR};
  bool replace = input.argument_types.size() == 3;
  if (replace) args.emplace_back(TypeId::VARCHAR);
  return Bound(std::move(args), TypeId::VARCHAR, RowValueKernel([replace](const std::vector<Value>& a) {
                 std::string out;
                 bool first = true;
                 for (auto& e : a[0].Children()) {
                   if (e.IsNull() && !replace) continue;
                   if (!first) out += a[1].GetString();
                   out += e.IsNull() ? a[2].GetString() : e.GetString();
                   first = false;
                 }
                 return Value::VARCHAR(std::move(out));
               }));
}

BoundScalarFunction BindFlatten(const ScalarBindInput& input) {
  const char* accepted = "flatten(ARRAY<ARRAY>)";
  CheckArgumentCount(input, 1, 1, accepted);
  LogicalType list = ListArgument(input, 0, accepted);
  if (list.ListChild().id() != TypeId::LIST) ThrowArgumentError(input, accepted);
  const LogicalType& inner = list.ListChild();
  return Bound({list}, inner, RowValueKernel([inner](const std::vector<Value>& a) {
                 std::vector<Value> out;
                 for (auto& sub : a[0].Children()) {
                   if (sub.IsNull()) return Value(inner);
                   out.insert(out.end(), sub.Children().begin(), sub.Children().end());
                 }
                 return Value::LIST(inner, std::move(out));
               }));
}

BoundScalarFunction BindSlice(const ScalarBindInput& input) {
  const char* accepted = "slice(ARRAY, start INT, length INT)";
  CheckArgumentCount(input, 3, 3, accepted);
  LogicalType list = ListArgument(input, 0, accepted);
  for (idx_t i = 1; i < 3; i++) {
    if (!input.argument_types[i].IsIntegral() && input.argument_types[i].id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({list, TypeId::BIGINT, TypeId::BIGINT}, list, RowValueKernel([list](const std::vector<Value>& a) {
                 auto& elements = a[0].Children();
                 int64_t n = static_cast<int64_t>(elements.size());
                 int64_t start = a[1].GetBigint();
                 int64_t length = a[2].GetBigint();
                 if (start == 0) throw InvalidInputError("slice(): the start index is 1-based; 0 is not a position (use 1, or -1 for the last)");
                 if (length < 0) throw InvalidInputError("slice(): the length must be 0 or more, got " + std::to_string(length));
                 int64_t from = start > 0 ? start - 1 : n + start;
                 std::vector<Value> out;
                 for (int64_t i = std::max<int64_t>(from, 0); i < n && i < from + length; i++) out.push_back(elements[i]);
                 return Value::LIST(list, std::move(out));
               }));
}

// array_union (0), array_intersect (1), array_except (2).
BoundScalarFunction BindArraySet(const ScalarBindInput& input, int op) {
  static const char* kAccepted[] = {"array_union(ARRAY, ARRAY)", "array_intersect(ARRAY, ARRAY)", "array_except(ARRAY, ARRAY)"};
  CheckArgumentCount(input, 2, 2, kAccepted[op]);
  LogicalType element = MaxLogicalType(ListArgument(input, 0, kAccepted[op]).ListChild(),
                                       ListArgument(input, 1, kAccepted[op]).ListChild());
  if (element.id() == TypeId::INVALID) ThrowArgumentError(input, kAccepted[op]);
  LogicalType list = LogicalType::List(element);
  return Bound({list, list}, list, RowValueKernel([list, op](const std::vector<Value>& a) {
                 std::vector<Value> out;
                 auto& left = a[0].Children();
                 auto& right = a[1].Children();
                 for (auto& v : left) {
                   bool in_right = Contains(right, v);
                   if ((op == 0 || (op == 1 && in_right) || (op == 2 && !in_right)) && !Contains(out, v)) out.push_back(v);
                 }
                 if (op == 0) {
                   for (auto& v : right) {
                     if (!Contains(out, v)) out.push_back(v);
                   }
                 }
                 return Value::LIST(list, std::move(out));
               }));
}

BoundScalarFunction BindArrayConcat(const ScalarBindInput& input) {
  const char* accepted = "concat(ARRAY, ARRAY, ...)";
  if (input.argument_types.empty()) ThrowArgumentError(input, accepted);
  LogicalType element = TypeId::SQLNULL;
  for (auto& t : input.argument_types) {
    if (t.id() == TypeId::SQLNULL) continue;
    if (t.id() != TypeId::LIST) {
      throw BinderError("concat(): cannot concatenate " + t.ToString() + " with arrays; every argument must be an array "
                        "(wrap a single value in array(...))");
    }
    element = MaxLogicalType(element, t.ListChild());
    if (element.id() == TypeId::INVALID) ThrowArgumentError(input, accepted);
  }
  LogicalType list = LogicalType::List(element.id() == TypeId::SQLNULL ? LogicalType(TypeId::VARCHAR) : element);
  std::vector<LogicalType> args(input.argument_types.size(), list);
  return Bound(std::move(args), list, RowValueKernel([list](const std::vector<Value>& a) {
                 std::vector<Value> out;
                 for (auto& l : a) out.insert(out.end(), l.Children().begin(), l.Children().end());
                 return Value::LIST(list, std::move(out));
               }));
}

}  // namespace

BoundScalarFunction BindArrayConcatFunction(const ScalarBindInput& input) { return BindArrayConcat(input); }

void RegisterNestedArrayFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("array_contains", [](const ScalarBindInput& in) { return BindArrayContains(in, false); });
  registry.Register("array_position", [](const ScalarBindInput& in) { return BindArrayContains(in, true); });
  registry.Register("array_distinct", BindArrayDistinct);
  registry.Register("sort_array", [](const ScalarBindInput& in) { return BindSortArray(in, true); });
  registry.Register("array_sort", [](const ScalarBindInput& in) { return BindSortArray(in, false); });
  registry.Register("array_max", [](const ScalarBindInput& in) { return BindArrayExtreme(in, true); });
  registry.Register("array_min", [](const ScalarBindInput& in) { return BindArrayExtreme(in, false); });
  registry.Register("array_join", BindArrayJoin);
  registry.Register("flatten", BindFlatten);
  registry.Register("slice", BindSlice);
  registry.Register("array_union", [](const ScalarBindInput& in) { return BindArraySet(in, 0); });
  registry.Register("array_intersect", [](const ScalarBindInput& in) { return BindArraySet(in, 1); });
  registry.Register("array_except", [](const ScalarBindInput& in) { return BindArraySet(in, 2); });
  registry.Register("array_concat", BindArrayConcat);
}

}  // namespace lakestream
