// regexp_matches / regexp_like / rlike (string, regex) -> BOOLEAN: does the
// regex (function/regex_matcher.hpp, RE2) match somewhere in the string.
//
// A constant pattern is compiled once, at bind time, for the whole statement;
// a pattern from a column is compiled per row, the last one reused while it
// repeats. Each row's match is linear in its length, and the kernel checks
// for an interrupt (Ctrl-C, Connection::Interrupt) before each row, so a
// chunk of long values stops within one row's match.
#include <memory>
#include <optional>

#include "function/regex_matcher.hpp"
#include "function/scalar/executor.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

BoundScalarFunction BindRegexpMatches(const ScalarBindInput& input) {
  std::string accepted = input.name + "(VARCHAR, regex VARCHAR)";
  CheckArgumentCount(input, 2, 2, accepted);
  for (auto& t : input.argument_types) {
    if (!ImplicitlyStringCastable(t)) ThrowArgumentError(input, accepted);
  }
  std::shared_ptr<const RegexMatcher> constant;
  if (const std::string* pattern = ConstantString(input, 1)) constant = std::make_shared<RegexMatcher>(*pattern, input.name);
  return Bound({TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::BOOLEAN,
               [constant, name = input.name](DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx) {
                 std::optional<RegexMatcher> row_matcher;
                 std::string last;
                 BinaryExecute<string_t, string_t, bool>(args.data[0], args.data[1], result, count, [&](string_t s, string_t p) {
                   if (ctx.client) ctx.client->CheckInterrupt();
                   const RegexMatcher* matcher = constant.get();
                   if (!matcher) {
                     if (!row_matcher || p != last) {
                       last = p;
                       row_matcher.reset();  // the old one goes first: emplace would throw past it
                       row_matcher.emplace(last, name);
                     }
                     matcher = &*row_matcher;
                   }
                   return matcher->Find(s);
                 });
               });
}

}  // namespace

void RegisterRegexpFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("regexp_matches", BindRegexpMatches);
  registry.Register("regexp_like", BindRegexpMatches);
  registry.Register("rlike", BindRegexpMatches);
}

}  // namespace lakestream
