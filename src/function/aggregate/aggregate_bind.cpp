#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

bool IsAggregateFunction(const std::string& name) {
  static const std::unordered_set<std::string> kNames = {
      "count", "sum", "avg", "mean", "min", "max", "any_value", "first", "count_distinct", "last",
      "stddev", "std", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop",
      "bool_and", "bool_or", "every", "some", "any", "count_if",
      "median", "quantile_cont", "percentile_cont", "percentile", "quantile_disc", "percentile_disc", "quantile",
      "percentile_approx", "approx_percentile", "approx_quantile",
      "array_agg", "collect_list", "list", "collect_set", "string_agg", "listagg", "group_concat",
      "max_by", "min_by", "arg_max", "arg_min", "approx_count_distinct", "grouping", "grouping_id",
      "kurtosis", "kurtosis_pop", "skewness", "product", "fsum", "sumkahan", "kahan_sum",
      "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count", "regr_avgx",
      "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "bit_and", "bit_or", "bit_xor", "mode", "histogram", "entropy"};
  return kNames.count(name) > 0;
}

bool AggregateSignature::OrderSensitive() const {
  switch (kind) {
    case AggregateKind::ANY_VALUE:
    case AggregateKind::LAST:
    case AggregateKind::COLLECT_LIST:
    case AggregateKind::COLLECT_SET:
    case AggregateKind::STRING_AGG:
    case AggregateKind::MODE: return true;  // ties go to the value that arrives first
    default: return false;
  }
}

bool AggregateSignature::Incremental() const {
  switch (kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
    case AggregateKind::SUM:
    case AggregateKind::AVG:
    case AggregateKind::MIN:
    case AggregateKind::MAX:
    case AggregateKind::COUNT_DISTINCT: return true;
    default: return false;
  }
}

static std::string TypeList(const std::vector<LogicalType>& types) {
  std::vector<std::string> names;
  names.reserve(types.size());
  for (auto& t : types) names.push_back(t.ToString());
  return StringUtil::Join(names, ", ");
}

static bool IsNumeric(const LogicalType& t) { return t.IsNumeric() || t.id() == TypeId::SQLNULL; }

// A bind-time constant argument (a fraction, a separator): set, non-NULL.
static const Value& ConstantArgument(const std::string& name, const std::vector<std::optional<Value>>& constants,
                                     idx_t i, const char* what) {
  if (i >= constants.size() || !constants[i] || constants[i]->IsNull()) {
    throw BinderError(name + "(): the " + what + " (argument " + std::to_string(i + 1) +
                      ") must be a non-NULL constant, e.g. " + name + "(x, 0.5)");
  }
  return *constants[i];
}

static double Fraction(const std::string& name, const std::vector<std::optional<Value>>& constants, idx_t i) {
  const Value& v = ConstantArgument(name, constants, i, "fraction");
  if (v.type().id() == TypeId::LIST) {
    throw NotImplementedError("" + name + "() with an array of fractions; call it once per fraction");
  }
  if (!v.type().IsNumeric()) throw BinderError(name + "(): the fraction must be a number between 0 and 1, got " + v.ToSQLString());
  double p = v.AsDouble();
  if (!(p >= 0 && p <= 1)) throw BinderError(name + "(): the fraction must be between 0 and 1, got " + v.ToString());
  return p;
}

// The aggregates of src/function/aggregate/{statistics,boolean,quantile,list,
// arg_extreme,hyperloglog}.cpp; false when `name` is none of them.
static bool BindFamilyAggregate(const std::string& name, const std::vector<LogicalType>& args,
                                const std::vector<std::optional<Value>>& constants, AggregateSignature& sig) {
  auto wrong = [&](const std::string& accepts) {
    throw BinderError("No function matches " + name + "(" + TypeList(args) + "). " + name + " accepts " + accepts + ".");
  };
  auto arity = [&](size_t low, size_t high, const char* accepts) {
    if (args.size() < low || args.size() > high) wrong(accepts);
  };
  auto set = [&](AggregateKind kind, LogicalType input, LogicalType result) {
    sig.kind = kind;
    sig.name = name;
    sig.input_type = std::move(input);
    sig.return_type = std::move(result);
  };
  const LogicalType first = args.empty() ? LogicalType(TypeId::SQLNULL) : args[0];
  // A NULL literal argument binds as the natural type of the function.
  auto or_int = [](const LogicalType& t) { return t.id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : t; };
  static const std::unordered_set<std::string> kStats = {"stddev", "std", "stddev_samp", "stddev_pop",
                                                         "variance", "var_samp", "var_pop"};
  if (kStats.count(name)) {
    arity(1, 1, "one numeric argument");
    if (!IsNumeric(first)) wrong("one numeric argument (INTEGER, BIGINT, DOUBLE or DECIMAL)");
    AggregateKind kind = name == "stddev_pop" ? AggregateKind::STDDEV_POP
                         : name == "var_pop"  ? AggregateKind::VAR_POP
                         : (name == "variance" || name == "var_samp") ? AggregateKind::VAR_SAMP
                                                                      : AggregateKind::STDDEV_SAMP;
    set(kind, TypeId::DOUBLE, TypeId::DOUBLE);
    return true;
  }
  static const std::unordered_map<std::string, AggregateKind> kDoubleFolds = {
      {"kurtosis", AggregateKind::KURTOSIS}, {"kurtosis_pop", AggregateKind::KURTOSIS_POP},
      {"skewness", AggregateKind::SKEWNESS}, {"product", AggregateKind::PRODUCT},
      {"fsum", AggregateKind::KAHAN_SUM}, {"sumkahan", AggregateKind::KAHAN_SUM}, {"kahan_sum", AggregateKind::KAHAN_SUM}};
  if (auto fold = kDoubleFolds.find(name); fold != kDoubleFolds.end()) {
    arity(1, 1, "one numeric argument");
    if (!IsNumeric(first)) wrong("one numeric argument (INTEGER, BIGINT, DOUBLE or DECIMAL)");
    set(fold->second, TypeId::DOUBLE, TypeId::DOUBLE);
    return true;
  }
  static const std::unordered_map<std::string, AggregateKind> kRegressions = {
      {"corr", AggregateKind::CORR}, {"covar_pop", AggregateKind::COVAR_POP},
      {"covar_samp", AggregateKind::COVAR_SAMP}, {"regr_slope", AggregateKind::REGR_SLOPE},
      {"regr_intercept", AggregateKind::REGR_INTERCEPT}, {"regr_r2", AggregateKind::REGR_R2},
      {"regr_count", AggregateKind::REGR_COUNT}, {"regr_avgx", AggregateKind::REGR_AVGX},
      {"regr_avgy", AggregateKind::REGR_AVGY}, {"regr_sxx", AggregateKind::REGR_SXX},
      {"regr_syy", AggregateKind::REGR_SYY}, {"regr_sxy", AggregateKind::REGR_SXY}};
  if (auto regression = kRegressions.find(name); regression != kRegressions.end()) {
    arity(2, 2, "two numeric arguments (y, x)");
    if (!IsNumeric(args[0]) || !IsNumeric(args[1])) wrong("two numeric arguments (y, x)");
    bool count = regression->second == AggregateKind::REGR_COUNT;
    set(regression->second, TypeId::DOUBLE, count ? TypeId::BIGINT : TypeId::DOUBLE);
    sig.second_type = TypeId::DOUBLE;
    return true;
  }
  if (name == "bit_and" || name == "bit_or" || name == "bit_xor") {
    arity(1, 1, "one INTEGER or BIGINT argument");
    if (first.id() != TypeId::INTEGER && first.id() != TypeId::BIGINT && first.id() != TypeId::SQLNULL) {
      wrong("one INTEGER or BIGINT argument");
    }
    AggregateKind kind = name == "bit_and" ? AggregateKind::BIT_AND
                         : name == "bit_or" ? AggregateKind::BIT_OR
                                            : AggregateKind::BIT_XOR;
    set(kind, or_int(first), or_int(first));
    return true;
  }
  if (name == "mode" || name == "histogram" || name == "entropy") {
    arity(1, 1, "one argument");
    if (first.id() == TypeId::MAP) wrong("a value of a type other than MAP");
    LogicalType input = or_int(first);
    if (name == "mode") set(AggregateKind::MODE, input, input);
    else if (name == "histogram") set(AggregateKind::HISTOGRAM, input, LogicalType::Map(input, TypeId::BIGINT));
    else set(AggregateKind::ENTROPY, input, TypeId::DOUBLE);
    return true;
  }
  if (name == "bool_and" || name == "every" || name == "bool_or" || name == "some" || name == "any" ||
      name == "count_if") {
    arity(1, 1, "one BOOLEAN argument");
    if (first.id() != TypeId::BOOLEAN && first.id() != TypeId::SQLNULL) wrong("one BOOLEAN argument");
    if (name == "count_if") set(AggregateKind::COUNT_IF, TypeId::BOOLEAN, TypeId::BIGINT);
    else if (name == "bool_and" || name == "every") set(AggregateKind::BOOL_AND, TypeId::BOOLEAN, TypeId::BOOLEAN);
    else set(AggregateKind::BOOL_OR, TypeId::BOOLEAN, TypeId::BOOLEAN);
    return true;
  }
  if (name == "median" || name == "quantile_cont" || name == "percentile_cont" || name == "percentile") {
    if (name == "median") arity(1, 1, "one numeric argument");
    else arity(2, 2, "a numeric value and a constant fraction between 0 and 1");
    if (!IsNumeric(first)) wrong("a numeric value (INTEGER, BIGINT, DOUBLE or DECIMAL)");
    set(AggregateKind::QUANTILE_CONT, TypeId::DOUBLE, TypeId::DOUBLE);
    sig.parameter = name == "median" ? 0.5 : Fraction(name, constants, 1);
    return true;
  }
  if (name == "quantile_disc" || name == "percentile_disc" || name == "quantile" || name == "percentile_approx" ||
      name == "approx_percentile" || name == "approx_quantile") {
    bool approx = name == "percentile_approx" || name == "approx_percentile" || name == "approx_quantile";
    arity(2, approx ? 3 : 2, "a value and a constant fraction between 0 and 1");
    if (first.IsNested()) wrong("a value of an orderable, non-nested type");
    if (approx) {
      // Spark: the value's own type; computed exactly (see docs/sql-aggregates.md).
      if (args.size() == 3) ConstantArgument(name, constants, 2, "accuracy");
      set(AggregateKind::PERCENTILE_APPROX, or_int(first), or_int(first));
    } else if (IsNumeric(first)) {
      set(AggregateKind::QUANTILE_DISC, TypeId::DOUBLE, TypeId::DOUBLE);  // Spark returns DOUBLE
    } else {
      set(AggregateKind::QUANTILE_DISC, first, first);
    }
    sig.parameter = Fraction(name, constants, 1);
    return true;
  }
  if (name == "array_agg" || name == "collect_list" || name == "list" || name == "collect_set") {
    arity(1, 1, "one argument");
    if (name == "collect_set" && first.IsNested()) wrong("a value of a non-nested type");
    set(name == "collect_set" ? AggregateKind::COLLECT_SET : AggregateKind::COLLECT_LIST, or_int(first),
        LogicalType::List(or_int(first)));
    return true;
  }
  if (name == "string_agg" || name == "listagg" || name == "group_concat") {
    arity(1, 2, "a value and an optional constant separator");
    if (first.IsNested()) wrong("a string (or a value cast to one) and an optional constant separator");
    set(AggregateKind::STRING_AGG, TypeId::VARCHAR, TypeId::VARCHAR);
    // Spark's string_agg/listagg default to no separator (DuckDB's to ',').
    if (args.size() == 2) sig.separator = ConstantArgument(name, constants, 1, "separator").CastAs(TypeId::VARCHAR).GetString();
    return true;
  }
  if (name == "max_by" || name == "min_by" || name == "arg_max" || name == "arg_min") {
    arity(2, 2, "a value and the value to order by");
    if (args[1].IsNested()) wrong("a value and an orderable, non-nested value to order by");
    bool max = name == "max_by" || name == "arg_max";
    set(max ? AggregateKind::MAX_BY : AggregateKind::MIN_BY, or_int(first), or_int(first));
    sig.second_type = or_int(args[1]);
    return true;
  }
  if (name == "last") {
    arity(1, 1, "one argument");
    set(AggregateKind::LAST, or_int(first), or_int(first));
    return true;
  }
  if (name == "approx_count_distinct") {
    arity(1, 2, "a value and an optional constant relative standard deviation");
    set(AggregateKind::APPROX_COUNT_DISTINCT, or_int(first), TypeId::BIGINT);
    sig.parameter = 0.05;  // Spark's default
    if (args.size() == 2) {
      const Value& v = ConstantArgument(name, constants, 1, "relative standard deviation");
      double rsd = v.type().IsNumeric() ? v.AsDouble() : -1;
      if (!(rsd >= 0.01 && rsd < 1)) {
        throw BinderError(name + "(): the relative standard deviation must be between 0.01 and 1, got " + v.ToString());
      }
      sig.parameter = rsd;
    }
    return true;
  }
  return false;
}

AggregateSignature BindAggregate(const std::string& name, const std::vector<LogicalType>& args, bool distinct,
                                 bool star_argument) {
  return BindAggregate(name, args, std::vector<std::optional<Value>>(args.size()), distinct, star_argument);
}

AggregateSignature BindAggregate(const std::string& name, const std::vector<LogicalType>& args,
                                 const std::vector<std::optional<Value>>& constants, bool distinct,
                                 bool star_argument) {
  AggregateSignature family{AggregateKind::COUNT_STAR, name, LogicalType(), LogicalType()};
  if (BindFamilyAggregate(name, args, constants, family)) {
    // DISTINCT: each distinct non-NULL value of a group reaches the state once.
    if (distinct) {
      if (family.second_type.id() != TypeId::INVALID) {
        throw NotImplementedError("" + name + "(DISTINCT ...); use a subquery with SELECT DISTINCT");
      }
      family.distinct = true;
    }
    return family;
  }
  auto wrong = [&](const std::string& accepts) -> AggregateSignature {
    throw BinderError("No function matches " + name + "(" + TypeList(args) + "). " + name + " accepts " + accepts + ".");
  };
  if (name == "count") {
    if (star_argument || args.empty()) return {AggregateKind::COUNT_STAR, "count_star", LogicalType(), TypeId::BIGINT};
    if (args.size() != 1) wrong("one argument, or *");
    if (distinct) return {AggregateKind::COUNT_DISTINCT, "count(DISTINCT)", args[0], TypeId::BIGINT};
    return {AggregateKind::COUNT, "count", args[0], TypeId::BIGINT};
  }
  if (args.size() != 1) wrong("exactly one argument");
  const LogicalType& t = args[0];
  if (distinct && (name == "sum" || name == "avg" || name == "mean")) {
    AggregateSignature plain = BindAggregate(name, args, false, false);
    plain.distinct = true;
    return plain;
  }
  // min, max, any_value: DISTINCT cannot change the result.
  if (name == "sum") {
    switch (t.id()) {
      case TypeId::SQLNULL:
      case TypeId::INTEGER:
      case TypeId::BIGINT: return {AggregateKind::SUM, "sum", TypeId::BIGINT, TypeId::BIGINT};
      case TypeId::DOUBLE: return {AggregateKind::SUM, "sum", TypeId::DOUBLE, TypeId::DOUBLE};
      case TypeId::DECIMAL:
        // Spark's rule: ten more digits of headroom, same scale.
        return {AggregateKind::SUM, "sum", t,
                LogicalType::Decimal(static_cast<uint8_t>(std::min(38, t.width() + 10)), t.scale())};
      default: wrong("INTEGER, BIGINT, DOUBLE or DECIMAL");
    }
  }
  if (name == "avg" || name == "mean") {
    switch (t.id()) {
      case TypeId::SQLNULL:
      case TypeId::INTEGER:
      case TypeId::BIGINT: return {AggregateKind::AVG, "avg", TypeId::BIGINT, TypeId::DOUBLE};
      case TypeId::DOUBLE: return {AggregateKind::AVG, "avg", TypeId::DOUBLE, TypeId::DOUBLE};
      case TypeId::DECIMAL: return {AggregateKind::AVG, "avg", t, TypeId::DOUBLE};
      default: wrong("INTEGER, BIGINT, DOUBLE or DECIMAL");
    }
  }
  if (name == "min" || name == "max") {
    if (t.IsNested()) wrong("a value of a non-nested type");
    LogicalType input = t.id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : t;
    return {name == "min" ? AggregateKind::MIN : AggregateKind::MAX, name, input, input};
  }
  if (name == "any_value" || name == "first") {
    LogicalType input = t.id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : t;
    return {AggregateKind::ANY_VALUE, name, input, input};
  }
  throw BinderError("Aggregate function " + name + " does not exist!");
}

}  // namespace lakestream
