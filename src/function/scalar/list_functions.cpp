// DuckDB's list_* functions, with DuckDB's NULL rules (which differ from the
// Spark array_* functions of nested_array.cpp beside them):
//
//   list_sum/avg/min/max/count/product/first/last/bool_and/bool_or(l),
//   list_aggregate(l, 'name'[, separator]) (alias list_aggr)
//                                  NULL elements skipped (count counts the
//                                  non-NULL ones); an empty list gives NULL
//                                  (count: 0). Sums of integers are BIGINT
//                                  (DuckDB: HUGEINT), of DECIMAL(p, s) DECIMAL(38, s)
//   list_sort(l[, 'ASC'|'DESC'[, 'NULLS FIRST'|'NULLS LAST']]), list_reverse_sort(l[, nulls])
//                                  NULLs last unless asked otherwise
//   list_distinct(l)               distinct non-NULL elements, first-seen order
//                                  (DuckDB's order is unspecified)
//   list_unique(l)                 BIGINT count of distinct non-NULL elements
//   list_contains/list_has(l, v)   TRUE/FALSE (a NULL element never makes it NULL);
//                                  NULL when v is NULL
//   list_position/list_indexof(l, v)  1-based INTEGER, NULL when absent; finds NULL too
//   list_concat/list_cat(a, b)     a NULL list counts as empty
//   list_slice(l, begin, end)      1-based, inclusive, negative counts from the end
//   array_length(l), len(l)        BIGINT element count
//   list_has_any(a, b), list_has_all(a, b)
//   range(stop) / range(start, stop[, step])       BIGINT[], stop excluded
//   generate_series(start, stop[, step])           BIGINT[], stop included
//   array_to_string(l, sep)        array_join's 2-argument form
//   row(a, b, ...)                 struct(a, b, ...)
//
// Per-row work (sorting, hashing) is far above the cost of reading a row as
// Values, so the kernels are RowValueKernel ones, as nested_array.cpp's.
#include <algorithm>
#include <cmath>

#include "common/decimal.hpp"
#include "function/scalar/duckdb_functions.hpp"
#include "function/scalar/nested.hpp"

namespace lakestream {
namespace {

LogicalType ListArg(const ScalarBindInput& input, idx_t i, const std::string& accepted) {
  const LogicalType& t = input.argument_types[i];
  if (t.id() == TypeId::SQLNULL) return LogicalType::List(TypeId::INTEGER);
  if (t.id() != TypeId::LIST) ThrowArgumentError(input, accepted);
  return t;
}

std::vector<Value> NonNull(const std::vector<Value>& values) {
  std::vector<Value> out;
  for (auto& v : values) {
    if (!v.IsNull()) out.push_back(v);
  }
  return out;
}

// ---- list_aggregate --------------------------------------------------------

enum class ListAgg { SUM, AVG, MIN, MAX, COUNT, PRODUCT, FIRST, LAST, STRING_AGG, BOOL_AND, BOOL_OR };

ListAgg ParseListAgg(const std::string& name) {
  static const std::vector<std::pair<std::string, ListAgg>> kNames = {
      {"sum", ListAgg::SUM}, {"avg", ListAgg::AVG}, {"mean", ListAgg::AVG}, {"min", ListAgg::MIN}, {"max", ListAgg::MAX},
      {"count", ListAgg::COUNT}, {"product", ListAgg::PRODUCT}, {"first", ListAgg::FIRST}, {"any_value", ListAgg::FIRST},
      {"last", ListAgg::LAST}, {"string_agg", ListAgg::STRING_AGG}, {"listagg", ListAgg::STRING_AGG},
      {"group_concat", ListAgg::STRING_AGG}, {"bool_and", ListAgg::BOOL_AND}, {"bool_or", ListAgg::BOOL_OR}};
  for (auto& [n, kind] : kNames) {
    if (n == name) return kind;
  }
  throw NotImplementedError("list_aggregate with the aggregate '" + name +
                            "' (supported: sum, avg, min, max, count, product, first, last, string_agg, bool_and, bool_or)");
}

LogicalType ListAggType(ListAgg kind, const LogicalType& element, const std::string& function) {
  auto need = [&](bool ok, const char* what) {
    if (!ok) throw BinderError(function + "(): cannot take the " + what + " of a list of " + element.ToString() + "; CAST the list to a numeric list such as DOUBLE[]");
  };
  switch (kind) {
    case ListAgg::SUM:
      need(element.IsNumeric() || element.id() == TypeId::SQLNULL, "sum");
      if (element.id() == TypeId::DECIMAL) return LogicalType::Decimal(38, element.scale());
      return element.id() == TypeId::DOUBLE ? LogicalType(TypeId::DOUBLE) : LogicalType(TypeId::BIGINT);
    case ListAgg::AVG:
    case ListAgg::PRODUCT:
      need(element.IsNumeric() || element.id() == TypeId::SQLNULL, kind == ListAgg::AVG ? "average" : "product");
      return TypeId::DOUBLE;
    case ListAgg::COUNT: return TypeId::BIGINT;
    case ListAgg::STRING_AGG: return TypeId::VARCHAR;
    case ListAgg::BOOL_AND:
    case ListAgg::BOOL_OR:
      need(element.id() == TypeId::BOOLEAN || element.id() == TypeId::SQLNULL, "bool_and/bool_or");
      return TypeId::BOOLEAN;
    default: return element;
  }
}

Value ListAggregate(ListAgg kind, const LogicalType& ret, const std::vector<Value>& all, const std::string& separator) {
  std::vector<Value> values = NonNull(all);
  if (kind == ListAgg::COUNT) return Value::BIGINT(static_cast<int64_t>(values.size()));
  if (values.empty()) return Value(ret);
  switch (kind) {
    case ListAgg::SUM: {
      if (ret.id() == TypeId::DOUBLE) {
        double s = 0;
        for (auto& v : values) s += v.AsDouble();
        return Value::DOUBLE(s);
      }
      if (ret.id() == TypeId::DECIMAL) {
        hugeint_t s = 0;
        for (auto& v : values) s += v.GetHugeint();
        return Value::DECIMAL(s, ret.width(), ret.scale());
      }
      int64_t s = 0;
      for (auto& v : values) {
        if (__builtin_add_overflow(s, v.AsBigint(), &s)) throw InvalidInputError("list_sum(): the sum does not fit in BIGINT; CAST the list to DOUBLE[] or DECIMAL(38,0)[]");
      }
      return Value::BIGINT(s);
    }
    case ListAgg::AVG: {
      double s = 0;
      for (auto& v : values) s += v.AsDouble();
      return Value::DOUBLE(s / static_cast<double>(values.size()));
    }
    case ListAgg::PRODUCT: {
      double p = 1;
      for (auto& v : values) p *= v.AsDouble();
      return Value::DOUBLE(p);
    }
    case ListAgg::MIN:
    case ListAgg::MAX: {
      Value best = values[0];
      for (auto& v : values) {
        int c = v.Compare(best);
        if (kind == ListAgg::MIN ? c < 0 : c > 0) best = v;
      }
      return best;
    }
    case ListAgg::FIRST: return all[0];
    case ListAgg::LAST: return all.back();
    case ListAgg::STRING_AGG: {
      std::string out;
      for (size_t i = 0; i < values.size(); i++) {
        if (i) out += separator;
        out += values[i].CastAs(TypeId::VARCHAR).GetString();
      }
      return Value::VARCHAR(std::move(out));
    }
    case ListAgg::BOOL_AND:
    case ListAgg::BOOL_OR: {
      bool acc = kind == ListAgg::BOOL_AND;
      for (auto& v : values) acc = kind == ListAgg::BOOL_AND ? acc && v.GetBoolean() : acc || v.GetBoolean();
      return Value::BOOLEAN(acc);
    }
    default: return Value(ret);
  }
}

// list_aggregate(l, name[, sep]) when `fixed` is empty, else list_<fixed>(l).
BoundScalarFunction BindListAggregate(const ScalarBindInput& input, const std::string& fixed) {
  std::string accepted = fixed.empty() ? input.name + "(LIST, aggregate VARCHAR[, separator VARCHAR])" : input.name + "(LIST)";
  CheckArgumentCount(input, 1, fixed.empty() ? 3 : 1, accepted);
  LogicalType list = ListArg(input, 0, accepted);
  std::string name = fixed;
  if (fixed.empty()) {
    if (input.argument_types.size() < 2) ThrowArgumentError(input, accepted);
    const std::string* agg = ConstantString(input, 1);
    if (!agg) throw BinderError(input.name + "(): the aggregate name must be a constant string, e.g. " + input.name + "(l, 'sum')");
    name = *agg;
    for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  ListAgg kind = ParseListAgg(name);
  std::string separator = ",";
  if (input.argument_types.size() == 3) {
    if (kind != ListAgg::STRING_AGG) throw BinderError(input.name + "(): only string_agg takes a third argument (the separator)");
    const std::string* sep = ConstantString(input, 2);
    if (!sep) throw BinderError(input.name + "(): the separator must be a constant string");
    separator = *sep;
  }
  LogicalType ret = ListAggType(kind, list.ListChild(), input.name);
  std::vector<LogicalType> args{list};
  for (idx_t i = 1; i < input.argument_types.size(); i++) args.emplace_back(TypeId::VARCHAR);
  return Bound(std::move(args), ret, RowValueKernel([kind, ret, separator](const std::vector<Value>& a) {
                 return ListAggregate(kind, ret, a[0].Children(), separator);
               }));
}

// ---- sorting, distinct -----------------------------------------------------

std::string Upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

BoundScalarFunction BindListSort(const ScalarBindInput& input, bool reverse) {
  std::string accepted = reverse ? "list_reverse_sort(LIST[, 'NULLS FIRST'|'NULLS LAST'])"
                                 : "list_sort(LIST[, 'ASC'|'DESC'[, 'NULLS FIRST'|'NULLS LAST']])";
  CheckArgumentCount(input, 1, reverse ? 2 : 3, accepted);
  LogicalType list = ListArg(input, 0, accepted);
  bool descending = reverse, nulls_first = false;
  for (idx_t i = 1; i < input.argument_types.size(); i++) {
    const std::string* option = ConstantString(input, i);
    if (!option) throw BinderError(input.name + "(): the sort order must be a constant string: " + accepted);
    std::string o = Upper(*option);
    bool order_slot = !reverse && i == 1;
    if (order_slot && (o == "ASC" || o == "DESC")) {
      descending = o == "DESC";
    } else if (!order_slot && (o == "NULLS FIRST" || o == "NULLS LAST")) {
      nulls_first = o == "NULLS FIRST";
    } else {
      throw InvalidInputError(input.name + "(): unknown sort option '" + *option + "'; " + accepted);
    }
  }
  std::vector<LogicalType> args{list};
  for (idx_t i = 1; i < input.argument_types.size(); i++) args.emplace_back(TypeId::VARCHAR);
  return Bound(std::move(args), list, RowValueKernel([list, descending, nulls_first](const std::vector<Value>& a) {
                 std::vector<Value> values = NonNull(a[0].Children());
                 size_t nulls = a[0].Children().size() - values.size();
                 std::stable_sort(values.begin(), values.end(), [&](const Value& l, const Value& r) {
                   int c = l.Compare(r);
                   return descending ? c > 0 : c < 0;
                 });
                 std::vector<Value> out;
                 if (nulls_first) out.insert(out.end(), nulls, Value(list.ListChild()));
                 out.insert(out.end(), values.begin(), values.end());
                 if (!nulls_first) out.insert(out.end(), nulls, Value(list.ListChild()));
                 return Value::LIST(list, std::move(out));
               }));
}

std::vector<Value> DistinctNonNull(const std::vector<Value>& values) {
  std::vector<Value> out;
  for (auto& v : values) {
    if (v.IsNull()) continue;
    if (std::none_of(out.begin(), out.end(), [&](const Value& e) { return e == v; })) out.push_back(v);
  }
  return out;
}

BoundScalarFunction BindListDistinct(const ScalarBindInput& input, bool count) {
  std::string accepted = input.name + "(LIST)";
  CheckArgumentCount(input, 1, 1, accepted);
  LogicalType list = ListArg(input, 0, accepted);
  if (count) {
    return Bound({list}, TypeId::BIGINT, RowValueKernel([](const std::vector<Value>& a) {
                   return Value::BIGINT(static_cast<int64_t>(DistinctNonNull(a[0].Children()).size()));
                 }));
  }
  return Bound({list}, list, RowValueKernel([list](const std::vector<Value>& a) {
                 return Value::LIST(list, DistinctNonNull(a[0].Children()));
               }));
}

// ---- search --------------------------------------------------------------

// The list type and element type both arguments are cast to.
LogicalType CommonList(const ScalarBindInput& input, const std::string& accepted) {
  LogicalType list = ListArg(input, 0, accepted);
  const LogicalType& value = input.argument_types[1];
  LogicalType element = value.id() == TypeId::SQLNULL ? list.ListChild() : MaxLogicalType(list.ListChild(), value);
  if (element.id() == TypeId::INVALID) {
    throw BinderError(input.name + "(): cannot look for a " + value.ToString() + " in a " + list.ToString() + "; CAST the value to " + list.ListChild().ToString());
  }
  return element;
}

BoundScalarFunction BindListContains(const ScalarBindInput& input) {
  std::string accepted = input.name + "(LIST, value)";
  CheckArgumentCount(input, 2, 2, accepted);
  LogicalType element = CommonList(input, accepted);
  return Bound({LogicalType::List(element), element}, TypeId::BOOLEAN, RowValueKernel([](const std::vector<Value>& a) {
                 for (auto& e : a[0].Children()) {
                   if (!e.IsNull() && e == a[1]) return Value::BOOLEAN(true);
                 }
                 return Value::BOOLEAN(false);
               }));
}

BoundScalarFunction BindListPosition(const ScalarBindInput& input) {
  std::string accepted = input.name + "(LIST, value)";
  CheckArgumentCount(input, 2, 2, accepted);
  LogicalType element = CommonList(input, accepted);
  // NULL is found like any value, so the kernel sees NULL arguments itself.
  BoundScalarFunction f = Bound({LogicalType::List(element), element}, TypeId::INTEGER, RowValueKernel([](const std::vector<Value>& a) {
                                  if (a[0].IsNull()) return Value(LogicalType(TypeId::INTEGER));
                                  auto& elements = a[0].Children();
                                  for (size_t i = 0; i < elements.size(); i++) {
                                    bool same = elements[i].IsNull() ? a[1].IsNull() : !a[1].IsNull() && elements[i] == a[1];
                                    if (same) return Value::INTEGER(static_cast<int32_t>(i + 1));
                                  }
                                  return Value(LogicalType(TypeId::INTEGER));
                                }, false));
  f.handles_nulls = true;
  return f;
}

BoundScalarFunction BindListHas(const ScalarBindInput& input, bool all) {
  std::string accepted = input.name + "(LIST, LIST)";
  CheckArgumentCount(input, 2, 2, accepted);
  LogicalType element = MaxLogicalType(ListArg(input, 0, accepted).ListChild(), ListArg(input, 1, accepted).ListChild());
  if (element.id() == TypeId::INVALID) ThrowArgumentError(input, accepted);
  LogicalType list = LogicalType::List(element);
  return Bound({list, list}, TypeId::BOOLEAN, RowValueKernel([all](const std::vector<Value>& a) {
                 auto& left = a[0].Children();
                 auto found = [&](const Value& v) { return std::any_of(left.begin(), left.end(), [&](const Value& e) { return !e.IsNull() && e == v; }); };
                 for (auto& v : a[1].Children()) {
                   if (v.IsNull()) continue;
                   bool in = found(v);
                   if (all && !in) return Value::BOOLEAN(false);
                   if (!all && in) return Value::BOOLEAN(true);
                 }
                 return Value::BOOLEAN(all);
               }));
}

// ---- shape -----------------------------------------------------------------

BoundScalarFunction BindListConcat(const ScalarBindInput& input) {
  std::string accepted = input.name + "(LIST, LIST)";
  CheckArgumentCount(input, 2, 2, accepted);
  LogicalType element = MaxLogicalType(ListArg(input, 0, accepted).ListChild(), ListArg(input, 1, accepted).ListChild());
  if (element.id() == TypeId::INVALID) ThrowArgumentError(input, accepted);
  LogicalType list = LogicalType::List(element);
  BoundScalarFunction f = Bound({list, list}, list, RowValueKernel([list](const std::vector<Value>& a) {
                                  if (a[0].IsNull() && a[1].IsNull()) return Value(list);
                                  std::vector<Value> out;
                                  for (auto& l : a) out.insert(out.end(), l.Children().begin(), l.Children().end());
                                  return Value::LIST(list, std::move(out));
                                }, false));
  f.handles_nulls = true;
  return f;
}

BoundScalarFunction BindListSlice(const ScalarBindInput& input) {
  const char* accepted = "list_slice(LIST, begin BIGINT, end BIGINT)";
  CheckArgumentCount(input, 3, 3, accepted);
  LogicalType list = ListArg(input, 0, accepted);
  for (idx_t i = 1; i < 3; i++) {
    if (!input.argument_types[i].IsIntegral() && input.argument_types[i].id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  return Bound({list, TypeId::BIGINT, TypeId::BIGINT}, list, RowValueKernel([list](const std::vector<Value>& a) {
                 auto& elements = a[0].Children();
                 int64_t n = static_cast<int64_t>(elements.size());
                 int64_t begin = a[1].GetBigint(), end = a[2].GetBigint();
                 if (begin < 0) begin = std::max<int64_t>(n + begin + 1, 1);
                 if (begin == 0) begin = 1;
                 if (end < 0) end = n + end + 1;
                 end = std::min(end, n);
                 std::vector<Value> out;
                 for (int64_t i = begin; i <= end; i++) out.push_back(elements[i - 1]);
                 return Value::LIST(list, std::move(out));
               }));
}

BoundScalarFunction BindArrayLength(const ScalarBindInput& input) {
  std::string accepted = input.name + "(LIST)";
  CheckArgumentCount(input, 1, 1, accepted);
  LogicalType list = ListArg(input, 0, accepted);
  return Bound({list}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    UnaryExecute<list_entry_t, int64_t>(a.data[0], r, c, [](list_entry_t e) { return static_cast<int64_t>(e.length); });
  });
}

// len(list) here, len(text) the string function registered before.
scalar_bind_t Len(const scalar_bind_t& text_len) {
  return [text_len](const ScalarBindInput& input) {
    if (input.argument_types.size() == 1 && input.argument_types[0].id() == TypeId::LIST) return BindArrayLength(input);
    return text_len(input);
  };
}

// range (stop excluded) and generate_series (stop included) as lists.
BoundScalarFunction BindSeries(const ScalarBindInput& input, bool inclusive) {
  std::string accepted = input.name + (inclusive ? "(start BIGINT, stop BIGINT[, step BIGINT])" : "(stop BIGINT), range(start BIGINT, stop BIGINT[, step BIGINT])");
  CheckArgumentCount(input, inclusive ? 2 : 1, 3, accepted);
  for (auto& t : input.argument_types) {
    if (!t.IsIntegral() && t.id() != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  }
  LogicalType list = LogicalType::List(TypeId::BIGINT);
  std::vector<LogicalType> args(input.argument_types.size(), TypeId::BIGINT);
  std::string name = input.name;
  return Bound(std::move(args), list, RowValueKernel([list, inclusive, name](const std::vector<Value>& a) {
                 int64_t start = a.size() == 1 ? 0 : a[0].GetBigint();
                 int64_t stop = a.size() == 1 ? a[0].GetBigint() : a[1].GetBigint();
                 int64_t step = a.size() == 3 ? a[2].GetBigint() : 1;
                 if (step == 0) throw InvalidInputError(name + "(): the step must not be 0");
                 double count = std::floor((static_cast<double>(stop) - static_cast<double>(start)) / static_cast<double>(step)) + 1;
                 if (count > 10000000) throw InvalidInputError(name + "(): the list would have more than 10000000 elements; use the table function (FROM " + name + "(...)) for long series");
                 std::vector<Value> out;
                 for (int64_t v = start; step > 0 ? (inclusive ? v <= stop : v < stop) : (inclusive ? v >= stop : v > stop);) {
                   out.push_back(Value::BIGINT(v));
                   if (__builtin_add_overflow(v, step, &v)) break;
                 }
                 return Value::LIST(list, std::move(out));
               }));
}

}  // namespace

void RegisterListFunctions(ScalarFunctionRegistry& registry, const BindLookup& find) {
  registry.Register("list_aggregate", [](const ScalarBindInput& in) { return BindListAggregate(in, ""); });
  registry.Register("list_aggr", [](const ScalarBindInput& in) { return BindListAggregate(in, ""); });
  registry.Register("array_aggregate", [](const ScalarBindInput& in) { return BindListAggregate(in, ""); });
  for (const char* agg : {"sum", "avg", "min", "max", "count", "product", "first", "last", "string_agg", "bool_and", "bool_or"}) {
    std::string name = agg;
    registry.Register("list_" + name, [name](const ScalarBindInput& in) { return BindListAggregate(in, name); });
  }
  registry.Register("list_sort", [](const ScalarBindInput& in) { return BindListSort(in, false); });
  registry.Register("list_reverse_sort", [](const ScalarBindInput& in) { return BindListSort(in, true); });
  registry.Register("list_distinct", [](const ScalarBindInput& in) { return BindListDistinct(in, false); });
  registry.Register("list_unique", [](const ScalarBindInput& in) { return BindListDistinct(in, true); });
  for (const char* name : {"list_contains", "list_has", "array_has"}) registry.Register(name, BindListContains);
  for (const char* name : {"list_position", "list_indexof"}) registry.Register(name, BindListPosition);
  registry.Register("list_has_any", [](const ScalarBindInput& in) { return BindListHas(in, false); });
  registry.Register("list_has_all", [](const ScalarBindInput& in) { return BindListHas(in, true); });
  for (const char* name : {"list_concat", "list_cat", "array_cat"}) registry.Register(name, BindListConcat);
  registry.Register("list_slice", BindListSlice);
  registry.Register("array_slice", BindListSlice);
  registry.Register("array_length", BindArrayLength);
  if (const scalar_bind_t* len = find("len")) registry.Register("len", Len(*len));
  registry.Register("range", [](const ScalarBindInput& in) { return BindSeries(in, false); });
  registry.Register("generate_series", [](const ScalarBindInput& in) { return BindSeries(in, true); });
  // DuckDB's row(a, b) builds a struct as struct(a, b) does (fields named as
  // struct names them; DuckDB leaves them unnamed).
  if (const scalar_bind_t* make_struct = find("struct")) registry.Register("row", *make_struct);
  if (const scalar_bind_t* join = find("array_join")) {
    scalar_bind_t array_join = *join;
    registry.Register("array_to_string", [array_join](const ScalarBindInput& in) {
      CheckArgumentCount(in, 2, 2, "array_to_string(LIST, separator VARCHAR)");
      return array_join(in);
    });
  }
}

}  // namespace lakestream
