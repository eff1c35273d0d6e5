// Binding a call of a user function (transaction/user_function.hpp) to a
// vectorized kernel that calls it once per row.
#pragma once

#include <string>
#include <vector>

#include "function/scalar_function.hpp"
#include "transaction/user_function.hpp"

namespace lakestream {

// `argument_types` are the call's argument types. Throws BinderError naming
// the function, its parameters and the call when the number of arguments
// differs from its declared parameters. The bound function's argument types
// are the declared ones (the binder casts), or the call's for a function
// declared without parameter types.
BoundScalarFunction BindUserFunction(const UserScalarFunction& function, const std::vector<LogicalType>& argument_types);

// Checks `name` for CreateScalarFunction: an identifier-like name that is not
// a built-in scalar, aggregate, window or table-making function (a user
// function never shadows one). Throws InvalidInputError naming the clash.
void CheckUserFunctionName(const std::string& name);

}  // namespace lakestream
