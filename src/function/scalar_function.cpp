// The scalar function registry: name -> bind callback, plus the
// "did you mean" hint for unknown names.
#include "function/scalar_function.hpp"

#include <algorithm>

#include "common/exception.hpp"
#include "function/scalar/duckdb_functions.hpp"

namespace lakestream {

const ScalarFunctionRegistry& ScalarFunctionRegistry::Get() {
  // Built once, on first use (thread-safe static init), then read-only.
  static const ScalarFunctionRegistry registry = [] {
    ScalarFunctionRegistry r;
    RegisterArithmeticFunctions(r);
    RegisterComparisonFunctions(r);
    RegisterStringFunctions(r);
    RegisterDateFunctions(r);
    RegisterNestedFunctions(r);
    RegisterGenericFunctions(r);
    RegisterStreamFunctions(r);
    // DuckDB's names last: some wrap a bind registered above.
    BindLookup find = [&r](const std::string& name) -> const scalar_bind_t* {
      auto entry = r.functions_.find(name);
      return entry == r.functions_.end() ? nullptr : &entry->second;
    };
    RegisterStringMoreFunctions(r);
    RegisterMathMoreFunctions(r, find);
    RegisterDateMoreFunctions(r, find);
    RegisterListFunctions(r, find);
    RegisterJsonMoreFunctions(r);
    return r;
  }();
  return registry;
}

void ScalarFunctionRegistry::Register(const std::string& name, scalar_bind_t bind) {
  functions_[name] = std::move(bind);
}

bool ScalarFunctionRegistry::Exists(const std::string& name) const { return functions_.count(name) > 0; }

static size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); j++) {
      size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

static size_t CommonPrefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) n++;
  return n;
}

// The closest registered word-like name; ties go to the longer shared prefix
// (people get the start of a name right), then alphabetical for stability.
static std::string ClosestName(const std::string& name, const std::vector<std::string>& names) {
  std::string best;
  size_t best_dist = SIZE_MAX, best_prefix = 0;
  for (auto& candidate : names) {
    if (candidate.empty() || !std::isalpha(static_cast<unsigned char>(candidate[0]))) continue;  // skip operators
    size_t d = EditDistance(name, candidate);
    size_t p = CommonPrefix(name, candidate);
    if (d < best_dist || (d == best_dist && p > best_prefix)) {
      best = candidate;
      best_dist = d;
      best_prefix = p;
    }
  }
  // A suggestion that rewrites most of the name helps nobody.
  if (best_dist > std::max<size_t>(2, name.size() / 2 + 1)) return "";
  return best;
}

BoundScalarFunction ScalarFunctionRegistry::Bind(const std::string& name, const std::vector<LogicalType>& argument_types,
                                                 const std::vector<const Value*>& constant_arguments,
                                                 const std::vector<std::string>& argument_names) const {
  auto entry = functions_.find(name);
  if (entry == functions_.end()) {
    std::string message = "Scalar Function with name " + name + " does not exist!";
    std::string hint = ClosestName(name, Names());
    if (!hint.empty()) message += " Did you mean \"" + hint + "\"?";
    throw BinderError(message);
  }
  // Callers may pass shorter side vectors; pad so callbacks can index by argument.
  std::vector<const Value*> constants = constant_arguments;
  constants.resize(argument_types.size(), nullptr);
  std::vector<std::string> names = argument_names;
  names.resize(argument_types.size());
  ScalarBindInput input{name, argument_types, constants, names};
  BoundScalarFunction bound = entry->second(input);
  if (bound.name.empty()) bound.name = name;
  return bound;
}

std::vector<std::string> ScalarFunctionRegistry::Names() const {
  std::vector<std::string> names;
  names.reserve(functions_.size());
  for (auto& [name, bind] : functions_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace lakestream
