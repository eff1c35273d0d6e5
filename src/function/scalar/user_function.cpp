#include "function/scalar/user_function.hpp"

#include <cctype>
#include <exception>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/aggregate_function.hpp"
#include "function/window/window_function.hpp"

namespace lakestream {

static std::string Signature(const UserScalarFunction& function) {
  if (!function.argument_types) return function.name + "(any arguments)";
  std::vector<std::string> types;
  types.reserve(function.argument_types->size());
  for (auto& type : *function.argument_types) types.push_back(type.ToString());
  return function.name + "(" + StringUtil::Join(types, ", ") + ")";
}

BoundScalarFunction BindUserFunction(const UserScalarFunction& function, const std::vector<LogicalType>& argument_types) {
  if (function.argument_types && function.argument_types->size() != argument_types.size()) {
    std::vector<std::string> given;
    given.reserve(argument_types.size());
    for (auto& type : argument_types) given.push_back(type.ToString());
    throw BinderError("User function " + Signature(function) + " takes " +
                      std::to_string(function.argument_types->size()) + " argument(s), the call gives " +
                      std::to_string(argument_types.size()) + " (" + StringUtil::Join(given, ", ") + ")");
  }
  BoundScalarFunction bound;
  bound.name = StringUtil::Lower(function.name);
  bound.argument_types = function.argument_types ? *function.argument_types : argument_types;
  bound.return_type = function.return_type;
  bound.deterministic = function.deterministic;
  bound.handles_nulls = function.handles_nulls;
  // The kernel keeps its own copy: the connection may drop the function while
  // a streaming result that calls it is still being read.
  UserScalarFunction copy = function;
  if (copy.call_batch) {
    bound.handles_nulls = true;  // the batch holds every row; the function decides what NULL gives
    bound.kernel = [copy](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
      try {
        copy.call_batch(args, count, result);
      } catch (const Exception&) {
        throw;
      } catch (const std::exception& e) {
        throw InvalidInputError("User function " + copy.name + " failed: " + e.what());
      }
    };
    return bound;
  }
  bound.kernel = [copy](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
    std::vector<Value> row(args.ColumnCount());
    for (idx_t i = 0; i < count; i++) {
      bool any_null = false;
      for (idx_t c = 0; c < row.size(); c++) {
        row[c] = args.GetValue(c, i);
        any_null |= row[c].IsNull();
      }
      if (any_null && !copy.handles_nulls) {
        result.SetValue(i, Value(copy.return_type));
        continue;
      }
      Value out;
      try {
        out = copy.call(row);
      } catch (const Exception&) {
        throw;
      } catch (const std::exception& e) {
        throw InvalidInputError("User function " + copy.name + " failed: " + e.what());
      }
      if (out.IsNull()) {
        result.SetValue(i, Value(copy.return_type));
        continue;
      }
      Value cast;
      if (!out.TryCastAs(copy.return_type, cast)) {
        throw ConversionError("User function " + copy.name + " returned " + out.ToString() + " (" +
                              out.type().ToString() + "), which is not a " + copy.return_type.ToString() +
                              "; return that type or declare the function's return type as " + out.type().ToString());
      }
      result.SetValue(i, cast);
    }
  };
  return bound;
}

void CheckUserFunctionName(const std::string& name) {
  bool identifier = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char ch : name) identifier &= std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  if (!identifier) {
    throw InvalidInputError("Cannot create function '" + name +
                            "': a function name is letters, digits and _ and starts with a letter or _");
  }
  std::string lower = StringUtil::Lower(name);
  WindowKind window;
  const char* kind = nullptr;
  if (ScalarFunctionRegistry::Get().Exists(lower)) kind = "built-in scalar function";
  if (IsAggregateFunction(lower)) kind = "built-in aggregate function";
  if (LookupWindowFunction(lower, window)) kind = "built-in window function";
  if (kind) {
    throw InvalidInputError("Cannot create function " + name + ": " + lower + " is a " + kind +
                            " and a user function never replaces one; pick another name");
  }
}

}  // namespace lakestream
