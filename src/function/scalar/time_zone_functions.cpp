// Functions that name a time zone (Spark):
//
//   current_timezone() -> VARCHAR: the session time zone (SET TIME ZONE).
//   from_utc_timestamp(ts, zone) -> TIMESTAMP: the instant whose UTC wall
//     clock is ts's wall clock in `zone` (in a UTC session
//     from_utc_timestamp('2024-01-01 00:00:00', 'Asia/Seoul') shows 09:00);
//     to_utc_timestamp(ts, zone) is the inverse. Both are Spark's convertTz
//     and, given an instant, do not depend on the session zone.
//   convert_timezone([source,] target, ntz) -> TIMESTAMP_NTZ: the wall clock
//     `ntz` in `source` (default the session zone) as seen in `target`.
// A zone that does not exist is an error naming it (TimeZone::Get), never UTC.
#include <memory>

#include "common/date.hpp"
#include "common/time_zone.hpp"
#include "function/scalar/date_format.hpp"
#include "function/scalar/executor.hpp"

namespace lakestream {
namespace {

bool IsTextOrNull(const LogicalType& t) { return t.id() == TypeId::VARCHAR || t.id() == TypeId::SQLNULL; }
bool IsTemporal(const LogicalType& t) {
  return t.id() == TypeId::DATE || t.IsTimestamp() || t.id() == TypeId::VARCHAR || t.id() == TypeId::SQLNULL;
}

// Looks zones up per row, remembering the last one (a column of zone names is
// usually one or a few values).
class ZoneLookup {
 public:
  const TimeZone& Get(string_t name) {
    if (!zone_ || name != name_) {
      name_ = std::string(name);
      zone_ = TimeZone::Get(name_);
    }
    return *zone_;
  }

 private:
  std::string name_;
  std::shared_ptr<const TimeZone> zone_;
};

BoundScalarFunction BindCurrentTimezone(const ScalarBindInput& input) {
  CheckArgumentCount(input, 0, 0, "current_timezone()");
  auto f = Bound({}, TypeId::VARCHAR, [](DataChunk&, Vector& r, idx_t c, const FunctionContext&) {
    string_t name = r.AddString(SessionTimeZone().Name());
    for (idx_t i = 0; i < c; i++) r.GetData<string_t>()[i] = name;
    r.SetAllValid(c);
  });
  // The session's setting when the query runs, not when a view was defined.
  f.deterministic = false;
  return f;
}

template <bool FROM_UTC>
BoundScalarFunction BindUtcConversion(const ScalarBindInput& input) {
  std::string accepted = input.name + "(TIMESTAMP, timezone VARCHAR)";
  CheckArgumentCount(input, 2, 2, accepted);
  if (!IsTemporal(input.argument_types[0]) || !IsTextOrNull(input.argument_types[1])) ThrowArgumentError(input, accepted);
  // A zone given as a constant is checked when the statement is bound.
  if (const std::string* zone = ConstantString(input, 1)) TimeZone::Get(*zone);
  return Bound({TypeId::TIMESTAMP, TypeId::VARCHAR}, TypeId::TIMESTAMP, [](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    ZoneLookup zones;
    BinaryExecute<timestamp_t, string_t, timestamp_t>(a.data[0], a.data[1], r, c, [&](timestamp_t ts, string_t name) {
      const TimeZone& zone = zones.Get(name);
      return FROM_UTC ? zone.UtcToLocal(ts) : zone.LocalToUtc(ts);
    });
  });
}

BoundScalarFunction BindConvertTimezone(const ScalarBindInput& input) {
  const char* accepted = "convert_timezone([source_tz VARCHAR,] target_tz VARCHAR, TIMESTAMP_NTZ)";
  CheckArgumentCount(input, 2, 3, accepted);
  size_t n = input.argument_types.size();
  for (size_t i = 0; i + 1 < n; i++) {
    if (!IsTextOrNull(input.argument_types[i])) ThrowArgumentError(input, accepted);
    if (const std::string* zone = ConstantString(input, i)) TimeZone::Get(*zone);
  }
  if (!IsTemporal(input.argument_types[n - 1])) ThrowArgumentError(input, accepted);
  std::vector<LogicalType> args(n - 1, TypeId::VARCHAR);
  args.emplace_back(TypeId::TIMESTAMP_NTZ);
  return Bound(args, TypeId::TIMESTAMP_NTZ, [n](DataChunk& a, Vector& r, idx_t c, const FunctionContext&) {
    ZoneLookup sources, targets;
    const TimeZone& session = SessionTimeZone();
    auto* out = r.GetData<timestamp_t>();
    for (idx_t i = 0; i < c; i++) {
      bool valid = AllValid(a, i);
      r.SetValid(i, valid);
      if (!valid) continue;
      const TimeZone& source = n == 3 ? sources.Get(a.data[0].GetData<string_t>()[i]) : session;
      const TimeZone& target = targets.Get(a.data[n - 2].GetData<string_t>()[i]);
      out[i] = target.UtcToLocal(source.LocalToUtc(a.data[n - 1].GetData<timestamp_t>()[i]));
    }
  });
}

}  // namespace

void RegisterTimeZoneFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("current_timezone", BindCurrentTimezone);
  registry.Register("from_utc_timestamp", BindUtcConversion<true>);
  registry.Register("to_utc_timestamp", BindUtcConversion<false>);
  registry.Register("convert_timezone", BindConvertTimezone);
}

}  // namespace lakestream
