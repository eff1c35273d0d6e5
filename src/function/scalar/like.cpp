// like / ilike / not_like / not_ilike (string, pattern[, escape]) -> BOOLEAN
// (the regexp_* functions are in regexp.cpp).
//
// A constant pattern (and escape) is compiled once at bind time and shared by
// every call of the kernel; a pattern from a column is compiled per row, with
// the last compiled pattern reused while it repeats. The escape defaults to
// '\' (Spark); pass '' to disable escaping.
#include <memory>
#include <optional>

#include "function/like_matcher.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

template <bool CASE_INSENSITIVE, bool NEGATE>
BoundScalarFunction BindLike(const ScalarBindInput& input) {
  std::string accepted = input.name + "(VARCHAR, pattern VARCHAR[, escape VARCHAR])";
  CheckArgumentCount(input, 2, 3, accepted);
  for (auto& t : input.argument_types) {
    if (!ImplicitlyStringCastable(t)) ThrowArgumentError(input, accepted);
  }
  bool has_escape = input.argument_types.size() == 3;
  if (has_escape && !ConstantString(input, 2)) {
    throw BinderError(input.name + ": the escape character must be a constant string, e.g. ESCAPE '!'");
  }
  std::string escape = has_escape ? *ConstantString(input, 2) : "\\";
  std::shared_ptr<const LikeMatcher> constant;
  if (const std::string* pattern = ConstantString(input, 1)) {
    constant = std::make_shared<LikeMatcher>(*pattern, escape, CASE_INSENSITIVE);
  }
  std::vector<LogicalType> args(input.argument_types.size(), TypeId::VARCHAR);
  return Bound(std::move(args), TypeId::BOOLEAN,
               [constant, escape](DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
                 if (constant) {
                   UnaryExecute<string_t, bool>(args.data[0], result, count,
                                                [&](string_t s) { return constant->Match(s) != NEGATE; });
                   return;
                 }
                 std::optional<LikeMatcher> matcher;
                 std::string last_pattern;
                 BinaryExecute<string_t, string_t, bool>(args.data[0], args.data[1], result, count, [&](string_t s, string_t p) {
                   if (!matcher || p != last_pattern) {
                     matcher.emplace(p, escape, CASE_INSENSITIVE);
                     last_pattern = p;
                   }
                   return matcher->Match(s) != NEGATE;
                 });
               });
}

}  // namespace

void RegisterLikeFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("like", BindLike<false, false>);
  registry.Register("ilike", BindLike<true, false>);
  registry.Register("not_like", BindLike<false, true>);
  registry.Register("not_ilike", BindLike<true, true>);
}

}  // namespace lakestream
