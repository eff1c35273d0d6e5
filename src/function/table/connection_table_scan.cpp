#include "function/table/connection_table_scan.hpp"

#include "common/string_util.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

std::optional<TableFunctionBinding> BindConnectionTable(ClientContext& context, const std::string& name) {
  std::shared_ptr<const ConnectionTable> table;
  auto registered = context.connection_tables.find(StringUtil::Lower(name));
  if (registered != context.connection_tables.end()) {
    table = registered->second;
  } else if (context.replacement_scan) {
    table = context.replacement_scan(name);
  }
  if (!table) return std::nullopt;
  TableFunctionBinding binding;
  binding.names = table->names;
  binding.types = table->rows->Types();
  std::shared_ptr<const ChunkCollection> rows = table->rows;
  binding.factory = [rows](const std::vector<idx_t>& projected) {
    return MakeCollectionSource(rows, projected, "LOCAL_TABLE_SCAN");
  };
  return binding;
}

}  // namespace lakestream
