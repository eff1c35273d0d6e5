// Building and reading nested values:
//
//   array(a, b, ...)          LIST of the arguments' common type (Spark: strings
//                             absorb numbers, array(1, 'a') is STRING[])
//   map(k1, v1, ...)          MAP; a NULL or repeated key is an error (Spark's
//                             default mapKeyDedupPolicy=EXCEPTION)
//   map_from_arrays(ks, vs)   the same from two arrays of equal length
//   subscript(x, i)           x[i]: 0-based for arrays, a key for maps, a
//                             constant field name for structs; NULL when out of range
//   element_at(x, i)          1-based, negative counts from the end; 0 is an error
//   struct_extract(s, 'f')    s.f (the binder's field access)
//   size / cardinality(x)     elements of an array or map; -1 for NULL (Spark,
//                             ANSI off); array_size gives NULL for NULL
//   map_keys / map_values / map_entries
#include <unordered_set>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/scalar/nested.hpp"

namespace lakestream {

scalar_kernel_t RowValueKernel(row_value_fn_t fn, bool null_in_null_out) {
  return [fn = std::move(fn), null_in_null_out](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    result.Reset();
    if (count > result.Capacity()) result.Resize(count);
    std::vector<Value> values(args.ColumnCount());
    for (idx_t i = 0; i < count; i++) {
      bool any_null = false;
      for (idx_t c = 0; c < args.ColumnCount(); c++) {
        values[c] = args.data[c].GetValue(i);
        any_null |= values[c].IsNull();
      }
      if (any_null && null_in_null_out) {
        result.SetValid(i, false);
        continue;
      }
      result.SetValue(i, fn(values));
    }
  };
}

void ResetListResult(Vector& result) {
  result.Child(0).Reset();
  result.SetListSize(0);
}

namespace {

// Common element type of `types`, or VARCHAR where Spark would turn the
// values to strings (array(1, 'a')); BinderError when there is none.
LogicalType UnifyTypes(const std::vector<LogicalType>& types, const std::string& function, const char* what) {
  LogicalType common = CommonType(types, TypeId::VARCHAR);
  if (common.id() != TypeId::INVALID) return common;
  bool all_strings = true;
  bool any_string = false;
  for (auto& t : types) {
    all_strings &= ImplicitlyStringCastable(t);
    any_string |= t.id() == TypeId::VARCHAR;
  }
  if (all_strings && any_string) return TypeId::VARCHAR;
  std::string list;
  for (auto& t : types) list += (list.empty() ? "" : ", ") + t.ToString();
  throw BinderError(function + "(): the " + what + " have types " + list +
                    " with no common type; CAST them to one type, e.g. CAST(x AS STRING)");
}

BoundScalarFunction BindArray(const ScalarBindInput& input) {
  LogicalType element = UnifyTypes(input.argument_types, input.name, "elements");
  std::vector<LogicalType> args(input.argument_types.size(), element);
  auto f = Bound(std::move(args), LogicalType::List(element),
                 [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                   idx_t n = args.ColumnCount();
                   ResetListResult(result);
                   Vector& child = result.Child(0);
                   if (count * n > child.Capacity()) child.Resize(count * n);
                   auto* entries = result.GetData<list_entry_t>();
                   for (idx_t i = 0; i < count; i++) {
                     entries[i] = {i * n, n};
                     for (idx_t j = 0; j < n; j++) child.Copy(args.data[j], nullptr, 1, i, i * n + j);
                   }
                   result.SetListSize(count * n);
                   result.SetAllValid(count);
                 });
  f.handles_nulls = true;  // a NULL element does not make the array NULL
  return f;
}

// Checks a map's keys: none NULL, none repeated. `function` names the caller.
void CheckMapKeys(const std::vector<Value>& keys, const std::string& function) {
  for (size_t i = 0; i < keys.size(); i++) {
    if (keys[i].IsNull()) throw InvalidInputError(function + "(): a map key cannot be NULL; filter or COALESCE the keys");
    for (size_t j = 0; j < i; j++) {
      if (keys[j] == keys[i]) {
        throw InvalidInputError(function + "(): duplicate map key " + keys[i].ToString() +
                                "; the keys of a map must be unique (deduplicate them first)");
      }
    }
  }
}

Value MakeMap(const LogicalType& map_type, const std::vector<Value>& keys, const std::vector<Value>& values) {
  const LogicalType& entry_type = map_type.ListChild();
  std::vector<Value> entries;
  entries.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); i++) entries.push_back(Value::STRUCT(entry_type, {keys[i], values[i]}));
  return Value::LIST(map_type, std::move(entries));
}

BoundScalarFunction BindMap(const ScalarBindInput& input) {
  auto& types = input.argument_types;
  if (types.size() % 2 != 0) {
    throw BinderError("map() expects pairs of a key and a value, e.g. map('a', 1, 'b', 2); got " +
                      std::to_string(types.size()) + " arguments");
  }
  if (types.size() == 2 && types[0].id() == TypeId::LIST && types[1].id() == TypeId::LIST) {
    throw BinderError("map(LIST, LIST) is ambiguous: DuckDB reads it as a list of keys and a list of values (write "
                      "map_from_arrays(keys, values)), Spark as one entry whose key is a list (write MAP {key: value})");
  }
  std::vector<LogicalType> key_types, value_types;
  for (size_t i = 0; i < types.size(); i += 2) {
    key_types.push_back(types[i]);
    value_types.push_back(types[i + 1]);
  }
  LogicalType key = UnifyTypes(key_types, "map", "keys");
  LogicalType value = UnifyTypes(value_types, "map", "values");
  if (key.id() == TypeId::MAP) {
    throw BinderError("map(): keys of type " + key.ToString() + " are not supported; use scalar, LIST or STRUCT keys");
  }
  std::vector<LogicalType> args;
  for (size_t i = 0; i < types.size(); i += 2) {
    args.push_back(key);
    args.push_back(value);
  }
  LogicalType map_type = LogicalType::Map(key, value);
  auto f = Bound(std::move(args), map_type, RowValueKernel([map_type](const std::vector<Value>& a) {
                   std::vector<Value> keys, values;
                   for (size_t i = 0; i < a.size(); i += 2) {
                     keys.push_back(a[i]);
                     values.push_back(a[i + 1]);
                   }
                   CheckMapKeys(keys, "map");
                   return MakeMap(map_type, keys, values);
                 }, false));
  f.handles_nulls = true;
  return f;
}

BoundScalarFunction BindMapFromArrays(const ScalarBindInput& input) {
  const char* accepted = "map_from_arrays(keys ARRAY, values ARRAY)";
  CheckArgumentCount(input, 2, 2, accepted);
  std::vector<LogicalType> t = input.argument_types;
  for (auto& type : t) {
    if (type.id() == TypeId::SQLNULL) type = LogicalType::List(TypeId::VARCHAR);
  }
  if (t[0].id() != TypeId::LIST || t[1].id() != TypeId::LIST) ThrowArgumentError(input, accepted);
  LogicalType map_type = LogicalType::Map(t[0].ListChild(), t[1].ListChild());
  return Bound({t[0], t[1]}, map_type, RowValueKernel([map_type](const std::vector<Value>& a) {
                 auto& keys = a[0].Children();
                 auto& values = a[1].Children();
                 if (keys.size() != values.size()) {
                   throw InvalidInputError("map_from_arrays(): the key array has " + std::to_string(keys.size()) +
                                           " elements but the value array " + std::to_string(values.size()) +
                                           "; both must have the same length");
                 }
                 CheckMapKeys(keys, "map_from_arrays");
                 return MakeMap(map_type, keys, values);
               }));
}

// map_from_entries([(k, v), ...]) (Spark, DuckDB): a list of two-field
// structs, the first field the key; NULL and repeated keys are errors.
BoundScalarFunction BindMapFromEntries(const ScalarBindInput& input) {
  const char* accepted = "map_from_entries(ARRAY<STRUCT<key, value>>)";
  CheckArgumentCount(input, 1, 1, accepted);
  LogicalType t = input.argument_types[0];
  if (t.id() == TypeId::SQLNULL) t = LogicalType::List(LogicalType::Struct({{"key", TypeId::INTEGER}, {"value", TypeId::INTEGER}}));
  if (t.id() != TypeId::LIST) ThrowArgumentError(input, accepted);
  LogicalType entry = t.ListChild();
  if (entry.id() == TypeId::SQLNULL) entry = LogicalType::Struct({{"key", TypeId::INTEGER}, {"value", TypeId::INTEGER}});
  if (entry.id() != TypeId::STRUCT || entry.children().size() != 2) ThrowArgumentError(input, accepted);
  if (entry.children()[0].second.id() == TypeId::MAP) {
    throw BinderError("map_from_entries(): keys of type MAP are not supported; use scalar, LIST or STRUCT keys");
  }
  LogicalType map_type = LogicalType::Map(entry.children()[0].second, entry.children()[1].second);
  LogicalType list_type = LogicalType::List(entry);
  return Bound({list_type}, map_type, RowValueKernel([map_type](const std::vector<Value>& a) {
                 std::vector<Value> keys, values;
                 for (auto& e : a[0].Children()) {
                   if (e.IsNull()) throw InvalidInputError("map_from_entries(): an entry is NULL; every entry must be a (key, value) struct");
                   keys.push_back(e.Children()[0]);
                   values.push_back(e.Children()[1]);
                 }
                 CheckMapKeys(keys, "map_from_entries");
                 return MakeMap(map_type, keys, values);
               }));
}

// map_contains(m, k) / map_contains_key (BOOLEAN) and map_extract(m, k)
// (DuckDB: a list holding the value, empty when the key is missing).
BoundScalarFunction BindMapProbe(const ScalarBindInput& input, bool extract) {
  std::string accepted = input.name + "(MAP, key)";
  CheckArgumentCount(input, 2, 2, accepted);
  const LogicalType& m = input.argument_types[0];
  if (m.id() != TypeId::MAP) ThrowArgumentError(input, accepted);
  const LogicalType& key = m.ListChild().children()[0].second;
  const LogicalType& value = m.ListChild().children()[1].second;
  LogicalType ret = extract ? LogicalType::List(value) : LogicalType(TypeId::BOOLEAN);
  return Bound({m, key}, ret, RowValueKernel([extract, ret](const std::vector<Value>& a) {
                 for (auto& e : a[0].Children()) {
                   if (e.Children()[0] == a[1]) return extract ? Value::LIST(ret, {e.Children()[1]}) : Value::BOOLEAN(true);
                 }
                 return extract ? Value::LIST(ret, {}) : Value::BOOLEAN(false);
               }));
}

// result[i] = list element `index(i)` of args[0] row i, NULL when index(i)
// is outside the list. `index` returns -1 for "outside".
template <class INDEX>
void ListElementKernel(DataChunk& args, Vector& result, idx_t count, INDEX index) {
  result.Reset();
  if (count > result.Capacity()) result.Resize(count);
  const Vector& list = args.data[0];
  const Vector& child = list.Child(0);
  const auto* entries = list.GetData<list_entry_t>();
  const auto* pos = args.data[1].GetData<int64_t>();
  for (idx_t i = 0; i < count; i++) {
    if (!list.IsValid(i) || !args.data[1].IsValid(i)) {
      result.SetValid(i, false);
      continue;
    }
    int64_t k = index(pos[i], static_cast<int64_t>(entries[i].length));
    if (k < 0 || k >= static_cast<int64_t>(entries[i].length)) {
      result.SetValid(i, false);
      continue;
    }
    result.Copy(child, nullptr, 1, entries[i].offset + static_cast<idx_t>(k), i);
  }
}

void MapLookupKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  result.Reset();
  if (count > result.Capacity()) result.Resize(count);
  const Vector& map = args.data[0];
  const Vector& keys = map.Child(0).Child(0);
  const Vector& values = map.Child(0).Child(1);
  const Vector& probe = args.data[1];
  const auto* entries = map.GetData<list_entry_t>();
  for (idx_t i = 0; i < count; i++) {
    bool found = false;
    if (map.IsValid(i) && probe.IsValid(i)) {
      for (idx_t j = 0; j < entries[i].length && !found; j++) {
        idx_t e = entries[i].offset + j;
        if (keys.IsValid(e) && RowsEqual(keys, e, probe, i)) {
          result.Copy(values, nullptr, 1, e, i);
          found = true;
        }
      }
    }
    if (!found) result.SetValid(i, false);
  }
}

BoundScalarFunction BindStructExtract(const ScalarBindInput& input) {
  const char* accepted = "struct_extract(STRUCT, 'field')";
  CheckArgumentCount(input, 2, 2, accepted);
  const LogicalType& s = input.argument_types[0];
  const std::string* name = ConstantString(input, 1);
  if (s.id() != TypeId::STRUCT || !name) ThrowArgumentError(input, accepted);
  const auto& fields = s.children();
  idx_t field = fields.size();
  for (idx_t f = 0; f < fields.size(); f++) {
    if (fields[f].first == *name) field = f;  // an exact match wins over a case-insensitive one
  }
  for (idx_t f = 0; f < fields.size() && field == fields.size(); f++) {
    if (StringUtil::CIEquals(fields[f].first, *name)) field = f;
  }
  if (field == fields.size()) {
    std::vector<std::string> names;
    for (auto& [n, t] : fields) names.push_back(n);
    throw BinderError("No field named \"" + *name + "\" in " + s.ToString() + "; its fields are " +
                      StringUtil::Join(names, ", "));
  }
  return Bound({s, TypeId::VARCHAR}, fields[field].second,
               [field](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                 const Vector& in = args.data[0];
                 const Vector& child = in.Child(field);
                 result.Reset();
                 if (!child.GetType().IsNested()) {
                   result.Copy(child, nullptr, count, 0, 0);
                   for (idx_t i = 0; i < count; i++) {
                     if (!in.IsValid(i)) result.SetValid(i, false);
                   }
                   return;
                 }
                 if (count > result.Capacity()) result.Resize(count);
                 for (idx_t i = 0; i < count; i++) {
                   if (in.IsValid(i)) {
                     result.Copy(child, nullptr, 1, i, i);
                   } else {
                     result.SetValid(i, false);
                   }
                 }
               });
}

BoundScalarFunction BindSubscript(const ScalarBindInput& input, bool one_based) {
  const char* accepted = one_based ? "element_at(ARRAY, index), element_at(MAP, key)"
                                   : "array[index], map[key], struct['field']";
  CheckArgumentCount(input, 2, 2, accepted);
  const LogicalType& x = input.argument_types[0];
  const LogicalType& i = input.argument_types[1];
  if (x.id() == TypeId::LIST) {
    if (!i.IsIntegral() && i.id() != TypeId::SQLNULL) {
      throw BinderError("an array index must be an integer, got " + i.ToString() + " (" + accepted + ")");
    }
    if (!one_based) {
      return Bound({x, TypeId::BIGINT}, x.ListChild(), [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
        ListElementKernel(args, result, count, [](int64_t p, int64_t) { return p; });
      });
    }
    return Bound({x, TypeId::BIGINT}, x.ListChild(), [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      ListElementKernel(args, result, count, [](int64_t p, int64_t n) {
        if (p == 0) throw InvalidInputError("element_at(): SQL array indices start at 1; use 1 for the first element or -1 for the last");
        return p > 0 ? p - 1 : n + p;
      });
    });
  }
  if (x.id() == TypeId::MAP) {
    const LogicalType& key = x.ListChild().children()[0].second;
    if (i.id() != TypeId::SQLNULL && MaxLogicalType(key, i).id() == TypeId::INVALID && !(key.id() == TypeId::VARCHAR && ImplicitlyStringCastable(i))) {
      throw BinderError("a key of type " + i.ToString() + " cannot look up a " + x.ToString() + "; use a " + key.ToString() + " key");
    }
    return Bound({x, key}, x.ListChild().children()[1].second, MapLookupKernel);
  }
  if (x.id() == TypeId::STRUCT && !one_based) {
    if (!ConstantString(input, 1)) {
      throw BinderError("a struct field is chosen by a constant string, s['field'], got " + i.ToString());
    }
    return BindStructExtract(input);
  }
  if (x.id() == TypeId::VARCHAR && !one_based) {
    throw BinderError("cannot subscript a STRING with []; for a JSON string use get_json_object(s, '$.a') or s:a");
  }
  ThrowArgumentError(input, accepted);
}

BoundScalarFunction BindSize(const ScalarBindInput& input, bool null_is_minus_one) {
  const char* accepted = "size(ARRAY), size(MAP)";
  CheckArgumentCount(input, 1, 1, accepted);
  const LogicalType& x = input.argument_types[0];
  if (x.id() != TypeId::LIST && x.id() != TypeId::MAP) ThrowArgumentError(input, accepted);
  auto f = Bound({x}, TypeId::INTEGER, [null_is_minus_one](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    const Vector& in = args.data[0];
    const auto* entries = in.GetData<list_entry_t>();
    auto* out = result.GetData<int32_t>();
    for (idx_t i = 0; i < count; i++) {
      bool valid = in.IsValid(i);
      out[i] = valid ? static_cast<int32_t>(entries[i].length) : -1;
      result.SetValid(i, valid || null_is_minus_one);
    }
  });
  f.handles_nulls = null_is_minus_one;
  return f;
}

// map_keys (part 0) / map_values (part 1): the map's entries re-read as a list.
BoundScalarFunction BindMapPart(const ScalarBindInput& input, idx_t part) {
  const char* accepted = part == 0 ? "map_keys(MAP)" : "map_values(MAP)";
  CheckArgumentCount(input, 1, 1, accepted);
  const LogicalType& m = input.argument_types[0];
  if (m.id() != TypeId::MAP) ThrowArgumentError(input, accepted);
  return Bound({m}, LogicalType::List(m.ListChild().children()[part].second),
               [part](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                 const Vector& in = args.data[0];
                 ResetListResult(result);
                 result.Child(0).Copy(in.Child(0).Child(part), nullptr, in.ListSize(), 0, 0);
                 result.SetListSize(in.ListSize());
                 std::copy_n(in.GetData<list_entry_t>(), count, result.GetData<list_entry_t>());
                 for (idx_t i = 0; i < count; i++) result.SetValid(i, in.IsValid(i));
               });
}

BoundScalarFunction BindMapEntries(const ScalarBindInput& input) {
  const char* accepted = "map_entries(MAP)";
  CheckArgumentCount(input, 1, 1, accepted);
  const LogicalType& m = input.argument_types[0];
  if (m.id() != TypeId::MAP) ThrowArgumentError(input, accepted);
  LogicalType list = LogicalType::List(m.ListChild());
  return Bound({m}, list, RowValueKernel([list](const std::vector<Value>& a) { return Value::LIST(list, a[0].Children()); }));
}

}  // namespace

void RegisterNestedAccessFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("array", BindArray);
  registry.Register("list_value", BindArray);
  registry.Register("map", BindMap);
  registry.Register("map_from_arrays", BindMapFromArrays);
  registry.Register("map_from_entries", BindMapFromEntries);
  registry.Register("map_contains", [](const ScalarBindInput& in) { return BindMapProbe(in, false); });
  registry.Register("map_contains_key", [](const ScalarBindInput& in) { return BindMapProbe(in, false); });
  registry.Register("map_extract", [](const ScalarBindInput& in) { return BindMapProbe(in, true); });
  registry.Register("subscript", [](const ScalarBindInput& in) { return BindSubscript(in, false); });
  registry.Register("element_at", [](const ScalarBindInput& in) { return BindSubscript(in, true); });
  registry.Register("struct_extract", BindStructExtract);
  registry.Register("size", [](const ScalarBindInput& in) { return BindSize(in, true); });
  registry.Register("cardinality", [](const ScalarBindInput& in) { return BindSize(in, true); });
  registry.Register("array_size", [](const ScalarBindInput& in) { return BindSize(in, false); });
  registry.Register("map_keys", [](const ScalarBindInput& in) { return BindMapPart(in, 0); });
  registry.Register("map_values", [](const ScalarBindInput& in) { return BindMapPart(in, 1); });
  registry.Register("map_entries", BindMapEntries);
}

}  // namespace lakestream
