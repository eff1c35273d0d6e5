// String functions (being filled in).
#include "function/scalar/executor.hpp"
namespace lakestream {
void RegisterStringFunctions(ScalarFunctionRegistry& registry) { RegisterLikeFunctions(registry); }
}  // namespace lakestream
