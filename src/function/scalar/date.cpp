// Date functions (being filled in).
#include "function/scalar/executor.hpp"
namespace lakestream {
void RegisterDateFunctions(ScalarFunctionRegistry&) {}
}  // namespace lakestream
