// Table functions used in FROM: read_parquet(), table_changes(), read_files().
// Each binds its constant arguments to an output schema and a factory that
// builds the physical source for the columns the query reads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/value.hpp"

namespace lakestream {

class ClientContext;
class PhysicalOperator;

struct TableFunctionBinding {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  // Builds the source for the given column positions (in `types` order).
  std::function<std::unique_ptr<PhysicalOperator>(const std::vector<idx_t>& projected)> factory;
};

// Throws BinderError for an unknown function (with a hint) or bad arguments,
// NotImplementedError for functions whose feature has not landed yet.
TableFunctionBinding BindTableFunctionCall(ClientContext& context, const std::string& name,
                                           const std::vector<Value>& arguments,
                                           const std::vector<std::string>& argument_names);

}  // namespace lakestream
