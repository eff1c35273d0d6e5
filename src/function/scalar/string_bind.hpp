// Binding and row loops shared by the string function files (string.cpp,
// string_more.cpp).
#pragma once

#include <string>
#include <vector>

#include "function/scalar/executor.hpp"

namespace lakestream {

// Builds the bound function of a string function: `expected` lists each
// parameter (VARCHAR parameters take any non-nested type, BIGINT parameters
// any integer), the first `min_args` are required.
BoundScalarFunction StringBind(const ScalarBindInput& input, const std::vector<TypeId>& expected, idx_t min_args,
                               LogicalType ret, scalar_kernel_t kernel, const std::string& accepted);

// Runs op(row) for rows where every argument is valid (NULL otherwise).
template <class OP>
void RowLoop(DataChunk& args, Vector& result, idx_t count, OP&& op) {
  for (idx_t i = 0; i < count; i++) {
    bool valid = AllValid(args, i);
    result.SetValid(i, valid);
    if (valid) op(i);
  }
}

}  // namespace lakestream
