// Nested functions (being filled in).
#include "function/scalar/executor.hpp"
namespace lakestream {
void RegisterNestedFunctions(ScalarFunctionRegistry&) {}
}  // namespace lakestream
