// The regexp functions, on RE2 (function/regex_matcher.hpp), as DuckDB has them:
//
//   regexp_matches / regexp_like / rlike (string, regex[, options]) -> BOOLEAN
//       does the regex match somewhere in the string
//   regexp_full_match (string, regex[, options]) -> BOOLEAN
//       does it match all of the string
//   regexp_replace (string, regex, replacement[, options]) -> VARCHAR
//       the first match (every match with option 'g') replaced; \1..\9 in the
//       replacement are the groups, \0 the match
//   regexp_extract (string, regex[, group[, options]]) -> VARCHAR
//       group `group` (default 0: the whole match) of the first match, '' when
//       none
//
// NULL in the string, regex or replacement gives NULL. The options (letters,
// ParseRegexOptions) and regexp_extract's group must be constants. A constant
// regex is compiled once, at bind time, for the whole statement; one from a
// column is compiled per row, the last one reused while it repeats. Each
// row's match is linear in its length, and the kernels check for an
// interrupt (Ctrl-C, Connection::Interrupt) before each row.
#include <memory>
#include <optional>

#include "function/regex_matcher.hpp"
#include "function/scalar/executor.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

// The compiled regex of one call: the bind-time one for a constant pattern,
// else the last row's pattern, recompiled when the pattern changes.
class PatternCache {
 public:
  PatternCache(std::shared_ptr<const RegexMatcher> constant, const std::string& name, const RegexOptions& options)
      : constant_(std::move(constant)), name_(name), options_(options) {}

  const RegexMatcher& For(string_t pattern) {
    if (constant_) return *constant_;
    if (!row_ || std::string_view(pattern) != last_) {
      last_ = std::string(pattern);
      row_.reset();  // the old one goes first: emplace would throw past it
      row_.emplace(last_, name_, options_);
    }
    return *row_;
  }

 private:
  std::shared_ptr<const RegexMatcher> constant_;
  const std::string& name_;
  RegexOptions options_;
  std::optional<RegexMatcher> row_;
  std::string last_;
};

// What every regexp function binds the same way: string arguments, the
// constant options argument at `options_at` (when given) and the constant
// pattern compiled once.
struct RegexBind {
  RegexOptions options;
  std::shared_ptr<const RegexMatcher> constant;
};

RegexBind BindRegex(const ScalarBindInput& input, idx_t min_args, idx_t options_at, const std::string& accepted,
                    bool allow_global, bool capture) {
  CheckArgumentCount(input, min_args, options_at + 1, accepted);
  for (idx_t i = 0; i < input.argument_types.size(); i++) {
    if (i == 2 && input.name == "regexp_extract") continue;  // the group, checked by its binder
    if (!ImplicitlyStringCastable(input.argument_types[i])) ThrowArgumentError(input, accepted);
  }
  RegexBind bound;
  if (input.argument_types.size() > options_at) {
    const std::string* options = ConstantString(input, options_at);
    if (options == nullptr) {
      throw InvalidInputError(input.name + ": the options argument must be a constant string such as 'i' or 'g'");
    }
    bound.options = ParseRegexOptions(*options, allow_global, input.name);
  }
  bound.options.capture = capture;
  if (const std::string* pattern = ConstantString(input, 1)) {
    bound.constant = std::make_shared<RegexMatcher>(*pattern, input.name, bound.options);
  }
  return bound;
}

std::vector<LogicalType> VarcharArguments(idx_t n) { return std::vector<LogicalType>(n, TypeId::VARCHAR); }

template <bool FULL>
BoundScalarFunction BindRegexpMatches(const ScalarBindInput& input) {
  const std::string accepted = input.name + "(VARCHAR, regex VARCHAR[, options VARCHAR])";
  RegexBind bound = BindRegex(input, 2, 2, accepted, false, false);
  return Bound(VarcharArguments(input.argument_types.size()), TypeId::BOOLEAN,
               [bound, name = input.name](DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx) {
                 PatternCache cache(bound.constant, name, bound.options);
                 BinaryExecute<string_t, string_t, bool>(args.data[0], args.data[1], result, count, [&](string_t s, string_t p) {
                   if (ctx.client) ctx.client->CheckInterrupt();
                   const RegexMatcher& matcher = cache.For(p);
                   return FULL ? matcher.FullMatch(s) : matcher.Find(s);
                 });
               });
}

BoundScalarFunction BindRegexpReplace(const ScalarBindInput& input) {
  const std::string accepted = "regexp_replace(VARCHAR, regex VARCHAR, replacement VARCHAR[, options VARCHAR])";
  RegexBind bound = BindRegex(input, 3, 3, accepted, true, true);
  return Bound(VarcharArguments(input.argument_types.size()), TypeId::VARCHAR,
               [bound, name = input.name](DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx) {
                 PatternCache cache(bound.constant, name, bound.options);
                 const auto* s = args.data[0].GetData<string_t>();
                 const auto* p = args.data[1].GetData<string_t>();
                 const auto* r = args.data[2].GetData<string_t>();
                 auto* out = result.GetData<string_t>();
                 uint8_t* valid = result.Validity();
                 std::string buffer;
                 for (idx_t i = 0; i < count; i++) {
                   valid[i] = AllValid(args, i) ? 1 : 0;
                   if (!valid[i]) continue;
                   if (ctx.client) ctx.client->CheckInterrupt();
                   cache.For(p[i]).Replace(s[i], r[i], buffer);
                   out[i] = result.AddString(buffer);
                 }
               });
}

BoundScalarFunction BindRegexpExtract(const ScalarBindInput& input) {
  const std::string accepted = "regexp_extract(VARCHAR, regex VARCHAR[, group INTEGER[, options VARCHAR]])";
  int64_t group = 0;
  if (input.argument_types.size() > 2) {
    const Value* v = input.constant_arguments.size() > 2 ? input.constant_arguments[2] : nullptr;
    if (v == nullptr || v->IsNull() || !v->type().IsIntegral()) {
      throw InvalidInputError("regexp_extract: the group must be a constant integer 0 to " +
                              std::to_string(kMaxExtractGroups) + " (0 is the whole match)");
    }
    group = v->AsBigint();
    if (group < 0 || group > kMaxExtractGroups) {
      throw InvalidInputError("regexp_extract: group " + std::to_string(group) + " is out of range: use 0 to " +
                              std::to_string(kMaxExtractGroups) + " (0 is the whole match)");
    }
  }
  RegexBind bound = BindRegex(input, 2, 3, accepted, false, true);
  std::vector<LogicalType> types = VarcharArguments(input.argument_types.size());
  if (types.size() > 2) types[2] = input.argument_types[2];
  return Bound(std::move(types), TypeId::VARCHAR,
               [bound, group, name = input.name](DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx) {
                 PatternCache cache(bound.constant, name, bound.options);
                 result.AddHeapReference(args.data[0]);  // the group is a view into the string
                 BinaryExecute<string_t, string_t, string_t>(args.data[0], args.data[1], result, count, [&](string_t s, string_t p) {
                   if (ctx.client) ctx.client->CheckInterrupt();
                   std::string_view g = cache.For(p).Extract(s, static_cast<int>(group));
                   return g.empty() ? string_t() : string_t(g.data(), g.size());
                 });
               });
}

}  // namespace

void RegisterRegexpFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("regexp_matches", BindRegexpMatches<false>);
  registry.Register("regexp_like", BindRegexpMatches<false>);
  registry.Register("rlike", BindRegexpMatches<false>);
  registry.Register("regexp_full_match", BindRegexpMatches<true>);
  registry.Register("regexp_replace", BindRegexpReplace);
  registry.Register("regexp_extract", BindRegexpExtract);
}

}  // namespace lakestream
