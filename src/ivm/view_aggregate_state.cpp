#include "ivm/view_aggregate_state.hpp"

#include "common/exception.hpp"
#include "ivm/view_diff.hpp"

namespace lakestream {

ViewAggregateState::ViewAggregateState(std::vector<LogicalType> key_types, const std::vector<AggregateSignature>& subs)
    : key_types_(std::move(key_types)) {
  for (idx_t k = 0; k < key_types_.size(); k++) key_columns_.push_back(k);
  int_key_ = key_types_.size() == 1 &&
             (key_types_[0].id() == TypeId::INTEGER || key_types_[0].id() == TypeId::BIGINT);
  for (auto& sub : subs) {
    Column column;
    column.kind = sub.kind;
    column.type = sub.return_type;
    column.decimal = sub.return_type.id() == TypeId::DECIMAL;
    switch (sub.kind) {
      case AggregateKind::COUNT:
      case AggregateKind::COUNT_DISTINCT:
      case AggregateKind::MIN:
      case AggregateKind::MAX: break;
      case AggregateKind::SUM:
        if (!column.decimal && sub.return_type.id() != TypeId::BIGINT) {
          throw InternalError("aggregate view state: sum() returning " + sub.return_type.ToString());
        }
        break;
      default: throw InternalError("aggregate view state: " + sub.name + "() has no incremental state");
    }
    columns_.push_back(std::move(column));
  }
}

ViewAggregateState::GroupId ViewAggregateState::NewId() {
  if (!free_.empty()) {
    GroupId id = free_.back();
    free_.pop_back();
    return id;
  }
  auto id = static_cast<GroupId>(live_.size());
  if (live_.size() >= UINT32_MAX) throw InternalError("aggregate view state: more than 2^32 groups");
  live_.push_back(0);
  keys_.emplace_back();
  key_values_.resize(key_values_.size() + key_types_.size());
  count_.push_back(0);
  recompute_.push_back(0);
  for (auto& column : columns_) {
    column.ints.push_back(0);
    if (column.decimal) column.wides.push_back(0);
    column.valid.push_back(0);
    if (column.kind == AggregateKind::MIN || column.kind == AggregateKind::MAX) column.values.emplace_back(column.type);
  }
  return id;
}

bool ViewAggregateState::IntKeyOf(const Value& v, int64_t& out) const {
  if (v.IsNull()) return false;
  const Value& key = v.type() == key_types_[0] ? v : v.CastAs(key_types_[0]);
  out = key_types_[0].id() == TypeId::INTEGER ? key.GetInteger() : key.GetBigint();
  return true;
}

void ViewAggregateState::IndexIntKey(GroupId id, const Value& v) {
  if (!int_key_) return;
  int64_t key = 0;
  if (IntKeyOf(v, key)) {
    int_index_[key] = id;
  } else {
    null_group_ = id;
  }
}

// A fresh group: no rows, zero counters, no sums or extremes yet.
ViewAggregateState::GroupId ViewAggregateState::FindOrAdd(const std::string& key, const DataChunk& partial, idx_t row) {
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  GroupId id = NewId();
  index_.emplace(key, id);
  keys_[id] = key;
  for (idx_t k = 0; k < key_types_.size(); k++) key_values_[id * key_types_.size() + k] = partial.GetValue(k, row);
  IndexIntKey(id, key_values_[id * key_types_.size()]);
  live_[id] = 1;
  count_[id] = 0;
  recompute_[id] = 0;
  for (auto& column : columns_) {
    column.ints[id] = 0;
    if (column.decimal) column.wides[id] = 0;
    column.valid[id] = 0;
    if (!column.values.empty()) column.values[id] = Value(column.type);
  }
  return id;
}

void ViewAggregateState::Apply(const DataChunk& partial, int sign, std::vector<GroupId>& touched) {
  const idx_t keys = key_types_.size();
  const idx_t rows = partial.size();
  std::vector<GroupId> ids(rows);
  const bool by_value = int_key_ && partial.data[0].GetType().id() == key_types_[0].id();
  if (by_value) {
    // Groups already seen by their key's value; only a new one is encoded (below).
    const Vector& in = partial.data[0];
    const bool narrow = key_types_[0].id() == TypeId::INTEGER;
    for (idx_t r = 0; r < rows; r++) {
      GroupId id = ~GroupId(0);
      if (!in.IsValid(r)) {
        id = null_group_;
      } else {
        int64_t key = narrow ? in.GetData<int32_t>()[r] : in.GetData<int64_t>()[r];
        auto it = int_index_.find(key);
        if (it != int_index_.end()) id = it->second;
      }
      if (id == ~GroupId(0)) {
        scratch_.clear();
        AppendVectorValue(in, r, scratch_);
        id = FindOrAdd(scratch_, partial, r);
      }
      ids[r] = id;
    }
    touched.insert(touched.end(), ids.begin(), ids.end());
  }
  for (idx_t r = 0; r < rows && !by_value; r++) {
    scratch_.clear();
    for (idx_t k = 0; k < keys; k++) AppendVectorValue(partial.data[k], r, scratch_);
    ids[r] = FindOrAdd(scratch_, partial, r);
    touched.push_back(ids[r]);
  }
  // count(*) and each sub-aggregate, one column at a time.
  const Vector& counts = partial.data[keys];
  const auto* n = counts.GetData<int64_t>();
  for (idx_t r = 0; r < rows; r++) {
    if (counts.IsValid(r)) count_[ids[r]] += sign * n[r];
  }
  for (idx_t s = 0; s < columns_.size(); s++) {
    Column& column = columns_[s];
    const Vector& in = partial.data[keys + 1 + s];
    switch (column.kind) {
      case AggregateKind::COUNT: {
        const auto* v = in.GetData<int64_t>();
        for (idx_t r = 0; r < rows; r++) {
          if (in.IsValid(r)) column.ints[ids[r]] += sign * v[r];
        }
        break;
      }
      case AggregateKind::SUM:
        for (idx_t r = 0; r < rows; r++) {
          if (!in.IsValid(r)) continue;
          GroupId id = ids[r];
          if (column.decimal) {
            column.wides[id] += sign * in.GetData<hugeint_t>()[r];
          } else {
            column.ints[id] += sign * in.GetData<int64_t>()[r];
          }
          column.valid[id] = 1;
        }
        break;
      case AggregateKind::MIN:
      case AggregateKind::MAX: {
        int order = column.kind == AggregateKind::MIN ? 1 : -1;  // > 0: the value is less extreme than the current
        for (idx_t r = 0; r < rows; r++) {
          if (!in.IsValid(r)) continue;
          GroupId id = ids[r];
          Value v = in.GetValue(r);
          Value& cur = column.values[id];
          if (sign > 0) {
            if (cur.IsNull() || v.Compare(cur) * order < 0) cur = std::move(v);
          } else if (cur.IsNull() || v.Compare(cur) * order <= 0) {
            // The current extreme (or one at least as extreme) left: only a
            // recomputation of the group knows the next one.
            recompute_[id] = 1;
          }
        }
        break;
      }
      case AggregateKind::COUNT_DISTINCT:
        for (idx_t r = 0; r < rows; r++) recompute_[ids[r]] = 1;
        break;
      default: break;
    }
  }
}

ViewAggregateState::GroupId ViewAggregateState::Set(const Row& row) {
  const idx_t keys = key_types_.size();
  if (row.size() != keys + 1 + columns_.size()) throw InternalError("aggregate view state: a state row of the wrong width");
  scratch_ = EncodeRow(row, key_columns_);
  auto it = index_.find(scratch_);
  GroupId id;
  if (it != index_.end()) {
    id = it->second;
  } else {
    id = NewId();
    index_.emplace(scratch_, id);
    keys_[id] = scratch_;
    live_[id] = 1;
    IndexIntKey(id, row[0]);
  }
  for (idx_t k = 0; k < keys; k++) key_values_[id * keys + k] = row[k];
  count_[id] = row[keys].IsNull() ? 0 : row[keys].AsBigint();
  recompute_[id] = 0;
  for (idx_t s = 0; s < columns_.size(); s++) {
    Column& column = columns_[s];
    const Value& v = row[keys + 1 + s];
    column.valid[id] = v.IsNull() ? 0 : 1;
    switch (column.kind) {
      case AggregateKind::MIN:
      case AggregateKind::MAX: column.values[id] = v; break;
      case AggregateKind::SUM:
        if (column.decimal) {
          column.wides[id] = v.IsNull() ? 0 : v.GetHugeint();
        } else {
          column.ints[id] = v.IsNull() ? 0 : v.AsBigint();
        }
        break;
      default: column.ints[id] = v.IsNull() ? 0 : v.AsBigint(); break;
    }
  }
  return id;
}

std::optional<ViewAggregateState::GroupId> ViewAggregateState::Find(const std::string& key) const {
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void ViewAggregateState::Erase(GroupId id) {
  if (!live_[id]) return;
  index_.erase(keys_[id]);
  if (int_key_) {
    int64_t key = 0;
    if (IntKeyOf(key_values_[id * key_types_.size()], key)) {
      int_index_.erase(key);
    } else {
      null_group_ = ~GroupId(0);
    }
  }
  keys_[id].clear();
  for (idx_t k = 0; k < key_types_.size(); k++) key_values_[id * key_types_.size() + k] = Value();
  for (auto& column : columns_) {
    if (!column.values.empty()) column.values[id] = Value();
  }
  live_[id] = 0;
  free_.push_back(id);
}

void ViewAggregateState::Clear() {
  index_.clear();
  int_index_.clear();
  null_group_ = ~GroupId(0);
  keys_.clear();
  key_values_.clear();
  count_.clear();
  recompute_.clear();
  live_.clear();
  free_.clear();
  for (auto& column : columns_) {
    column.ints.clear();
    column.wides.clear();
    column.valid.clear();
    column.values.clear();
  }
}

Value ViewAggregateState::Sub(GroupId id, idx_t s) const {
  const Column& column = columns_[s];
  switch (column.kind) {
    case AggregateKind::MIN:
    case AggregateKind::MAX: return column.values[id];
    case AggregateKind::SUM:
      if (!column.valid[id]) return Value(column.type);
      if (column.decimal) return Value::DECIMAL(column.wides[id], column.type.width(), column.type.scale());
      return Value::BIGINT(column.ints[id]);
    default: return Value::BIGINT(column.ints[id]);
  }
}

Row ViewAggregateState::StateRow(GroupId id) const {
  Row row;
  row.reserve(key_types_.size() + 1 + columns_.size());
  for (idx_t k = 0; k < key_types_.size(); k++) row.push_back(KeyValue(id, k));
  row.push_back(Value::BIGINT(count_[id]));
  for (idx_t s = 0; s < columns_.size(); s++) row.push_back(Sub(id, s));
  return row;
}

}  // namespace lakestream
