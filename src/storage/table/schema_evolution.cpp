#include "storage/table/schema_evolution.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

bool DeltaAllowsWidening(const LogicalType& from, const LogicalType& to) {
  if (from == to) return true;
  switch (from.id()) {
    case TypeId::INTEGER:
      return to.id() == TypeId::BIGINT || to.id() == TypeId::DOUBLE ||
             (to.id() == TypeId::DECIMAL && to.width() - to.scale() >= 10);
    case TypeId::BIGINT: return to.id() == TypeId::DECIMAL && to.width() - to.scale() >= 20;
    case TypeId::DECIMAL:
      return to.id() == TypeId::DECIMAL && to.scale() >= from.scale() && to.width() - to.scale() >= from.width() - from.scale();
    case TypeId::DATE: return to.id() == TypeId::TIMESTAMP_NTZ;
    default: return false;
  }
}

bool DeltaWidensOnEvolution(const LogicalType& from, const LogicalType& to) {
  if (!DeltaAllowsWidening(from, to)) return false;
  return from == to || from.id() == to.id() || (from.id() == TypeId::INTEGER && to.id() == TypeId::BIGINT) ||
         from.id() == TypeId::DATE;
}

void LeafTypeChanges(const LogicalType& older, const LogicalType& newer, const std::string& path,
                     std::vector<TypeChange>& out) {
  if (older == newer) return;
  if (older.id() == TypeId::STRUCT && newer.id() == TypeId::STRUCT) {
    for (auto& [name, type] : older.children()) {
      int64_t at = FindStructField(newer.children(), name);
      if (at >= 0) LeafTypeChanges(type, newer.children()[at].second, path + "." + name, out);
    }
    return;
  }
  if (older.id() == TypeId::LIST && newer.id() == TypeId::LIST) {
    LeafTypeChanges(older.ListChild(), newer.ListChild(), path + ".element", out);
    return;
  }
  if (older.id() == TypeId::MAP && newer.id() == TypeId::MAP) {
    auto& a = older.ListChild().children();
    auto& b = newer.ListChild().children();
    LeafTypeChanges(a[0].second, b[0].second, path + ".key", out);
    LeafTypeChanges(a[1].second, b[1].second, path + ".value", out);
    return;
  }
  out.push_back({path, older, newer});
}

bool TypeEvolvesTo(const LogicalType& older, const LogicalType& newer) {
  if (older == newer) return true;
  if (older.id() == TypeId::STRUCT && newer.id() == TypeId::STRUCT) {
    // Every old field is still there (in any position) with an evolved type.
    for (auto& [name, type] : older.children()) {
      int64_t at = FindStructField(newer.children(), name);
      if (at < 0 || !TypeEvolvesTo(type, newer.children()[at].second)) return false;
    }
    return true;
  }
  if (older.id() == TypeId::LIST && newer.id() == TypeId::LIST) return TypeEvolvesTo(older.ListChild(), newer.ListChild());
  if (older.id() == TypeId::MAP && newer.id() == TypeId::MAP) {
    auto& a = older.ListChild().children();
    auto& b = newer.ListChild().children();
    return a[0].second == b[0].second && TypeEvolvesTo(a[1].second, b[1].second);
  }
  return DeltaAllowsWidening(older, newer);
}

bool TryConformValue(const Value& value, const LogicalType& target, Value& out) {
  if (value.IsNull()) {
    out = Value(target);
    return true;
  }
  if (value.type() == target) {
    out = value;
    return true;
  }
  const LogicalType& source = value.type();
  if (source.id() == TypeId::STRUCT && target.id() == TypeId::STRUCT) {
    std::vector<Value> fields(target.children().size());
    for (idx_t i = 0; i < target.children().size(); i++) {
      int64_t at = FindStructField(source.children(), target.children()[i].first);
      if (at < 0) {
        fields[i] = Value(target.children()[i].second);
      } else if (!TryConformValue(value.Children()[at], target.children()[i].second, fields[i])) {
        return false;
      }
    }
    out = Value::STRUCT(target, std::move(fields));
    return true;
  }
  if ((source.id() == TypeId::LIST && target.id() == TypeId::LIST) ||
      (source.id() == TypeId::MAP && target.id() == TypeId::MAP)) {
    std::vector<Value> elements(value.Children().size());
    for (idx_t i = 0; i < elements.size(); i++) {
      if (!TryConformValue(value.Children()[i], target.ListChild(), elements[i])) return false;
    }
    out = Value::LIST(target, std::move(elements));
    return true;
  }
  std::string error;
  return TryCastValue(value, target, out, &error);
}

Value ConformValue(const Value& value, const LogicalType& target) {
  Value out;
  if (!TryConformValue(value, target, out)) {
    throw InternalError("cannot read a stored " + value.type().ToString() + " as " + target.ToString());
  }
  return out;
}

namespace {
thread_local const std::vector<TableColumn>* current_evolution = nullptr;
}  // namespace

SchemaEvolutionScope::SchemaEvolutionScope(const std::vector<TableColumn>* columns) : previous_(current_evolution) {
  current_evolution = columns;
}

SchemaEvolutionScope::~SchemaEvolutionScope() { current_evolution = previous_; }

const std::vector<TableColumn>* SchemaEvolutionScope::Current() { return current_evolution; }

void ConformVector(const Vector& source, Vector& result, idx_t count) {
  if (!source.GetType().IsNested() && !result.GetType().IsNested()) {
    CastVector(source, result, count);  // a widened number or date: vectorized
    return;
  }
  for (idx_t r = 0; r < count; r++) result.SetValue(r, ConformValue(source.GetValue(r), result.GetType()));
}

int64_t FindStructField(const child_list_t& fields, const std::string& name) {
  for (idx_t i = 0; i < fields.size(); i++) {
    if (fields[i].first == name) return static_cast<int64_t>(i);
  }
  for (idx_t i = 0; i < fields.size(); i++) {
    if (StringUtil::CIEquals(fields[i].first, name)) return static_cast<int64_t>(i);
  }
  return -1;
}

}  // namespace lakestream
