#include "execution/operator/physical_unnest.hpp"

#include <algorithm>

namespace lakestream {

static std::vector<LogicalType> UnnestTypes(const PhysicalOperator& child, const std::vector<LogicalType>& generated) {
  std::vector<LogicalType> types = child.types;
  types.insert(types.end(), generated.begin(), generated.end());
  return types;
}

PhysicalUnnest::PhysicalUnnest(PhysicalOperatorPtr child, BoundExprPtr collection,
                               const std::vector<LogicalType>& generated_types, bool position, bool outer)
    : PhysicalOperator(UnnestTypes(*child, generated_types)),
      collection_(std::move(collection)),
      position_(position),
      outer_(outer),
      values_(collection_->return_type) {
  children.push_back(std::move(child));
  children[0]->InitializeChunk(input_);
}

std::string PhysicalUnnest::Details() const {
  return std::string(position_ ? "posexplode" : "explode") + (outer_ ? "_outer" : "") + "(" + collection_->ToString() + ")";
}

bool PhysicalUnnest::GetChunk(ExecutionContext& context, DataChunk& out) {
  // No element: the row of explode_outer for a NULL or empty collection.
  constexpr sel_t kNoElement = static_cast<sel_t>(-1);
  std::vector<sel_t> rows, elements;
  std::vector<int32_t> positions;
  while (true) {
    if (!has_input_ || row_ >= input_.size()) {
      if (!children[0]->Next(context, input_)) return false;
      context.CheckInterrupt();
      if (input_.size() == 0) continue;
      Executor(context).Execute(*collection_, input_, values_);
      row_ = 0;
      element_ = 0;
      has_input_ = true;
    }
    rows.clear();
    elements.clear();
    positions.clear();
    const auto* entries = values_.GetData<list_entry_t>();
    while (row_ < input_.size() && rows.size() < STANDARD_VECTOR_SIZE) {
      idx_t length = values_.IsValid(row_) ? entries[row_].length : 0;
      if (length == 0) {
        if (outer_) {
          rows.push_back(static_cast<sel_t>(row_));
          elements.push_back(kNoElement);
          positions.push_back(0);
        }
        row_++;
        continue;
      }
      rows.push_back(static_cast<sel_t>(row_));
      elements.push_back(static_cast<sel_t>(entries[row_].offset + element_));
      positions.push_back(static_cast<int32_t>(element_));
      if (++element_ >= length) {
        row_++;
        element_ = 0;
      }
    }
    idx_t n = rows.size();
    if (n == 0) continue;
    out.Reset();
    idx_t columns = input_.ColumnCount();
    for (idx_t c = 0; c < columns; c++) out.data[c].Copy(input_.data[c], rows.data(), n, 0, 0);
    idx_t next = columns;
    if (position_) {
      Vector& pos = out.data[next++];
      std::copy_n(positions.data(), n, pos.GetData<int32_t>());
      for (idx_t k = 0; k < n; k++) pos.SetValid(k, elements[k] != kNoElement);
    }
    std::vector<const Vector*> sources;
    if (values_.GetType().id() == TypeId::MAP) {
      sources = {&values_.Child(0).Child(0), &values_.Child(0).Child(1)};
    } else {
      sources = {&values_.Child(0)};
    }
    bool any_missing = std::find(elements.begin(), elements.end(), kNoElement) != elements.end();
    for (const Vector* source : sources) {
      Vector& target = out.data[next++];
      if (!any_missing) {
        target.Copy(*source, elements.data(), n, 0, 0);
        continue;
      }
      for (idx_t k = 0; k < n; k++) {
        if (elements[k] == kNoElement) {
          target.SetValid(k, false);
        } else {
          target.Copy(*source, &elements[k], 1, 0, k);
        }
      }
    }
    out.SetCardinality(n);
    return true;
  }
}

}  // namespace lakestream
