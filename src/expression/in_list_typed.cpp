#include "expression/in_list_typed.hpp"

#include <algorithm>

#include "common/exception.hpp"

namespace lakestream {

// `probe IN (list)` for each row, `list` (sorted, distinct) typed as the
// probe: a linear search of a short list (the usual few literals), else a
// binary search. SQL's three-valued IN as in ExecuteInList.
template <class T>
static void InListSearch(const Vector& probe, const Vector& list, bool has_null, bool negated, Vector& result,
                         idx_t count) {
  const T* in = probe.GetData<T>();
  const uint8_t* valid = probe.Validity();
  const T* items = list.GetData<T>();
  const idx_t n = list.Capacity();
  auto* out = result.GetData<bool>();
  uint8_t* out_valid = result.Validity();
  for (idx_t i = 0; i < count; i++) {
    if (!valid[i]) {
      out_valid[i] = 0;
      continue;
    }
    const T& v = in[i];
    bool found;
    if (n <= 16) {
      found = false;
      for (idx_t k = 0; k < n; k++) found |= items[k] == v;
    } else {
      found = std::binary_search(items, items + n, v);
    }
    out_valid[i] = found || !has_null;
    out[i] = found != negated;
  }
}

// The Select form of InListSearch: the rows of `sel` where the IN is TRUE.
template <class T>
static idx_t InListSelect(const Vector& probe, const Vector& list, bool has_null, bool negated, const sel_t* sel,
                          idx_t count, sel_t* true_sel) {
  const T* in = probe.GetData<T>();
  const uint8_t* valid = probe.Validity();
  const T* items = list.GetData<T>();
  const idx_t n = list.Capacity();
  idx_t kept = 0;
  for (idx_t k = 0; k < count; k++) {
    const idx_t row = sel ? sel[k] : k;
    bool pass = false;
    if (valid[row]) {
      const T& v = in[row];
      bool found = false;
      if (n <= 16) {
        for (idx_t j = 0; j < n; j++) found |= items[j] == v;
      } else {
        found = std::binary_search(items, items + n, v);
      }
      pass = negated ? !found && !has_null : found;
    }
    true_sel[kept] = static_cast<sel_t>(row);
    kept += static_cast<idx_t>(pass);
  }
  return kept;
}

idx_t InListTypedSelect(const Vector& probe, const Vector& list, bool has_null, bool negated, const sel_t* sel,
                               idx_t count, sel_t* true_sel) {
  switch (probe.GetType().id()) {
    case TypeId::INTEGER:
    case TypeId::DATE: return InListSelect<int32_t>(probe, list, has_null, negated, sel, count, true_sel);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return InListSelect<int64_t>(probe, list, has_null, negated, sel, count, true_sel);
    case TypeId::DECIMAL: return InListSelect<hugeint_t>(probe, list, has_null, negated, sel, count, true_sel);
    case TypeId::VARCHAR: return InListSelect<string_t>(probe, list, has_null, negated, sel, count, true_sel);
    default: throw InternalError("a typed IN list of an unsupported type");
  }
}

void InListTyped(const Vector& probe, const Vector& list, bool has_null, bool negated, Vector& result,
                        idx_t count) {
  switch (probe.GetType().id()) {
    case TypeId::INTEGER:
    case TypeId::DATE: InListSearch<int32_t>(probe, list, has_null, negated, result, count); return;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: InListSearch<int64_t>(probe, list, has_null, negated, result, count); return;
    case TypeId::DECIMAL: InListSearch<hugeint_t>(probe, list, has_null, negated, result, count); return;
    case TypeId::VARCHAR: InListSearch<string_t>(probe, list, has_null, negated, result, count); return;
    default: throw InternalError("a typed IN list of an unsupported type");
  }
}

// The typed form of an IN list's constants (InListConstants::typed), or null.
template <class T>
static std::unique_ptr<Vector> SortedTyped(const LogicalType& type, const std::vector<Value>& values) {
  auto list = std::make_unique<Vector>(type, std::max<idx_t>(values.size(), 1));
  for (idx_t i = 0; i < values.size(); i++) list->SetValue(i, values[i]);
  T* items = list->GetData<T>();
  std::sort(items, items + values.size());
  idx_t n = std::unique(items, items + values.size()) - items;
  // Capacity() is the searched length: a vector of exactly the distinct rows.
  auto exact = std::make_unique<Vector>(type, n);
  exact->AddHeapReference(*list);
  std::copy(items, items + n, exact->GetData<T>());
  exact->SetAllValid(n);
  return exact;
}

std::unique_ptr<Vector> TypedInList(const LogicalType& probe_type, const std::vector<Value>& values) {
  if (values.empty()) return nullptr;
  for (auto& v : values) {
    if (!(v.type() == probe_type)) return nullptr;
  }
  switch (probe_type.id()) {
    case TypeId::INTEGER:
    case TypeId::DATE: return SortedTyped<int32_t>(probe_type, values);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return SortedTyped<int64_t>(probe_type, values);
    case TypeId::DECIMAL: return SortedTyped<hugeint_t>(probe_type, values);
    case TypeId::VARCHAR: return SortedTyped<string_t>(probe_type, values);
    default: return nullptr;  // DOUBLE: NaN equals NaN in SQL, not in C++; nested types
  }
}

}  // namespace lakestream
