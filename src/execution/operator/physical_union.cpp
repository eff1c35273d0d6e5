#include "execution/operator/physical_union.hpp"

namespace lakestream {

PhysicalUnionAll::PhysicalUnionAll(std::vector<LogicalType> types, std::vector<PhysicalOperatorPtr> inputs)
    : PhysicalOperator(std::move(types)) {
  for (auto& input : inputs) children.push_back(std::move(input));
}

bool PhysicalUnionAll::GetChunk(ExecutionContext& context, DataChunk& out) {
  while (current_ < children.size()) {
    if (children[current_]->Next(context, out)) return true;
    current_++;
  }
  return false;
}

}  // namespace lakestream
