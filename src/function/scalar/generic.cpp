// Type-generic functions: coalesce, ifnull/nvl, nullif, if/iff, greatest,
// least, hash, typeof.
//
//   coalesce(a, b, ...): first non-NULL argument, in the common type of all
//     arguments (MaxLogicalType); ifnull/nvl are the two-argument form.
//   nullif(a, b): NULL when a = b, else a (a NULL b never matches).
//   if(cond, a, b) / iff: a when cond is TRUE, b when FALSE or NULL.
//   greatest/least: largest/smallest non-NULL argument, NULL only when all are
//     (Spark); DOUBLE NaN counts as the largest value, as in comparisons.
//   hash(a, ...): BIGINT, 64-bit, stable across runs and platforms (FNV-1a
//     over each argument's bytes, mixed per argument); NULL hashes to a fixed
//     value. Values of different types hash differently (hash(1) is an
//     INTEGER hash, hash(1::BIGINT) a BIGINT one), as in Spark.
//   typeof(x): the SQL type name, e.g. 'DECIMAL(10,2)' (never NULL).
#include <cmath>

#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

// Common type of arguments [first, end); BinderError naming them when none.
LogicalType CommonArgumentType(const ScalarBindInput& input, idx_t first, const std::string& accepted) {
  std::vector<LogicalType> types(input.argument_types.begin() + first, input.argument_types.end());
  LogicalType t = CommonType(types, TypeId::INTEGER);
  if (t.id() == TypeId::INVALID) {
    throw BinderError(SignatureString(input.name, input.argument_types) + ": the arguments have no common type (" + accepted +
                      " needs values of one type). Add an explicit CAST.");
  }
  return t;
}

void ReferenceHeaps(DataChunk& args, Vector& result, idx_t first = 0) {
  for (idx_t c = first; c < args.ColumnCount(); c++) result.AddHeapReference(args.data[c]);
}

BoundScalarFunction WithNulls(BoundScalarFunction f) {
  f.handles_nulls = true;
  return f;
}

BoundScalarFunction BindCoalesce(const ScalarBindInput& input, idx_t min, idx_t max) {
  std::string accepted = input.name + (max == 2 ? "(T, T)" : "(T, ...)");
  CheckArgumentCount(input, min, max, accepted);
  LogicalType t = CommonArgumentType(input, 0, accepted);
  auto f = WithNulls(Bound(std::vector<LogicalType>(input.argument_types.size(), t), t,
                           [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                             ReferenceHeaps(args, result);
                             for (idx_t i = 0; i < count; i++) {
                               idx_t c = 0;
                               while (c + 1 < args.ColumnCount() && !args.data[c].IsValid(i)) c++;
                               CopyRow(args.data[c], i, result, i);
                             }
                           }));
  f.evaluation = ArgumentEvaluation::FIRST_NON_NULL;
  return f;
}

BoundScalarFunction BindNullIf(const ScalarBindInput& input) {
  CheckArgumentCount(input, 2, 2, "nullif(T, T)");
  LogicalType t = CommonArgumentType(input, 0, "nullif(T, T)");
  return WithNulls(Bound({t, t}, t, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    ReferenceHeaps(args, result);
    const Vector &a = args.data[0], &b = args.data[1];
    for (idx_t i = 0; i < count; i++) {
      if (a.IsValid(i) && b.IsValid(i) && RowsEqual(a, i, b, i)) {
        result.SetValid(i, false);
      } else {
        CopyRow(a, i, result, i);
      }
    }
  }));
}

BoundScalarFunction BindIf(const ScalarBindInput& input) {
  const char* accepted = "if(BOOLEAN, T, T)";
  CheckArgumentCount(input, 3, 3, accepted);
  TypeId cond = input.argument_types[0].id();
  if (cond != TypeId::BOOLEAN && cond != TypeId::SQLNULL) ThrowArgumentError(input, accepted);
  LogicalType t = CommonArgumentType(input, 1, accepted);
  auto f = WithNulls(Bound({TypeId::BOOLEAN, t, t}, t, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    ReferenceHeaps(args, result, 1);
    const Vector& cond = args.data[0];
    for (idx_t i = 0; i < count; i++) {
      bool take_first = cond.IsValid(i) && cond.GetData<bool>()[i];
      CopyRow(args.data[take_first ? 1 : 2], i, result, i);
    }
  }));
  f.evaluation = ArgumentEvaluation::CONDITIONAL;
  return f;
}

template <class T>
bool Less(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, double>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <class T, bool GREATEST>
void ExtremeLoop(DataChunk& args, Vector& result, idx_t count) {
  T* out = result.GetData<T>();
  for (idx_t i = 0; i < count; i++) {
    bool found = false;
    T best{};
    for (auto& v : args.data) {
      if (!v.IsValid(i)) continue;
      const T& x = v.GetData<T>()[i];
      if (!found || (GREATEST ? Less(best, x) : Less(x, best))) best = x;
      found = true;
    }
    result.SetValid(i, found);
    if (found) out[i] = best;
  }
}

template <bool GREATEST>
void ExtremeValues(DataChunk& args, Vector& result, idx_t count) {
  for (idx_t i = 0; i < count; i++) {
    Value best;
    for (auto& v : args.data) {
      if (!v.IsValid(i)) continue;
      Value x = v.GetValue(i);
      if (best.IsNull() || (GREATEST ? best.Compare(x) < 0 : x.Compare(best) < 0)) best = x;
    }
    result.SetValue(i, best);
  }
}

template <bool GREATEST>
BoundScalarFunction BindExtreme(const ScalarBindInput& input) {
  std::string accepted = input.name + "(T, ...)";
  CheckArgumentCount(input, 1, 1000000, accepted);
  LogicalType t = CommonArgumentType(input, 0, accepted);
  scalar_kernel_t k;
  switch (t.id()) {
    case TypeId::BOOLEAN: k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { ExtremeLoop<bool, GREATEST>(a, r, c); }; break;
    case TypeId::INTEGER:
    case TypeId::DATE: k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { ExtremeLoop<int32_t, GREATEST>(a, r, c); }; break;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { ExtremeLoop<int64_t, GREATEST>(a, r, c); }; break;
    case TypeId::DOUBLE: k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { ExtremeLoop<double, GREATEST>(a, r, c); }; break;
    case TypeId::DECIMAL: k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { ExtremeLoop<hugeint_t, GREATEST>(a, r, c); }; break;
    case TypeId::VARCHAR:
      k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
        ReferenceHeaps(a, r);
        ExtremeLoop<string_t, GREATEST>(a, r, c);
      };
      break;
    default: k = [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) { ExtremeValues<GREATEST>(a, r, c); };
  }
  return WithNulls(Bound(std::vector<LogicalType>(input.argument_types.size(), t), t, std::move(k)));
}

constexpr uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr uint64_t kNullHash = 0x9e3779b97f4a7c15ULL;

uint64_t HashBytes(const void* data, size_t len, uint64_t h = kFnvOffset) {
  auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

// murmur3's 64-bit finalizer: spreads FNV's weak low bits.
uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

uint64_t HashRow(const Vector& v, idx_t row) {
  if (!v.IsValid(row)) return kNullHash;
  const LogicalType& t = v.GetType();
  if (t.id() == TypeId::VARCHAR) {
    string_t s = v.GetData<string_t>()[row];
    return Mix(HashBytes(s.data(), s.size()));
  }
  if (t.IsNested() || t.id() == TypeId::SQLNULL) {
    std::string text = v.GetValue(row).ToSQLString();
    return Mix(HashBytes(text.data(), text.size()));
  }
  idx_t width = t.PhysicalSize();
  if (t.id() == TypeId::DOUBLE) {
    double d = v.GetData<double>()[row];
    if (d == 0) d = 0;                      // -0.0 hashes like 0.0, as they compare equal
    if (std::isnan(d)) d = std::nan("");   // one NaN
    return Mix(HashBytes(&d, sizeof(d)));
  }
  return Mix(HashBytes(v.GetData<uint8_t>() + row * width, width));
}

BoundScalarFunction BindHash(const ScalarBindInput& input) {
  CheckArgumentCount(input, 1, 1000000, "hash(value, ...)");
  return WithNulls(Bound(input.argument_types, TypeId::BIGINT, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    auto* out = result.GetData<int64_t>();
    for (idx_t i = 0; i < count; i++) {
      uint64_t h = 0;
      for (auto& v : args.data) h = Mix(h * 31 + HashRow(v, i));
      out[i] = static_cast<int64_t>(h);
      result.SetValid(i, true);
    }
  }));
}

BoundScalarFunction BindTypeof(const ScalarBindInput& input) {
  CheckArgumentCount(input, 1, 1, "typeof(value)");
  std::string name = input.argument_types[0].ToString();
  return WithNulls(Bound(input.argument_types, TypeId::VARCHAR, [name](DataChunk&, Vector& result, idx_t count, const FunctionContext&) {
    string_t s = result.AddString(name);
    for (idx_t i = 0; i < count; i++) result.GetData<string_t>()[i] = s;
    result.SetAllValid(count);
  }));
}

}  // namespace

void RegisterGenericFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("coalesce", [](const ScalarBindInput& in) { return BindCoalesce(in, 1, 1000000); });
  registry.Register("ifnull", [](const ScalarBindInput& in) { return BindCoalesce(in, 2, 2); });
  registry.Register("nvl", [](const ScalarBindInput& in) { return BindCoalesce(in, 2, 2); });
  registry.Register("nullif", BindNullIf);
  registry.Register("if", BindIf);
  registry.Register("iff", BindIf);
  registry.Register("greatest", BindExtreme<true>);
  registry.Register("least", BindExtreme<false>);
  registry.Register("hash", BindHash);
  registry.Register("typeof", BindTypeof);
}

}  // namespace lakestream
