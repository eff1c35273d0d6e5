// Nested values: struct(...), named_struct(...), to_json(...).
//
//   struct(a, b, ...) -> STRUCT with the argument's column name or alias as
//     field name (ScalarBindInput.argument_names), col1, col2, ... where none
//     is known (Spark). struct(*) arrives expanded by the binder.
//   named_struct('a', x, 'b', y, ...): names must be constant strings.
//   to_json(struct | list | map) -> VARCHAR via the shared json_writer:
//     compact, decimals as numbers and timestamps as ISO-8601 UTC (Spark's
//     to_json); NULL fields are written as null, a NULL argument gives NULL.
// A struct built from NULL fields is itself not NULL, so struct/named_struct
// handle NULLs themselves; an untyped NULL field becomes VARCHAR so the
// struct has a storable type.
#include "common/json_writer.hpp"
#include "function/scalar/nested.hpp"

namespace lakestream {
namespace {

LogicalType FieldType(const LogicalType& t) { return t.id() == TypeId::SQLNULL ? LogicalType(TypeId::VARCHAR) : t; }

// Kernel copying argument columns `first`, `first + step`, ... into the struct's fields.
scalar_kernel_t StructKernel(idx_t first, idx_t step) {
  return [first, step](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    if (count > result.Capacity()) result.Resize(count);
    for (idx_t f = 0; f < result.ChildCount(); f++) {
      result.Child(f).Copy(args.data[first + f * step], nullptr, count, 0, 0);
    }
    result.SetAllValid(count);
  };
}

BoundScalarFunction BindStruct(const ScalarBindInput& input) {
  if (input.argument_types.empty()) ThrowArgumentError(input, "struct(value, ...)");
  child_list_t fields;
  std::vector<LogicalType> args;
  for (idx_t i = 0; i < input.argument_types.size(); i++) {
    const std::string& name = input.argument_names[i];
    LogicalType t = FieldType(input.argument_types[i]);
    fields.emplace_back(name.empty() ? "col" + std::to_string(i + 1) : name, t);
    args.push_back(t);
  }
  auto f = Bound(std::move(args), LogicalType::Struct(std::move(fields)), StructKernel(0, 1));
  f.handles_nulls = true;
  return f;
}

BoundScalarFunction BindNamedStruct(const ScalarBindInput& input) {
  const char* accepted = "named_struct(name VARCHAR, value, ...)";
  auto& types = input.argument_types;
  if (types.empty() || types.size() % 2 != 0) {
    throw BinderError("named_struct expects pairs of a constant name and a value, e.g. named_struct('a', x, 'b', y); got " +
                      std::to_string(types.size()) + " arguments");
  }
  child_list_t fields;
  std::vector<LogicalType> args;
  for (idx_t i = 0; i < types.size(); i += 2) {
    const std::string* name = ConstantString(input, i);
    if (!name) {
      throw BinderError("named_struct: argument " + std::to_string(i + 1) + " must be a constant string field name, got " +
                        types[i].ToString() + " (" + accepted + ")");
    }
    LogicalType t = FieldType(types[i + 1]);
    fields.emplace_back(*name, t);
    args.push_back(TypeId::VARCHAR);
    args.push_back(t);
  }
  auto f = Bound(std::move(args), LogicalType::Struct(std::move(fields)), StructKernel(1, 2));
  f.handles_nulls = true;
  return f;
}

BoundScalarFunction BindToJson(const ScalarBindInput& input) {
  const char* accepted = "to_json(STRUCT), to_json(LIST), to_json(MAP)";
  CheckArgumentCount(input, 1, 1, accepted);
  const LogicalType& t = input.argument_types[0];
  if (!t.IsNested()) ThrowArgumentError(input, accepted);
  return Bound({t}, TypeId::VARCHAR, [](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    std::string buffer;
    auto* out = result.GetData<string_t>();
    const Vector& in = args.data[0];
    for (idx_t i = 0; i < count; i++) {
      result.SetValid(i, in.IsValid(i));
      if (!in.IsValid(i)) continue;
      buffer.clear();
      AppendJsonVectorValue(buffer, in, i);
      out[i] = result.AddString(buffer);
    }
  });
}

}  // namespace

void RegisterNestedFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("struct", BindStruct);
  registry.Register("struct_pack", BindStruct);
  registry.Register("named_struct", BindNamedStruct);
  registry.Register("to_json", BindToJson);
  RegisterNestedAccessFunctions(registry);
  RegisterNestedArrayFunctions(registry);
  RegisterJsonFunctions(registry);
}

}  // namespace lakestream
