#include "function/table/connection_table_scan.hpp"

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
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

void RefuseConnectionTableSource(ClientContext& context, const std::string& what, const std::string& source) {
  Catalog& catalog = context.GetCatalog();
  if (catalog.FindTable(source) || catalog.FindView(source) || catalog.FindStream(source)) return;
  bool registered = context.connection_tables.count(StringUtil::Lower(source)) > 0;
  if (!registered && !(context.replacement_scan && context.replacement_scan(source))) return;
  throw BinderError(what + " reads " + source +
                    ", which is this session's own data (a pandas DataFrame read by its variable name, or a table "
                    "registered on the connection), not a stored table: it has no change feed, and the view could not "
                    "be refreshed once the variable is gone. Store it first (CREATE TABLE " + source +
                    "_table AS SELECT * FROM " + source + ") and define the view on that table");
}

}  // namespace lakestream
