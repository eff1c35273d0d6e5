// Generic functions (being filled in).
#include "function/scalar/executor.hpp"
namespace lakestream {
void RegisterGenericFunctions(ScalarFunctionRegistry&) {}
}  // namespace lakestream
