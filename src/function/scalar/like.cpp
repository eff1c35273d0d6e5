// LIKE / ILIKE (being filled in).
#include "function/scalar/executor.hpp"
namespace lakestream {
void RegisterLikeFunctions(ScalarFunctionRegistry&) {}
}  // namespace lakestream
