#include "catalog/stream_columns.hpp"

namespace lakestream {

void AddStreamMetadataColumns(std::vector<std::string>& names, std::vector<LogicalType>& types) {
  names.insert(names.end(), {"__change_type", "__commit_version", "__commit_timestamp"});
  types.insert(types.end(), {TypeId::VARCHAR, TypeId::BIGINT, TypeId::TIMESTAMP});
}

TableCatalogEntry& StreamSourceEntry(Catalog& catalog, const StreamCatalogEntry& stream) {
  TableCatalogEntry* entry = catalog.FindTable(stream.source);
  if (!entry) {
    throw CatalogError("Stream " + stream.name + " is stale: its source table " + stream.source +
                       " no longer exists; drop it with DROP STREAM " + stream.name);
  }
  return *entry;
}

void StreamColumns(Catalog& catalog, const StreamCatalogEntry& stream, std::vector<std::string>& names,
                   std::vector<LogicalType>& types) {
  TableCatalogEntry& source = StreamSourceEntry(catalog, stream);
  names = source.Names();
  types = source.Types();
  AddStreamMetadataColumns(names, types);
}

}  // namespace lakestream
