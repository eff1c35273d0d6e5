#include <algorithm>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

bool IsAggregateFunction(const std::string& name) {
  return name == "count" || name == "sum" || name == "avg" || name == "mean" || name == "min" || name == "max" ||
         name == "any_value" || name == "first" || name == "count_distinct";
}

static std::string TypeList(const std::vector<LogicalType>& types) {
  std::vector<std::string> names;
  names.reserve(types.size());
  for (auto& t : types) names.push_back(t.ToString());
  return StringUtil::Join(names, ", ");
}

AggregateSignature BindAggregate(const std::string& name, const std::vector<LogicalType>& args, bool distinct,
                                 bool star_argument) {
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
